package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import steward.learning.Events;
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
        assertEquals(Level.LOW, new Preferences(d, null).adjust("C", "untitled", Level.MEDIUM).level());
        assertTrue(Events.changes(run).contains("C/untitled listed from now on, no longer asked"), Events.changes(run));
        Events.learn(d, "s3 | C | untitled | MEDIUM | name_or_delete | APPROVED");
        assertFalse(new Preferences(d, null).quiet("C/untitled"));
    }

    @Test
    void aConditionTheUserAlsoApprovedNeverGoesQuiet() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | VETOED");
        Events.learn(d, "s3 | B | long | MEDIUM | delete | VETOED");
        assertFalse(d.rule_level.get("B/long").quiet);
    }
}
