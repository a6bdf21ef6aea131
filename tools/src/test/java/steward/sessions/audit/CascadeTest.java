package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import steward.learning.PreferenceData;
import steward.learning.Preferences;
import steward.sessions.rules.RuleContext;
import steward.sessions.rules.RuleFixtures;
import steward.sessions.store.SessionRow;

/** The cascade never outranks the child: a deletion runs automatically only when every subagent it takes along would too. */
class CascadeTest {
    static final String ROWS = """
            # id     | source   | title        | parent | msgs | state  | arch | idle | end_reason
            cur      | tui      | -            | -      | 2    | active | 0    | 0    | -
            p_shells | cli      | -            | -      | 6    | ended  | 0    | 2    | cli_close
            shell1   | subagent | -            | p_shells | 2  | ended  | 0    | 2    | completed
            shell2   | subagent | -            | p_shells | 0  | ended  | 0    | 2    | completed
            p_titled | cli      | -            | -      | 16   | ended  | 0    | 2    | cli_close
            lint     | subagent | Lint subtask | p_titled | 6  | ended  | 0    | 2    | completed
            p_run    | cli      | -            | -      | 5    | ended  | 0    | 1    | cli_close
            runner   | subagent | -            | p_run  | 3    | active | 0    | 0    | -
            p_kept   | cli      | -            | -      | 6    | ended  | 0    | 2    | cli_close
            kept     | subagent | -            | p_kept | 3    | ended  | 0    | 2    | completed
            p_deep   | cli      | -            | -      | 4    | ended  | 0    | 2    | cli_close
            mid      | subagent | -            | p_deep | 2    | ended  | 0    | 2    | completed
            leaf     | subagent | -            | mid    | 2    | active | 0    | 0    | -
            """;

    static Map<String, Plan.PlanItem> plan(Preferences prefs) {
        List<SessionRow> rows = RuleFixtures.rows(ROWS);
        // keep-days 0: these finished shells are two days old, and rule K (tested in RetentionAuditTest) would keep
        // them
        RuleContext ctx = RuleContext.of(RuleFixtures.NOW, "cur", rows, prefs, 0);
        return AuditEngine.planItems(rows, ctx, new AuditRequest("cur", null, "interactive", "en", 50));
    }

    static Preferences keptK() {
        PreferenceData d = new PreferenceData();
        d.session_level.retain.add(new PreferenceData.SessionMark("kept", null, "2026-08-08", "C"));
        d.session_level.rejected.add(new PreferenceData.SessionMark("kept", null, "2026-08-08", "C"));
        return new Preferences(d, null);
    }

    @Test
    void childrenThatGoAutomaticallyOnTheirOwnLetTheParentRunToo() {
        Map<String, Plan.PlanItem> items = plan(Preferences.empty());
        assertEquals("HIGH", items.get("p_shells").confidence());
        assertNull(items.get("p_shells").held_by());
        assertEquals("A", items.get("shell1").rule(), "each shell keeps its own item");
        assertNull(items.get("shell1").cascade_of());
    }

    @Test
    void aTitledChildMakesTheParentAQuestionThatNamesIt() {
        Plan.PlanItem p = plan(Preferences.empty()).get("p_titled");
        assertEquals("MEDIUM", p.confidence(), "B/long is MEDIUM anyway; the point is it never runs unasked");
        assertEquals(List.of("lint"), p.held_by());
        assertTrue(
                p.reason().contains("lint (\"Lint subtask\", 6 messages, titled, never deleted on its own)"),
                p.reason());
        Plan.PlanItem c = plan(Preferences.empty()).get("lint");
        assertEquals("p_titled", c.cascade_of());
        assertNull(c.question(), "the child is answered through its parent");
    }

    @Test
    void aRunningChildTurnsAHighDeletionIntoAQuestion() {
        Plan.PlanItem p = plan(Preferences.empty()).get("p_run");
        assertEquals("B/short", p.condition());
        assertEquals("HIGH", p.base());
        assertEquals("MEDIUM", p.confidence());
        assertEquals("new", p.question());
        assertTrue(p.reason().contains("still running"), p.reason());
    }

    @Test
    void aKeptChildIsNamedAndItsParentAskedFirst() {
        Map<String, Plan.PlanItem> items = plan(keptK());
        Plan.PlanItem p = items.get("p_kept");
        assertEquals("MEDIUM", p.confidence());
        assertTrue(p.reason().contains("kept (untitled, 3 messages, you kept it on 2026-08-08)"), p.reason());
        assertEquals("p_kept", items.get("kept").cascade_of());
        assertEquals("new", p.question());
        // without the preference the same child is a plain shell and the parent runs automatically
        assertEquals("HIGH", plan(Preferences.empty()).get("p_kept").confidence());
    }

    @Test
    void aGrandchildStillRunningHoldsBackBothGenerations() {
        Map<String, Plan.PlanItem> items = plan(Preferences.empty());
        Plan.PlanItem p = items.get("p_deep");
        assertEquals(List.of("mid", "leaf"), p.held_by());
        assertEquals("p_deep", items.get("mid").cascade_of());
        assertEquals("mid", items.get("leaf").cascade_of());
    }

    @Test
    void aUserWhoAlwaysKeptBothForARunningChildIsNoLongerAskedAndNothingRuns() {
        PreferenceData d = new PreferenceData();
        PreferenceData.RuleState s = new PreferenceData.RuleState();
        s.rule = "B";
        s.condition = "with_running";
        s.vetoes = 2;
        s.runs = 2;
        s.quiet = true;
        d.rule_level.put("B/with_running", s);
        Map<String, Plan.PlanItem> items = plan(new Preferences(d, null));
        Plan.PlanItem p = items.get("p_run");
        assertEquals("LOW", p.confidence(), "listed for information");
        assertNull(p.question(), "not asked");
        assertTrue(!p.automatic() && !items.get("runner").automatic(), "nothing runs: both stay");
        assertEquals("p_run", items.get("runner").cascade_of());
        assertTrue(p.reason().contains("you kept both every time"), p.reason());
        // only that kind: a deletion that would take a titled child along is still asked by name
        assertEquals("new", items.get("p_titled").question());
        assertEquals("MEDIUM", items.get("p_titled").confidence());
        // and a negative: without that lesson the same deletion is asked
        assertEquals("new", plan(Preferences.empty()).get("p_run").question());
    }
}
