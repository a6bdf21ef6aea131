package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.store.SessionRow;

class ActiveSubagentRuleTest {
    static final String ROWS = """
            # id    | source   | title        | parent | msgs | state  | arch | idle | end_reason
            nameless| subagent | -            | p      | 4    | active | 0    | 5    | -
            named   | subagent | Lint subtask | p      | 6    | active | 0    | 2    | -
            done    | subagent | -            | p      | 6    | ended  | 0    | 2    | completed
            p       | tui      | -            | -      | 6    | active | 0    | 2    | -
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, null);
    final ActiveSubagentRule rule = new ActiveSubagentRule();

    @Test
    void untitledActiveSubagentIsNameOrDeleteMedium() {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "nameless"), ctx).orElseThrow();
        assertEquals(Action.name_or_delete, v.action());
        assertEquals(Confidence.MEDIUM, v.confidence());
    }

    @Test
    void titledActiveSubagentIsReviewLow() {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "named"), ctx).orElseThrow();
        assertEquals(Action.review, v.action());
        assertEquals(Confidence.LOW, v.confidence());
    }

    @Test
    void endedSubagentsAndOtherSourcesAreNotMatched() {
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "done"), ctx).isEmpty());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "p"), ctx).isEmpty());
    }
}
