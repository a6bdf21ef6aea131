package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import steward.learning.Events;
import steward.learning.PreferenceData;

class ThresholdRuleTest {
    @Test
    void ignoringTheWarningRaisesNByOne() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | D | stale | LOW | mark_ended | UNANSWERED
                s2 | D | stale | LOW | mark_ended | UNANSWERED
                """);
        assertEquals(4.0, d.active_threshold);
    }

    @Test
    void rejectingBecauseWantedKeptRaisesByHalfButInUseDoesNot() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | D | stale | LOW | mark_ended | VETOED | want_kept
                s2 | D | stale | LOW | mark_ended | VETOED | in_use
                s3 | D | stale | LOW | mark_ended | APPROVED
                """);
        assertEquals(3.5, d.active_threshold);
    }

    @Test
    void staysWithinTwoAndSix() {
        PreferenceData d = new PreferenceData();
        for (int i = 0; i < 10; i++) Events.learn(d, "s" + i + " | D | stale | LOW | mark_ended | UNANSWERED");
        assertEquals(6.0, d.active_threshold);
    }

    @Test
    void runsWithoutRuleDLeaveNAlone() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | UNANSWERED");
        assertEquals(3.0, d.active_threshold);
    }
}
