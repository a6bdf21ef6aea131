package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import steward.learning.DecisionEvent;
import steward.learning.Events;
import steward.learning.LearningRun;
import steward.learning.Level;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class SessionMemoryRuleTest {
    @Test
    void aVetoedSessionIsRememberedAsKeptAndAnAskedDeleteThatCouldNotRunComesBack() {
        PreferenceData d = new PreferenceData();
        var events = new ArrayList<>(Events.parse("""
                s1 | B | long  | MEDIUM | delete | VETOED | want_kept
                s3 | B | long  | MEDIUM | delete | APPROVED
                """));
        // s4's deletion was approved but could not run (its subagent child was kept): it comes back as asked for
        events.add(new DecisionEvent(
                "s4",
                null,
                "B",
                "long",
                Level.MEDIUM,
                "delete",
                Outcome.APPROVED,
                null,
                null,
                Level.MEDIUM,
                "new",
                true,
                false,
                false,
                null,
                null));
        var run = new LearningRun("p", "2026-08-10", events, d);
        new SessionMemoryRule().apply(run);
        Preferences p = new Preferences(d, null);
        assertTrue(p.kept("s1"));
        assertTrue(p.protectedSession("s1"), "rejected within the kept window");
        assertEquals("2026-08-10", p.keptOn("s1"));
        assertFalse(p.deleteRequest("s3") != null, "it ran: the session is gone, nothing to remember");
        assertTrue(p.deleteRequest("s4") != null);
    }

    @Test
    void aRenameIsRememberedAsARenameAndProtectsTheSession() {
        PreferenceData d = new PreferenceData();
        var e = new DecisionEvent(
                "s1",
                null,
                "B",
                "long",
                Level.MEDIUM,
                "delete",
                Outcome.RENAMED,
                null,
                null,
                Level.MEDIUM,
                "new",
                false,
                false,
                false,
                "Notes",
                null);
        var run = new LearningRun("p", "2026-08-10", List.of(e), d);
        new SessionMemoryRule().apply(run);
        Preferences p = new Preferences(d, null);
        assertFalse(p.kept("s1"), "a rename is not a keep");
        assertTrue(p.renamed("s1"));
        assertEquals("Notes", d.session_level.rename.get(0).title);
        assertEquals("renamed", run.changes.get(0).kind());
    }

    @Test
    void rejectionsOlderThanTheKeptWindowAreForgotten() {
        PreferenceData d = new PreferenceData();
        d.session_level.rejected.add(new PreferenceData.SessionMark("old", null, "2026-01-01", "B"));
        d.session_level.rejected.add(new PreferenceData.SessionMark("recent", null, "2026-07-01", "B"));
        new SessionMemoryRule().apply(new LearningRun("p", "2026-08-10", List.of(), d));
        assertEquals(
                List.of("recent"),
                d.session_level.rejected.stream().map(m -> m.id).toList());
    }

    @Test
    void unansweredAndMarkEndedApprovalsAreNotSessionPreferences() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | B | long  | MEDIUM | delete     | UNANSWERED
                s2 | D | stale | LOW    | mark_ended | APPROVED
                """);
        assertEquals(0, d.session_level.retain.size());
        assertEquals(0, d.session_level.delete.size());
    }

    @Test
    void aLaterApprovalByNameReplacesAnEarlierKeep() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | VETOED");
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Preferences p = new Preferences(d, null);
        assertFalse(p.kept("s1"));
        assertTrue(p.protectedSession("s1"), "still within the kept window: asked by name, never automatic");
    }

    @Test
    void aSessionKeptAgainMovesToTheEndOfTheRejectionsAndIsRetainedOnce() {
        PreferenceData d = new PreferenceData();
        new SessionMemoryRule().apply(new LearningRun("p1", "2026-08-01", Events.parse("""
                                s1 | B | long | MEDIUM | delete | VETOED | want_kept
                                s2 | B | long | MEDIUM | delete | VETOED | want_kept
                                s3 | B | long | MEDIUM | delete | APPROVED
                                """), d));
        var run = new LearningRun("b1", "2026-08-10", Events.parse("""
                        s1 | B | long | MEDIUM | delete | RESTORED
                        s1 | B | long | MEDIUM | delete | RESTORED
                        """), d);
        new SessionMemoryRule().apply(run);
        assertEquals(
                List.of("s2", "s1"),
                d.session_level.rejected.stream().map(m -> m.id).toList());
        assertEquals("2026-08-10", d.session_level.rejected.get(1).date, "the newer mark replaces the older");
        assertEquals(
                List.of("s1", "s2"),
                d.session_level.retain.stream().map(m -> m.id).toList());
        assertTrue(run.changes.isEmpty(), "already kept: nothing new to record: " + run.changes);
    }

    @Test
    void aRestoreOfFortyThousandSessionsKeepsEachOnceInTheOrderTaken() {
        // a whole real-world apply taken back (43,451 sessions in the bench): every one is kept, once, in order
        PreferenceData d = new PreferenceData();
        StringBuilder lines = new StringBuilder();
        int n = 40_000;
        for (int i = 0; i < n; i++) lines.append("r").append(i).append(" | B | long | HIGH | delete | RESTORED\n");
        var run = new LearningRun("b", "2026-08-10", Events.parse(lines.toString()), d);
        new SessionMemoryRule().apply(run);
        assertEquals(n, d.session_level.retain.size());
        assertEquals(n, d.session_level.rejected.size());
        assertEquals("r0", d.session_level.retain.get(0).id);
        assertEquals("r" + (n - 1), d.session_level.retain.get(n - 1).id);
        assertEquals(n, run.changes.size());
        assertTrue(new Preferences(d, null).kept("r12345"));
    }
}
