package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.store.SessionRow;

class EmptySessionRuleTest {
    // idle in days: 0.1 = 2.4 h, 0.02 = 29 min (started one hour before the last activity)
    static final String ROWS = """
            # id         | source | title     | parent | msgs | state  | arch | idle | end_reason
            visit_1      | api    | -         | -      | 0    | active | 0    | 0.1  | -
            visit_2      | tui    | -         | -      | 0    | ended  | 0    | 2    | tui_close
            named_empty  | cli    | Scratch   | -      | 0    | active | 0    | 1    | -
            named_ended  | cli    | My plan   | -      | 0    | ended  | 0    | 0.2  | cli_close
            opening      | tui    | -         | -      | 0    | active | 0    | 0.02 | -
            one_message  | tui    | -         | -      | 1    | active | 0    | 3    | -
            current      | tui    | -         | -      | 0    | active | 0    | 3    | -
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, "current");
    final EmptySessionRule rule = new EmptySessionRule();

    @Test
    void emptySessionsOlderThanAnHourAreDeletedAtHigh() {
        for (String id : List.of("visit_1", "visit_2")) {
            Verdict v = rule.evaluate(RuleFixtures.row(rows, id), ctx).orElseThrow(() -> new AssertionError(id));
            assertEquals(Action.delete, v.action());
            assertEquals(Confidence.HIGH, v.confidence());
            assertEquals("N/empty", v.condition());
        }
        assertEquals(
                "N",
                RuleEngine.evaluate(RuleFixtures.row(rows, "visit_1"), ctx).rule(),
                "not M: an empty session is deleted, not ended");
        assertEquals(
                Confidence.HIGH,
                RuleEngine.evaluate(RuleFixtures.row(rows, "visit_1"), ctx).confidence());
    }

    /** Review of 2026-12-05: an ended empty session titled "My plan" was deleted at HIGH without a question. */
    @Test
    void aTitledEmptySessionIsAskedAboutActiveOrEnded() {
        for (String id : List.of("named_empty", "named_ended")) {
            Verdict v = rule.evaluate(RuleFixtures.row(rows, id), ctx).orElseThrow(() -> new AssertionError(id));
            assertEquals(Action.delete, v.action());
            assertEquals(Confidence.MEDIUM, v.confidence(), id);
            assertEquals("N/titled", v.condition(), "learned apart from untitled empty sessions");
            assertEquals(
                    Confidence.MEDIUM,
                    RuleEngine.evaluate(RuleFixtures.row(rows, id), ctx).confidence(),
                    id);
        }
    }

    @Test
    void youngCurrentOrNonEmptySessionsAreNotMatched() {
        for (String id : List.of("opening", "one_message", "current")) {
            assertTrue(rule.evaluate(RuleFixtures.row(rows, id), ctx).isEmpty(), id);
        }
    }

    @Test
    void aTitledActiveEmptySessionIsStillUnderTheSafetyCap() {
        Verdict v = RuleEngine.evaluate(RuleFixtures.row(rows, "named_empty"), ctx);
        assertEquals("N", v.rule());
        assertEquals(Confidence.MEDIUM, v.confidence(), "the user named it: asked, never deleted unasked");
        assertTrue(v.guarded());
    }
}
