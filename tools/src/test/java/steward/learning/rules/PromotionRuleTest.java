package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import steward.learning.Events;
import steward.learning.Level;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class PromotionRuleTest {
    @Test
    void mediumApprovedTwiceAcrossTwoRunsBecomesHigh() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(Level.MEDIUM, d.rule_level.get("B/long").level);
        var run = Events.learn(d, "s2 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(Level.HIGH, d.rule_level.get("B/long").level);
        assertTrue(
                Events.changes(run)
                        .contains("B/long promoted to HIGH: runs automatically from the next run (you approved 2)"),
                Events.changes(run));
        assertEquals(
                Level.HIGH,
                new Preferences(d, null).adjust("B", "long", Level.MEDIUM).level());
    }

    @Test
    void twoApprovalsInOneRunAreNotEnough() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | B | long | MEDIUM | delete | APPROVED
                s2 | B | long | MEDIUM | delete | APPROVED
                """);
        assertEquals(Level.MEDIUM, d.rule_level.get("B/long").level);
    }

    @Test
    void aRunLeftUnansweredIsNoSecondRunOfApprovals() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | B | long | MEDIUM | delete | APPROVED
                s2 | B | long | MEDIUM | delete | APPROVED
                """);
        var silent = Events.learn(d, "s3 | B | long | MEDIUM | delete | UNANSWERED");
        assertEquals(Level.MEDIUM, d.rule_level.get("B/long").level, "silence is never approval");
        assertTrue(!Events.changes(silent).contains("promoted"), Events.changes(silent));
        Events.learn(d, "s4 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(Level.HIGH, d.rule_level.get("B/long").level, "approved in a second run");
    }

    @Test
    void onlyARunWithAnApprovalPromotes() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | B | long | MEDIUM | delete | APPROVED
                s2 | B | long | MEDIUM | delete | APPROVED
                """);
        Events.learn(d, "s3 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(Level.HIGH, d.rule_level.get("B/long").level);
        Events.learn(d, "s4 | B | long | HIGH | delete | APPROVED"); // "approve all": an automatic one approved too
        Events.learn(d, "s3 | B | long | HIGH | delete | WITHDRAWN"); // the user restores a deletion they approved
        assertEquals(Level.MEDIUM, d.rule_level.get("B/long").level, "asked again");
        var silent = Events.learn(d, "s5 | B | long | MEDIUM | delete | UNANSWERED");
        assertEquals(Level.MEDIUM, d.rule_level.get("B/long").level, "not automatic again without a new approval");
        assertTrue(!Events.changes(silent).contains("promoted"), Events.changes(silent));
        Events.learn(d, "s6 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(Level.HIGH, d.rule_level.get("B/long").level, "approved again");
    }

    @Test
    void aVetoEverBlocksPromotion() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | VETOED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s3 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(Level.MEDIUM, d.rule_level.get("B/long").level);
    }

    @Test
    void lowWithAClearApprovalBecomesMedium() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | D | stale | LOW | mark_ended | APPROVED");
        assertEquals(Level.MEDIUM, d.rule_level.get("D/stale").level);
    }
}
