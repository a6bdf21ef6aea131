package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import steward.learning.Events;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class SessionMemoryRuleTest {
    @Test
    void aVetoedSessionIsRememberedAsKeptAndAnAskedDeleteComesBack() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | B | long  | MEDIUM | delete | VETOED | want_kept
                s2 | C | titled| LOW    | review | EXTRA_DELETE
                s3 | B | long  | MEDIUM | delete | APPROVED
                """);
        Preferences p = new Preferences(d, null);
        assertTrue(p.kept("s1"));
        assertTrue(p.deleteRequested("s2"));
        assertTrue(p.deleteRequested("s3"));
        assertFalse(p.kept("s2"));
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
    void aLaterDeleteReplacesAnEarlierKeep() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | VETOED");
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Preferences p = new Preferences(d, null);
        assertFalse(p.kept("s1"));
        assertTrue(p.deleteRequested("s1"));
    }
}
