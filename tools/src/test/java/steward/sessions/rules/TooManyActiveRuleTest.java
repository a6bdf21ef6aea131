package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.store.SessionRow;

class TooManyActiveRuleTest {
    static final String MANY = """
            # id     | source | title          | parent | msgs | state  | arch | idle | end_reason
            cur      | tui    | Now            | -      | 5    | active | 0    | 0    | -
            archived | tui    | Old thread     | -      | 8    | active | 1    | 1    | -
            stale    | tui    | GPU driver     | -      | 9    | active | 0    | 4    | -
            fresh    | cli    | Docker cache   | -      | 9    | active | 0    | 2    | -
            noname   | cli    | -              | -      | 9    | active | 0    | 9    | -
            over     | cli    | Ended thing    | -      | 9    | ended  | 0    | 9    | cli_close
            """;
    static final String FEW = """
            # id     | source | title          | parent | msgs | state  | arch | idle | end_reason
            cur      | tui    | Now            | -      | 5    | active | 0    | 0    | -
            archived | tui    | Old thread     | -      | 8    | active | 1    | 1    | -
            stale    | tui    | GPU driver     | -      | 9    | active | 0    | 4    | -
            """;

    final TooManyActiveRule rule = new TooManyActiveRule();

    @Test
    void aboveThresholdArchivedIsMediumAndStaleTitledIsLow() {
        List<SessionRow> rows = RuleFixtures.rows(MANY);
        RuleContext ctx = RuleFixtures.context(rows, "cur");
        assertEquals(5, ctx.activeCount());
        Verdict a = rule.evaluate(RuleFixtures.row(rows, "archived"), ctx).orElseThrow();
        assertEquals(Action.mark_ended, a.action());
        assertEquals(Confidence.MEDIUM, a.confidence());
        Verdict s = rule.evaluate(RuleFixtures.row(rows, "stale"), ctx).orElseThrow();
        assertEquals(Action.mark_ended, s.action());
        assertEquals(Confidence.LOW, s.confidence());
    }

    @Test
    void freshUntitledEndedAndCurrentAreNotCandidates() {
        List<SessionRow> rows = RuleFixtures.rows(MANY);
        RuleContext ctx = RuleFixtures.context(rows, "cur");
        for (String id : List.of("cur", "fresh", "noname", "over"))
            assertTrue(rule.evaluate(RuleFixtures.row(rows, id), ctx).isEmpty(), id);
    }

    @Test
    void atOrBelowThresholdNothingMatches() {
        List<SessionRow> rows = RuleFixtures.rows(FEW);
        RuleContext ctx = RuleFixtures.context(rows, "cur");
        for (SessionRow s : rows) assertTrue(rule.evaluate(s, ctx).isEmpty(), s.id());
    }
}
