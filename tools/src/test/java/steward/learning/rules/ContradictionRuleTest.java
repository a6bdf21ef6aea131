package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import steward.learning.Events;
import steward.learning.Level;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class ContradictionRuleTest {
    @Test
    void twoFlipsLockTheConditionAtLowAndStopLearning() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | VETOED");
        assertEquals(1, d.rule_level.get("B/long").contradictions);
        assertFalse(d.rule_level.get("B/long").locked);
        var run = Events.learn(d, "s3 | B | long | MEDIUM | delete | APPROVED");
        var s = d.rule_level.get("B/long");
        assertTrue(s.locked);
        assertEquals(Level.LOW, s.level);
        assertEquals(2, d.feedback_contradictions.size());
        assertTrue(Events.changes(run).contains("B/long locked at LOW"), Events.changes(run));
        int approvals = s.approvals;
        Events.learn(d, "s4 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s5 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(approvals, d.rule_level.get("B/long").approvals, "no further learning while locked");
        var adj = new Preferences(d, null).adjust("B", "long", Level.MEDIUM);
        assertEquals(Level.LOW, adj.level());
        assertTrue(adj.locked());
    }

    @Test
    void consistentAnswersAreNoContradiction() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | VETOED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | VETOED");
        Events.learn(d, "s3 | B | long | MEDIUM | delete | VETOED");
        assertEquals(0, d.rule_level.get("B/long").contradictions);
        assertTrue(d.feedback_contradictions.isEmpty());
    }

    @Test
    void differentConditionsOfOneRuleDoNotContradictEachOther() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | B | short | HIGH   | delete | APPROVED
                s2 | B | long  | MEDIUM | delete | VETOED
                """);
        Events.learn(d, """
                s3 | B | short | MEDIUM | delete | APPROVED
                s4 | B | long  | MEDIUM | delete | VETOED
                """);
        assertEquals(0, d.rule_level.get("B/long").contradictions);
        assertEquals(0, d.rule_level.get("B/short").contradictions);
    }
}
