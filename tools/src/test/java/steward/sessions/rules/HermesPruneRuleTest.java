package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.learning.PreferenceData;
import steward.learning.Preferences;
import steward.sessions.store.SessionRow;

/** Rule H and its interplay with the other rules when Hermes' sessions.auto_prune is on (retention 90 days). */
class HermesPruneRuleTest {
    static final String ROWS = """
            # id          | source   | title        | parent | msgs | state  | arch | idle | end_reason
            ancient_chat  | cli      | Old project  | -      | 40   | ended  | 0    | 120  | cli_close
            ancient_cron  | cron     | Digest       | -      | 9    | ended  | 0    | 100  | completed
            kept_chat     | tui      | Kept notes   | -      | 9    | ended  | 0    | 95   | tui_close
            old_sub       | subagent | -            | -      | 9    | ended  | 0    | 95   | agent_close
            month_cron    | cron     | Digest #2    | -      | 9    | ended  | 0    | 30   | completed
            ancient_open  | tui      | Still open   | -      | 9    | active | 0    | 100  | -
            fresh_chat    | cli      | New idea     | -      | 9    | ended  | 0    | 3    | cli_close
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);

    static Preferences keptChat() {
        PreferenceData d = new PreferenceData();
        d.session_level.retain.add(new PreferenceData.SessionMark("kept_chat", null, "2026-08-01", "B"));
        return new Preferences(d, null);
    }

    RuleContext on(Double lastRun) {
        return RuleFixtures.context(rows, null, keptChat(), true, 90, lastRun);
    }

    @Test
    void endedSessionsPastHermesRetentionAreReportedWithWhenHermesPrunesThem() {
        RuleContext ctx = on(RuleFixtures.NOW - 3600);
        for (String id : List.of("ancient_chat", "ancient_cron", "kept_chat", "old_sub")) {
            Verdict v = RuleEngine.evaluate(RuleFixtures.row(rows, id), ctx);
            assertEquals("H", v.rule(), id);
            assertEquals(Action.review, v.action(), id + ": nothing for Steward to do");
            assertFalse(v.action().executable());
            assertTrue(
                    v.reason().en().contains("at the first Hermes start after 2026-08-11 11:00 UTC"),
                    v.reason().en());
        }
        assertTrue(RuleEngine.evaluate(RuleFixtures.row(rows, "ancient_chat"), on(null))
                .reason()
                .en()
                .contains("at Hermes' next start"));
    }

    @Test
    void neverTheOpposite() {
        RuleContext ctx = on(null);
        // without H: F keeps kept_chat, K keeps the continuable subagent, T deletes the old cron run
        RuleContext off = RuleFixtures.context(rows, null, keptChat(), false, 90, null);
        assertEquals(
                "F",
                RuleEngine.evaluate(RuleFixtures.row(rows, "kept_chat"), off).rule());
        assertEquals(
                "K", RuleEngine.evaluate(RuleFixtures.row(rows, "old_sub"), off).rule());
        assertEquals(
                "T",
                RuleEngine.evaluate(RuleFixtures.row(rows, "ancient_cron"), off).rule());
        // with it, none of them is promised kept, and none is proposed for deletion a second time
        for (String id : List.of("kept_chat", "old_sub", "ancient_cron")) {
            Verdict v = RuleEngine.evaluate(RuleFixtures.row(rows, id), ctx);
            assertEquals("H", v.rule(), id);
            assertFalse(v.action() == Action.retain || v.action() == Action.delete, id);
        }
    }

    @Test
    void notYetDueActiveOrOffIsNotH() {
        RuleContext ctx = on(null);
        HermesPruneRule h = new HermesPruneRule();
        for (String id : List.of("month_cron", "ancient_open", "fresh_chat"))
            assertTrue(h.evaluate(RuleFixtures.row(rows, id), ctx).isEmpty(), id);
        Verdict t = RuleEngine.evaluate(RuleFixtures.row(rows, "month_cron"), ctx);
        assertEquals("T", t.rule(), "Steward's 14-day cron retention acts before Hermes' 90 days");
        assertTrue(
                t.reason().en().contains("Hermes' auto_prune deletes it from 2026-10-09 anyway"),
                t.reason().en());
        RuleContext off = RuleFixtures.context(rows, null, Preferences.empty(), false, 90, null);
        for (SessionRow s : rows) assertTrue(h.evaluate(s, off).isEmpty(), s.id());
    }
}
