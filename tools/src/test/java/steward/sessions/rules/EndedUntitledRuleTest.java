package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.store.SessionRow;

class EndedUntitledRuleTest {
    static final String ROWS = """
            # id   | source   | title    | parent | msgs | state  | arch | idle | end_reason
            ten    | telegram | -        | -      | 10   | ended  | 0    | 3    | idle
            eleven | tui      | -        | -      | 11   | ended  | 0    | 3    | cli_close
            blank  | cli      |          | -      | 0    | ended  | 0    | 3    | cli_close
            titled | cli      | Taxes    | -      | 2    | ended  | 0    | 3    | cli_close
            open   | cli      | -        | -      | 2    | active | 0    | 3    | -
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, null);
    final EndedUntitledRule rule = new EndedUntitledRule();

    @Test
    void upToTenMessagesIsHighAboveIsMedium() {
        assertEquals(
                Confidence.HIGH,
                rule.evaluate(RuleFixtures.row(rows, "ten"), ctx).orElseThrow().confidence());
        assertEquals(
                Confidence.HIGH,
                rule.evaluate(RuleFixtures.row(rows, "blank"), ctx)
                        .orElseThrow()
                        .confidence(),
                "blank title is untitled");
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "eleven"), ctx).orElseThrow();
        assertEquals(Confidence.MEDIUM, v.confidence());
        assertEquals(Action.delete, v.action());
    }

    @Test
    void titledOrActiveSessionsAreNotMatched() {
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "titled"), ctx).isEmpty());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "open"), ctx).isEmpty());
    }
}
