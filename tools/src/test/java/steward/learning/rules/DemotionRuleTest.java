package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import steward.learning.Events;
import steward.learning.Level;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class DemotionRuleTest {
    @Test
    void highVetoedTwiceIsDemotedWithTheReason() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | A | shell | HIGH | delete | VETOED");
        assertEquals(Level.HIGH, d.rule_level.get("A/shell").level, "one veto: not yet demoted for good");
        var run = Events.learn(d, "s2 | A | shell | HIGH | delete | VETOED");
        assertEquals(Level.MEDIUM, d.rule_level.get("A/shell").level);
        assertTrue(Events.changes(run).contains("A/shell stays MEDIUM for good (you kept 2)"), Events.changes(run));
        var adj = new Preferences(d, null).adjust("A", "shell", Level.HIGH);
        assertEquals(Level.MEDIUM, adj.level());
        assertEquals("you kept similar ones before", adj.note());
    }

    @Test
    void afterTheFirstVetoAHighConditionNoLongerRunsUnattended() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | A | shell | HIGH | delete | VETOED");
        var adj = new Preferences(d, null).adjust("A", "shell", Level.HIGH);
        assertEquals(Level.MEDIUM, adj.level());
        assertEquals("you kept one like this before", adj.note());
    }

    @Test
    void approvalsDoNotDemote() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | A | shell | HIGH | delete | APPROVED");
        Events.learn(d, "s2 | A | shell | HIGH | delete | APPROVED");
        assertEquals(Level.HIGH, d.rule_level.get("A/shell").level);
        assertFalse(new Preferences(d, null).adjust("A", "shell", Level.HIGH).locked());
        assertEquals(
                Level.HIGH,
                new Preferences(d, null).adjust("A", "shell", Level.HIGH).level());
    }
}
