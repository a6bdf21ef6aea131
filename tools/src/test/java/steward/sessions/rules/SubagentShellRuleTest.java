package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.store.SessionRow;

class SubagentShellRuleTest {
    static final String ROWS = """
            # id     | source   | title     | parent | msgs | state  | arch | idle | end_reason
            shell0   | subagent | -         | p      | 0    | ended  | 0    | 1    | completed
            shell4   | subagent | Named     | p      | 4    | ended  | 0    | 1    | completed
            long     | subagent | -         | p      | 16   | ended  | 0    | 1    | completed
            namedlong| subagent | Research  | p      | 16   | ended  | 0    | 1    | completed
            live     | subagent | -         | p      | 2    | active | 0    | 1    | -
            cli      | cli      | -         | -      | 2    | ended  | 0    | 1    | cli_close
            p        | cli      | Parent    | -      | 9    | ended  | 0    | 1    | cli_close
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, null);
    final SubagentShellRule rule = new SubagentShellRule();

    @Test
    void endedShellsAndUntitledLongSubagentsAreDeletedHigh() {
        for (String id : List.of("shell0", "shell4", "long")) {
            Verdict v = rule.evaluate(RuleFixtures.row(rows, id), ctx).orElseThrow();
            assertEquals(Action.delete, v.action(), id);
            assertEquals(Confidence.HIGH, v.confidence(), id);
        }
    }

    @Test
    void titledLongActiveOrNonSubagentSessionsAreNotShells() {
        for (String id : List.of("namedlong", "live", "cli", "p")) {
            assertTrue(rule.evaluate(RuleFixtures.row(rows, id), ctx).isEmpty(), id);
        }
    }
}
