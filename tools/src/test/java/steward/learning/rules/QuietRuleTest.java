package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.learning.Events;
import steward.learning.LearningEngine;
import steward.learning.Level;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class QuietRuleTest {
    @Test
    void alwaysKeptTwiceOverTwoRunsGoesQuietAndAnApprovalWakesIt() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | C | untitled | MEDIUM | name_or_delete | VETOED | in_use");
        assertFalse(d.rule_level.get("C/untitled").quiet, "one run is not enough");
        var run = Events.learn(d, "s2 | C | untitled | MEDIUM | name_or_delete | VETOED | in_use");
        assertTrue(d.rule_level.get("C/untitled").quiet);
        assertTrue(new Preferences(d, null).quiet("C/untitled"));
        assertEquals(
                Level.LOW,
                new Preferences(d, null).adjust("C", "untitled", Level.MEDIUM).level());
        assertTrue(Events.changes(run).contains("C/untitled listed from now on, no longer asked"), Events.changes(run));
        Events.learn(d, "s3 | C | untitled | MEDIUM | name_or_delete | APPROVED");
        assertFalse(new Preferences(d, null).quiet("C/untitled"));
    }

    @Test
    void aConditionTheUserApprovesAndRejectsByTurnsNeverGoesQuiet() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | VETOED");
        Events.learn(d, "s3 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s4 | B | long | MEDIUM | delete | VETOED");
        assertFalse(d.rule_level.get("B/long").quiet, "one rejection since the last approval");
        Events.learn(d, """
                s5 | B | long | MEDIUM | delete | VETOED
                s6 | B | long | MEDIUM | delete | APPROVED
                """);
        assertFalse(d.rule_level.get("B/long").quiet, "a run that also approved one is no change of mind");
    }

    @Test
    void aChangeOfMindGoesQuietAfterTwoRejectionsInTwoRunsSinceTheLastApproval() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, """
                s3 | B | long | MEDIUM | delete | VETOED
                s4 | B | long | MEDIUM | delete | VETOED
                """);
        assertFalse(d.rule_level.get("B/long").quiet, "two rejections in one run are not enough");
        var run = Events.learn(d, "s5 | B | long | MEDIUM | delete | VETOED");
        assertTrue(new Preferences(d, null).quiet("B/long"));
        assertTrue(
                Events.changes(run)
                        .contains(
                                "B/long listed from now on, no longer asked (you kept every one since you last approved one: 3"),
                Events.changes(run));
        Events.learn(d, "s6 | B | long | MEDIUM | delete | APPROVED");
        assertFalse(new Preferences(d, null).quiet("B/long"), "an approval by id asks again");
    }

    @Test
    void aRestoreAfterApprovalsCountsTowardsTheChangeOfMind() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(Level.HIGH, d.rule_level.get("B/long").level);
        Events.learn(d, "s3 | B | long | HIGH | delete | RESTORED");
        assertFalse(d.rule_level.get("B/long").quiet);
        Events.learn(d, "s4 | B | long | MEDIUM | delete | VETOED");
        assertEquals(
                Level.LOW, d.rule_level.get("B/long").level, "demoted, then quiet: listed, not asked, nothing runs");
        assertTrue(new Preferences(d, null).quiet("B/long"));
    }

    @Test
    void keepingBothForASubagentKindGoesQuietForThatKindOnly() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "p1 | B | with_titled | MEDIUM | delete | VETOED");
        var run = Events.learn(d, "p2 | B | with_titled | MEDIUM | delete | VETOED");
        Preferences p = new Preferences(d, null);
        assertTrue(p.alongQuiet("B", List.of("titled")));
        assertFalse(p.alongQuiet("B", List.of("running")));
        assertFalse(p.alongQuiet("B", List.of("running", "titled")), "every kind taken along must be quiet");
        assertFalse(p.alongQuiet("C", List.of("titled")), "per rule of the deletion");
        assertTrue(
                Events.changes(run)
                        .contains(
                                "rule B deletions that would take a titled subagent along are listed from now on, not asked: both stay"),
                Events.changes(run));
        assertTrue(LearningEngine.ruleState(d).contains("B/with_titled=quiet"), LearningEngine.ruleState(d));
        assertFalse(LearningEngine.ruleState(d).contains("B=LOW"), "not the rule's own level");
    }

    @Test
    void approvingDeletionsThatTakeASubagentAlongNeverPromotesThem() {
        PreferenceData d = new PreferenceData();
        for (int i = 0; i < 4; i++) Events.learn(d, "p" + i + " | B | with_titled | MEDIUM | delete | APPROVED");
        assertEquals(
                Level.MEDIUM,
                d.rule_level.get("B/with_titled").level,
                "a child that would not go on its own is always asked");
        assertFalse(d.rule_level.get("B/with_titled").quiet);
    }
}
