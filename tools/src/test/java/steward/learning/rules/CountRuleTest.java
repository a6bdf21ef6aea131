package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import steward.learning.Events;
import steward.learning.PreferenceData;

class CountRuleTest {
    @Test
    void countsPerRuleConditionAndRun() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | A | shell | HIGH   | delete | APPROVED
                s2 | A | shell | HIGH   | delete | APPROVED
                s3 | B | long  | MEDIUM | delete | VETOED
                s4 | B | long  | MEDIUM | delete | UNANSWERED
                """);
        assertEquals(2, d.rule_level.get("A/shell").approvals);
        assertEquals(1, d.rule_level.get("A/shell").runs);
        assertEquals(1, d.rule_level.get("B/long").vetoes);
        assertEquals(1, d.rule_level.get("B/long").unanswered);
    }

    @Test
    void aConditionNotInTheRunIsNotTouched() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | A | shell | HIGH | delete | APPROVED");
        assertNull(d.rule_level.get("B/long"));
        Events.learn(d, "s3 | B | long | MEDIUM | delete | APPROVED");
        assertEquals(1, d.rule_level.get("A/shell").runs);
    }
}
