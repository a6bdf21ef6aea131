package steward.text;

import java.util.Locale;

/**
 * String helpers that behave like Python's, because Hermes is written in Python and counts in
 * Unicode code points: an emoji is one character, not two UTF-16 units.
 */
public final class CodePoints {
    private CodePoints() {}

    /** Python {@code len(s)}: the number of code points. */
    public static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /** Python {@code str.isspace()} for one code point (Unicode White_Space plus the ASCII separators). */
    public static boolean isPythonWhitespace(int cp) {
        switch (cp) {
            case 0x09,
                    0x0A,
                    0x0B,
                    0x0C,
                    0x0D,
                    0x1C,
                    0x1D,
                    0x1E,
                    0x1F,
                    0x20,
                    0x85,
                    0xA0,
                    0x1680,
                    0x2028,
                    0x2029,
                    0x202F,
                    0x205F,
                    0x3000 -> {
                return true;
            }
            default -> {
                return cp >= 0x2000 && cp <= 0x200A;
            }
        }
    }

    /**
     * Whether a text shows nothing: null, or only white space, control characters (Cc: NUL, BEL, …) and format
     * characters (Cf: zero-width space and joiners, BOM, word joiner, soft hyphen). A query or context made of them is as
     * empty as one of spaces.
     */
    public static boolean blank(String s) {
        if (s == null) return true;
        return s.codePoints()
                .allMatch(cp -> Character.isWhitespace(cp)
                        || Character.isSpaceChar(cp)
                        || isPythonWhitespace(cp)
                        || Character.getType(cp) == Character.CONTROL
                        || Character.getType(cp) == Character.FORMAT);
    }

    /** Python {@code str.strip()} with no argument. Java's {@code strip()} differs (e.g. U+001C..U+001F, U+0085, U+00A0). */
    public static String pyStrip(String s) {
        int start = 0;
        int end = s.length();
        while (start < end) {
            int cp = s.codePointAt(start);
            if (!isPythonWhitespace(cp)) break;
            start += Character.charCount(cp);
        }
        while (end > start) {
            int cp = s.codePointBefore(end);
            if (!isPythonWhitespace(cp)) break;
            end -= Character.charCount(cp);
        }
        return s.substring(start, end);
    }

    /**
     * Python's {@code needle in haystack}: a match that starts or ends inside a surrogate pair is none (Python compares
     * code points; Java's {@code contains} would let a lone surrogate match half of an emoji).
     */
    public static boolean contains(String haystack, String needle) {
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            int end = i + needle.length();
            if (!splitsPair(haystack, i) && !splitsPair(haystack, end)) return true;
        }
        return false;
    }

    /** The first surrogate of {@code s} that is not half of a pair (no character: not writable as UTF-8), or -1. */
    public static int loneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) i++;
            else if (Character.isSurrogate(c)) return c;
        }
        return -1;
    }

    /**
     * Why {@code what} holding the lone surrogate {@code cp} is refused, in one wording for every writer (Hermes' memory
     * files and Claude Code's).
     */
    public static String loneSurrogateRefusal(String what, int cp) {
        return what + " holds a lone surrogate (U+" + String.format(Locale.ROOT, "%04X", cp)
                + ", half of a character), which cannot be written as UTF-8. Send the text again with whole characters.";
    }

    /** Whether index {@code i} falls between the two halves of a surrogate pair. */
    private static boolean splitsPair(String s, int i) {
        return i > 0
                && i < s.length()
                && Character.isHighSurrogate(s.charAt(i - 1))
                && Character.isLowSurrogate(s.charAt(i));
    }

    /** The first {@code n} code points of {@code s} (never splits a surrogate pair). */
    public static String prefix(String s, int n) {
        if (n <= 0) return "";
        int len = length(s);
        if (n >= len) return s;
        return s.substring(0, s.offsetByCodePoints(0, n));
    }
}
