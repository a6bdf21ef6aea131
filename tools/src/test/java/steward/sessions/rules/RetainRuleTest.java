package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.store.SessionRow;

class RetainRuleTest {
    static final String ROWS = """
            # id    | source   | title        | parent | msgs | state  | arch | idle | end_reason
            notes   | cli      | Rust 所有权   | -      | 24   | ended  | 0    | 20   | cli_close
            subdone | subagent | Named result | p      | 9    | ended  | 0    | 2    | completed
            p       | cli      | Parent       | -      | 9    | ended  | 0    | 2    | cli_close
            """;

    @Test
    void endedTitledSessionsFallThroughToRetain() {
        List<SessionRow> rows = RuleFixtures.rows(ROWS);
        RuleContext ctx = RuleFixtures.context(rows, null);
        for (SessionRow s : rows) {
            Verdict v = RuleEngine.evaluate(s, ctx);
            assertEquals(Action.retain, v.action(), s.id());
            assertEquals("R", v.rule(), s.id());
        }
    }

    @Test
    void theFallbackAlwaysMatches() {
        List<SessionRow> rows = RuleFixtures.rows(ROWS);
        RetainRule rule = new RetainRule();
        assertEquals(
                Action.retain,
                rule.evaluate(rows.get(0), RuleFixtures.context(rows, null))
                        .orElseThrow()
                        .action());
    }

    @Test
    void registryIsOrderedHThenSThroughE() {
        // H first (Hermes prunes it: report only); empty sessions (N) and machine sessions (M) before rule C's
        // questions about
        // active subagents; cron retention (T) after B (untitled ones go by B) and before D
        assertEquals(
                List.of("H", "S", "F", "K", "A", "B", "N", "M", "C", "T", "D", "E", "R"),
                Rules.ORDERED.stream().map(Rule::id).toList());
    }
}
