package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import steward.learning.Events;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class TopicRuleTest {
    @Test
    void approvingRuleEsQuestionMarksTheTopicConsolidated() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | E | - | MEDIUM | review | APPROVED | - | Claude Code");
        assertTrue(new Preferences(d, null).consolidated("claude code"));
    }

    @Test
    void unansweredOrOtherRulesDoNotConsolidate() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | E | - | MEDIUM | review | UNANSWERED | - | Rust
                s2 | C | titled | LOW | review | APPROVED | - | Docker
                """);
        Preferences p = new Preferences(d, null);
        assertFalse(p.consolidated("Rust"));
        assertFalse(p.consolidated("Docker"));
    }
}
