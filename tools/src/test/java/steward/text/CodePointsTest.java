package steward.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CodePointsTest {
    @Test
    void countsCodePointsLikePythonLen() {
        assertEquals(1, CodePoints.length("😀"));
        assertEquals(2, "😀".length());
        assertEquals(4, CodePoints.length("中文ab"));
    }

    @Test
    void stripsWhatPythonStripsAndNothingElse() {
        // U+001C..U+001F, U+0085 and U+00A0 are whitespace for Python's str.strip()
        assertEquals("x", CodePoints.pyStrip("\u001c\u0085\u00a0 x \u3000\n"));
        // U+200B (zero width space) is not whitespace in Python
        assertEquals("\u200bx", CodePoints.pyStrip("\u200bx"));
        assertEquals("", CodePoints.pyStrip(" \t\n"));
    }

    @Test
    void prefixNeverSplitsSurrogatePairs() {
        assertEquals("a😀", CodePoints.prefix("a😀b", 2));
        assertEquals("a😀b", CodePoints.prefix("a😀b", 10));
        assertEquals("", CodePoints.prefix("abc", 0));
    }
}
