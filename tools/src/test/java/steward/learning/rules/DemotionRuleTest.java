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

    /**
     * Approvals for one family of sessions never promote another (long@gateway is learned apart from long); a restore of
     * what ran automatically in one family is cautious: the same condition promoted elsewhere is asked again too. A plain
     * keep teaches its own family only.
     */
    @Test
    void approvalsStayInTheirFamilyAndARestoreDemotesTheConditionInEveryFamily() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(Level.HIGH, d.rule_level.get("B/long").level);
        assertEquals(null, d.rule_level.get("B/long@gateway"), "nothing learned for gateway chats");
        Events.learn(d, "g1 | B | long@gateway | MEDIUM | delete | APPROVED");
        Events.learn(d, "g2 | B | long@gateway | MEDIUM | delete | APPROVED");
        Events.learn(d, "m1 | B | long@machine | MEDIUM | delete | VETOED");
        assertEquals(Level.HIGH, d.rule_level.get("B/long@gateway").level);
        assertEquals(Level.HIGH, d.rule_level.get("B/long").level, "a keep in another family does not demote");
        Preferences p = new Preferences(d, null);
        assertEquals(Level.HIGH, p.adjust("B", "long", Level.MEDIUM).level());
        assertEquals(Level.MEDIUM, p.adjust("B", "long@machine", Level.MEDIUM).level());
        assertEquals(Level.MEDIUM, p.adjust("B", "long@claude", Level.MEDIUM).level(), "never approved");
        // the user restores a Telegram chat B/long@gateway deleted automatically: cli chats are asked again too
        var run = Events.learn(d, "g3 | B | long@gateway | HIGH | delete | RESTORED");
        assertEquals(
                Level.MEDIUM,
                new Preferences(d, null).adjust("B", "long", Level.MEDIUM).level());
        assertEquals(
                Level.MEDIUM,
                new Preferences(d, null)
                        .adjust("B", "long@gateway", Level.MEDIUM)
                        .level());
        assertTrue(
                Events.changes(run)
                        .contains("B/long back to MEDIUM, its rule's own level (you restored a session "
                                + "B/long@gateway changed automatically"),
                Events.changes(run));
        // a new approval in the cli family promotes it there again (its earlier approvals still count), not elsewhere
        Events.learn(d, "s3 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(
                Level.HIGH,
                new Preferences(d, null).adjust("B", "long", Level.MEDIUM).level());
        assertEquals(
                Level.MEDIUM,
                new Preferences(d, null)
                        .adjust("B", "long@gateway", Level.MEDIUM)
                        .level());
    }
}
