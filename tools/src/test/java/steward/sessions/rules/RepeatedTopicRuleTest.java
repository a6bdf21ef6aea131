package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.store.SessionRow;

class RepeatedTopicRuleTest {
    static final String ROWS = """
            # id  | source | title                    | parent | msgs | state  | arch | idle | end_reason
            c1    | tui    | Claude Code 四种模式对比   | -      | 5    | active | 0    | 1    | -
            c2    | tui    | Claude Code hooks setup  | -      | 5    | active | 0    | 1    | -
            z1    | tui    | 桌面端会话分组             | -      | 5    | active | 0    | 1    | -
            z2    | cli    | 会话分组的问题             | -      | 5    | active | 0    | 1    | -
            solo  | tui    | Docker build cache       | -      | 5    | active | 0    | 1    | -
            gone  | tui    | Docker layers            | -      | 5    | ended  | 0    | 1    | cli_close
            the1  | tui    | The plan                 | -      | 5    | active | 0    | 1    | -
            the2  | tui    | The trip                 | -      | 5    | active | 0    | 1    | -
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, null);
    final RepeatedTopicRule rule = new RepeatedTopicRule();

    @Test
    void sharedEnglishKeywordPhraseIsReviewMedium() {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "c1"), ctx).orElseThrow();
        assertEquals(Action.review, v.action());
        assertEquals(Confidence.MEDIUM, v.confidence());
        assertTrue(
                v.reason().en().contains("\"claude code\" appears 2 times"),
                v.reason().en());
    }

    @Test
    void sharedChineseBigramsAreFound() {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "z2"), ctx).orElseThrow();
        assertTrue(v.reason().zh().contains("会话分组"), v.reason().zh());
    }

    @Test
    void uniqueTitlesEndedSessionsAndStopWordsDoNotMatch() {
        assertTrue(
                rule.evaluate(RuleFixtures.row(rows, "solo"), ctx).isEmpty(),
                "Docker only shared with an ended session");
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "gone"), ctx).isEmpty());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "the1"), ctx).isEmpty(), "'the' is a stop word");
    }
}
