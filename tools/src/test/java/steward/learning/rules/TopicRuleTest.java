package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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

    @Test
    void notYetRestsTheTopicThirtyDaysUnderAnyLabelOfItsWords() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | E | - | MEDIUM | review | NOT_YET | - | react
                s2 | E | - | MEDIUM | review | APPROVED | - | hooks
                """);
        Preferences p = new Preferences(d, null);
        assertFalse(p.consolidated("react"), "'not yet' is not consolidated");
        assertTrue(
                p.topicAnswered("react hooks", List.of("react", "hooks"), "2026-08-20"),
                "the same words, another label");
        assertFalse(
                p.topicAnswered("react native", List.of("react", "native"), "2026-08-20"), "a new word: a new topic");
        assertTrue(p.topicAnswered("react", List.of("react"), "2026-09-09"), "30 days after 2026-08-10: still resting");
        assertFalse(
                new Preferences(d, null).topicAnswered("react", List.of("react"), "2026-09-10"),
                "after 30 days: asked again");
        assertTrue(
                new Preferences(d, null).topicAnswered("hooks", List.of("hooks"), "2027-01-01"),
                "consolidated stays answered");
    }
}
