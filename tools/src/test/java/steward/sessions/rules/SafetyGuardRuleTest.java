package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.audit.AuditResult;
import steward.sessions.store.HermesSessions;
import steward.sessions.store.SessionRow;

class SafetyGuardRuleTest {
    static final String ROWS = """
            # id    | source   | title         | parent | msgs | state  | arch | idle | end_reason
            cur     | tui      | -             | -      | 2    | active | 0    | 0    | -
            root    | cli      | -             | -      | 3    | ended  | 0    | 9    | compression
            tip     | cli      | -             | root   | 5    | active | 0    | 1    | -
            deadroot| cli      | -             | -      | 3    | ended  | 0    | 9    | compression
            deadtip | cli      | -             | deadroot | 2  | ended  | 0    | 8    | cli_close
            named   | tui      | My project    | -      | 40   | active | 1    | 30   | -
            sub     | subagent | Named sub     | -      | 40   | active | 0    | 30   | -
            """;

    final SafetyGuardRule rule = new SafetyGuardRule();
    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, "cur");

    @Test
    void currentSessionIsRetained() {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "cur"), ctx).orElseThrow();
        assertEquals(Action.retain, v.action());
        assertEquals("S", v.rule());
    }

    @Test
    void chainRootWithLiveContinuationIsRetainedEvenIfUntitledAndEnded() {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "root"), ctx).orElseThrow();
        assertEquals(Action.retain, v.action());
        // through the whole engine, rule B would otherwise delete it
        assertEquals(
                Action.retain,
                RuleEngine.evaluate(RuleFixtures.row(rows, "root"), ctx).action());
    }

    @Test
    void deadChainIsNotProtected() {
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "deadroot"), ctx).isEmpty());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "tip"), ctx).isEmpty());
    }

    @Test
    void anActiveSessionDatedInTheFutureIsKeptAndNeverGuessedCurrent() {
        List<SessionRow> r = RuleFixtures.rows("""
                now     | tui      | -  | -  | 2  | active | 0 | 0      | -
                skewed  | tui      | -  | -  | 2  | active | 0 | -0.003 | -
                ahead   | cli      | -  | -  | 2  | active | 0 | -0.004 | -
                sub     | subagent | -  | -  | 2  | active | 0 | -30    | -
                ended   | cli      | -  | -  | 2  | ended  | 0 | -30    | -
                """);
        // 259 s ahead is within the 5 minutes' allowance, 346 s is not
        assertEquals(
                new AuditResult.Current("skewed", "newest_active_tui_cli_skipped_future_dated"),
                HermesSessions.newestActiveTuiCli(r, RuleFixtures.NOW));
        RuleContext c = RuleFixtures.context(r, "skewed");
        for (String id : List.of("ahead", "sub")) {
            Verdict v = RuleEngine.evaluate(RuleFixtures.row(r, id), c);
            assertEquals("S", v.rule(), id + ": " + v.reason().en());
            assertEquals(Action.retain, v.action());
            assertTrue(
                    v.reason().en().contains("dated in the future"), v.reason().en());
        }
        // an ended session's facts (untitled, 2 messages) do not depend on the clock: rule B decides as for any other
        assertEquals("B", RuleEngine.evaluate(RuleFixtures.row(r, "ended"), c).rule());
    }

    @Test
    void capKeepsTitledActiveNonSubagentAtMostMedium() {
        SessionRow named = RuleFixtures.row(rows, "named");
        Verdict high = new Verdict("X", Action.delete, Confidence.HIGH, new Text("x", "x"));
        assertEquals(Confidence.MEDIUM, SafetyGuardRule.cap(named, high).confidence());
        SessionRow sub = RuleFixtures.row(rows, "sub");
        assertEquals(Confidence.HIGH, SafetyGuardRule.cap(sub, high).confidence(), "subagents are not capped");
        SessionRow deadtip = RuleFixtures.row(rows, "deadtip");
        assertEquals(Confidence.HIGH, SafetyGuardRule.cap(deadtip, high).confidence(), "ended sessions are not capped");
    }

    @Test
    void metadataIsDeclared() {
        assertEquals("S", rule.meta().id());
        assertTrue(rule.meta().rationale().length() > 20);
    }
}
