package steward.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TitleAnalyzerTest {
    @Test
    void englishWordsAreLowercasedAndStopWordsNumbersAndSuffixesDropped() {
        assertEquals(
                List.of("claude", "code", "hooks", "setup"), TitleAnalyzer.tokens("The Claude Code hooks setup #2"));
        assertEquals(List.of("tax", "return"), TitleAnalyzer.tokens("tax return 2026"));
    }

    @Test
    void cjkRunsBecomeBigramsSplitAtStopCharacters() {
        List<String> t = TitleAnalyzer.tokens("桌面端的会话分组");
        assertTrue(t.containsAll(List.of("桌面", "面端", "会话", "话分", "分组")), t.toString());
        assertFalse(t.contains("端的"), t.toString());
        assertEquals(
                List.of("claude", "code", "四种", "种模", "模式", "式对", "对比"), TitleAnalyzer.tokens("Claude Code 四种模式对比"));
    }

    @Test
    void hostileTitlesAreJustWords() {
        assertEquals(
                List.of("brien", "drop", "table", "sessions"), TitleAnalyzer.tokens("O'Brien; DROP TABLE sessions;--"));
    }

    @Test
    void overlappingBigramsOfOneSharedRunAreOneWord() {
        assertEquals(List.of("数据库"), TitleAnalyzer.sharedWords("数据库连接池配置", List.of("数据", "据库"), "数据库备份策略讨论"));
        assertEquals(
                List.of("备份", "数据库"),
                TitleAnalyzer.sharedWords("备份数据库", List.of("备份", "数据", "据库"), "数据库备份策略"),
                "not contiguous in the title: two words");
        assertEquals(
                List.of("postgres", "pool"),
                TitleAnalyzer.sharedWords("postgres pool", List.of("postgres", "pool"), "x"));
        assertFalse(TitleAnalyzer.tokens("周末讨论一下").contains("讨论"), "a generic word, as 'discuss' is");
        assertFalse(TitleAnalyzer.tokens("weekend discussion").contains("discussion"));
    }
}
