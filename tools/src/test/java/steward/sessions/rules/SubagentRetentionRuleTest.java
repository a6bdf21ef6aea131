package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.learning.Preferences;
import steward.sessions.store.SessionRow;

class SubagentRetentionRuleTest {
    static final String ROWS = """
            # id        | source   | title    | parent | msgs | state  | arch | idle  | end_reason
            young       | subagent | -        | p      | 2    | ended  | 0    | 1     | completed
            exact       | subagent | -        | p      | 2    | ended  | 0    | 3     | completed
            almost      | subagent | -        | p      | 2    | ended  | 0    | 2.999 | completed
            old         | subagent | -        | p      | 2    | ended  | 0    | 9     | completed
            closed      | subagent | -        | p      | 2    | ended  | 0    | 30    | agent_close
            reaped      | subagent | -        | p      | 2    | ended  | 0    | 30    | ws_orphan_reap
            compressed  | subagent | -        | p      | 2    | ended  | 0    | 30    | compression
            contchild   | cli      | Cont     | compressed | 5 | active | 0   | 1     | -
            named       | subagent | Research | p      | 16   | ended  | 0    | 1     | completed
            running     | subagent | -        | p      | 2    | active | 0    | 1     | -
            alivekid    | subagent | -        | alive  | 2    | ended  | 0    | 1     | completed
            alivekidold | subagent | -        | alive  | 2    | ended  | 0    | 5     | completed
            alive       | cli      | Working  | -      | 9    | active | 0    | 0     | -
            p           | cli      | Parent   | -      | 9    | ended  | 0    | 1     | cli_close
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, null);
    final SubagentRetentionRule rule = new SubagentRetentionRule();

    Verdict kept(String id, RuleContext c) {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, id), c)
                .orElseThrow(() -> new AssertionError(id + " should be kept"));
        assertEquals(Action.retain, v.action(), id);
        assertEquals(Confidence.HIGH, v.confidence(), id);
        return v;
    }

    @Test
    void aFinishedSubagentYoungerThanKeepDaysIsKeptAndSaysWhenItBecomesEligible() {
        Verdict v = kept("young", ctx);
        assertEquals("K/young", v.condition());
        // last activity 1 day before 2026-08-10T12:00Z: eligible 3 days after it
        assertTrue(
                v.reason().en().contains("eligible for deletion from 2026-08-12 12:00 UTC"),
                v.reason().en());
        kept("almost", ctx);
    }

    @Test
    void atExactlyKeepDaysRuleAMayDeleteIt() {
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "exact"), ctx).isEmpty());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "old"), ctx).isEmpty());
        assertEquals(
                "A", RuleEngine.evaluate(RuleFixtures.row(rows, "exact"), ctx).rule());
        assertEquals(
                Action.delete,
                RuleEngine.evaluate(RuleFixtures.row(rows, "old"), ctx).action());
        assertEquals(
                "K", RuleEngine.evaluate(RuleFixtures.row(rows, "almost"), ctx).rule(), "K comes before A");
    }

    @Test
    void continuableSubagentsAreAlwaysKept() {
        for (String id : List.of("closed", "reaped", "compressed")) {
            assertEquals("K/continuable", kept(id, ctx).condition(), id);
            assertEquals(
                    "K/continuable",
                    kept(id, RuleContext.of(RuleFixtures.NOW, null, rows, Preferences.empty(), 0))
                            .condition(),
                    id);
        }
    }

    @Test
    void theParentBeingAliveChangesNothing() {
        kept("alivekid", ctx);
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "alivekidold"), ctx).isEmpty());
        assertEquals(
                Action.delete,
                RuleEngine.evaluate(RuleFixtures.row(rows, "alivekidold"), ctx).action(),
                "an old finished shell goes even while its parent is in use: its result lives in the parent");
    }

    @Test
    void aClaudeCodeSubagentIsKeptWhileItsSessionIsInUseAndGoesOnceItEnded() {
        List<SessionRow> claude = RuleFixtures.claude(rows);
        RuleContext c = RuleFixtures.context(claude, null);
        Verdict v = rule.evaluate(RuleFixtures.row(claude, "alivekidold"), c)
                .orElseThrow(() -> new AssertionError("alivekidold should be kept"));
        assertEquals("K/parent_live", v.condition());
        assertEquals(Action.retain, v.action());
        assertEquals(
                "K",
                RuleEngine.evaluate(RuleFixtures.row(claude, "alivekidold"), c).rule());
        // the parent ended: rule A takes the old shell
        assertTrue(rule.evaluate(RuleFixtures.row(claude, "old"), c).isEmpty());
        assertEquals(
                Action.delete,
                RuleEngine.evaluate(RuleFixtures.row(claude, "old"), c).action());
    }

    @Test
    void keepDaysZeroTurnsTheGracePeriodOff() {
        RuleContext none = RuleContext.of(RuleFixtures.NOW, null, rows, Preferences.empty(), 0);
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "young"), none).isEmpty());
        RuleContext week = RuleContext.of(RuleFixtures.NOW, null, rows, Preferences.empty(), 7);
        kept("old", RuleContext.of(RuleFixtures.NOW, null, rows, Preferences.empty(), 10));
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "old"), week).isEmpty());
    }

    @Test
    void onlyWhatRuleAWouldDeleteIsHeldBack() {
        for (String id : List.of("named", "running", "alive", "p", "contchild")) {
            assertTrue(rule.evaluate(RuleFixtures.row(rows, id), ctx).isEmpty(), id);
        }
    }
}
