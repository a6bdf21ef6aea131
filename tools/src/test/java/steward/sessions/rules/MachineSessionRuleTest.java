package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import steward.config.HousekeepingSettings;
import steward.learning.Preferences;
import steward.sessions.store.SessionRow;

class MachineSessionRuleTest {
    // idle is in days: 0.125 = 3 h, 0.04 = 58 min
    static final String ROWS = """
            # id        | source     | title         | parent | msgs | state  | arch | idle  | end_reason
            cron_dead   | cron       | Daily digest  | -      | 8    | active | 0    | 0.125 | -
            cron_live   | cron       | -             | -      | 3    | active | 0    | 0.04  | -
            tg_old      | telegram   | Chat with Ann | -      | 40   | active | 0    | 3     | -
            tg_today    | telegram   | -             | -      | 12   | active | 0    | 1     | -
            slack_old   | slack      | -             | -      | 5    | active | 0    | 2.5   | -
            api_old     | api_server | -             | -      | 2    | active | 0    | 2     | -
            hook_old    | webhook    | -             | -      | 2    | active | 0    | 1.5   | -
            sub_old     | subagent   | -             | cli_1  | 4    | active | 0    | 2     | -
            sub_young   | subagent   | -             | cli_1  | 4    | active | 0    | 0.5   | -
            cli_1       | cli        | Tax return    | -      | 30   | active | 0    | 30    | -
            mystery     | holodeck   | -             | -      | 9    | active | 0    | 30    | -
            cron_ended  | cron       | -             | -      | 8    | ended  | 0    | 3     | completed
            cron_cur    | cron       | -             | -      | 8    | active | 0    | 3     | -
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, "cron_cur");
    final MachineSessionRule rule = new MachineSessionRule();

    Verdict of(String id) {
        return rule.evaluate(RuleFixtures.row(rows, id), ctx).orElse(null);
    }

    @Test
    void idleMachineSessionsAreMarkedEndedAtHigh() {
        for (String id : List.of("cron_dead", "tg_old", "slack_old", "api_old", "hook_old", "sub_old")) {
            Verdict v = of(id);
            assertEquals(Action.mark_ended, v == null ? null : v.action(), id);
            assertEquals(Confidence.HIGH, v.confidence(), id);
        }
        assertEquals("M/cron", of("cron_dead").condition());
        assertEquals("M/gateway", of("tg_old").condition());
        assertEquals("M/api", of("hook_old").condition());
        assertEquals("M/subagent", of("sub_old").condition());
        assertTrue(
                of("tg_old").reason().en().contains("idle for 3 d"),
                of("tg_old").reason().en());
    }

    @Test
    void sessionsWithinTheirKindsIdleTimeInteractiveUnknownEndedOrCurrentAreNotMatched() {
        for (String id : List.of("cron_live", "tg_today", "sub_young", "cli_1", "mystery", "cron_ended", "cron_cur")) {
            assertEquals(null, of(id), id);
        }
    }

    @Test
    void aTitledMachineSessionStaysHighThroughTheEngineWhileTheCapStillHoldsForInteractiveOnes() {
        Verdict v = RuleEngine.evaluate(RuleFixtures.row(rows, "tg_old"), ctx);
        assertEquals("M", v.rule());
        assertEquals(
                Confidence.HIGH,
                v.confidence(),
                "the safety cap is about the user's conversations, not chat-platform threads");
        Verdict sub = RuleEngine.evaluate(RuleFixtures.row(rows, "sub_old"), ctx);
        assertEquals("M", sub.rule(), "before rule C's question: a subagent idle for two days is a run left open");
        assertEquals(
                "C",
                RuleEngine.evaluate(RuleFixtures.row(rows, "sub_young"), ctx).rule());
    }

    @Test
    void aKindSetToZeroIsOff() {
        var hk = new HousekeepingSettings(
                Map.of("cron", 2.0, "subagent", 24.0, "gateway", 0.0, "api", 24.0), 14, false, 90, 24, List.of());
        RuleContext off =
                RuleContext.of(RuleFixtures.NOW, null, rows, Preferences.empty(), 3, hk, null, java.util.Set.of());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "tg_old"), off).isEmpty());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "cron_dead"), off).isPresent());
    }

    @Test
    void ruleDNeverCountsMachineSessions() {
        // 10 active sessions, of which 2 are the user's own: not "too many" for N = 3, and no machine session is asked
        // about by D
        assertEquals(2, ctx.activeCount(), "cli_1 and mystery (unknown sources are interactive)");
        TooManyActiveRule d = new TooManyActiveRule();
        for (SessionRow s : rows) assertTrue(d.evaluate(s, ctx).isEmpty(), s.id());
        String crowded = ROWS + """
                cli_2 | tui | Notes  | - | 5 | active | 0 | 10 | -
                cli_3 | tui | Plans  | - | 5 | active | 0 | 10 | -
                """;
        List<SessionRow> more = RuleFixtures.rows(crowded);
        RuleContext c2 = RuleFixtures.context(more, null);
        assertEquals(4, c2.activeCount());
        assertTrue(
                d.evaluate(RuleFixtures.row(more, "cli_2"), c2).isPresent(),
                "four interactive sessions are more than N");
        assertTrue(d.evaluate(RuleFixtures.row(more, "tg_today"), c2).isEmpty(), "a machine session is never D's");
    }
}
