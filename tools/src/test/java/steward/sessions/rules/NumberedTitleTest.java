package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/** The plain scan for numbered titles ("… #2") decides exactly what the regex Hermes' lineage titles follow matches. */
class NumberedTitleTest {
    @Test
    void plainScanAgreesWithTheRegex() {
        List<String> titles = List.of(
                "Fix login #2",
                "Fix login",
                " #2",
                "#2",
                "a #",
                "a #x",
                "a  #12",
                "a #1 #2",
                "a #1#2",
                "a#2",
                "a # 2",
                "a #2 ",
                "a #2\n",
                "line\nbreak #3",
                "cr\rbreak #3",
                "nel\u0085 #3",
                "ls\u2028 #3",
                "ps\u2029 #3",
                "tab\t #4",
                "arabic #\u0663",
                "fullwidth #\uff12",
                "搜索咨询 #10",
                "emoji \ud83d\ude00 #7",
                "a #007",
                "");
        for (String t : titles) {
            Matcher m = RuleContext.NUMBERED.matcher(t);
            String want = m.matches() ? m.group(1) : null;
            assertEquals(want, RuleContext.numberedBase(t), t);
        }
    }
}
