package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import steward.learning.DecisionEvent;
import steward.learning.Events;
import steward.learning.LearningRun;
import steward.learning.Level;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class WaitingRuleTest {
    static DecisionEvent later(String id) {
        return new DecisionEvent(
                id,
                null,
                "B",
                "long",
                Level.MEDIUM,
                "delete",
                Outcome.LATER,
                null,
                null,
                Level.MEDIUM,
                "waiting",
                false,
                false,
                false,
                null,
                null);
    }

    @Test
    void unansweredQuestionsWaitAndAnAnswerEndsTheWait() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | B | long | MEDIUM | delete | UNANSWERED
                s2 | B | long | MEDIUM | delete | UNANSWERED
                """);
        Preferences p = new Preferences(d, null);
        assertEquals(1, p.waiting("s1", "B/long").runs);
        Events.learn(d, """
                s1 | B | long | MEDIUM | delete | UNANSWERED
                s2 | B | long | MEDIUM | delete | VETOED
                """);
        p = new Preferences(d, null);
        assertEquals(2, p.waiting("s1", "B/long").runs);
        assertNull(p.waiting("s2", "B/long"), "answered: no longer waiting");
    }

    @Test
    void laterPutsThemOffForAWeekAndQuestionsGoneFromThePlanAreForgotten() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | UNANSWERED\ns2 | B | long | MEDIUM | delete | UNANSWERED");
        new WaitingRule()
                .apply(new LearningRun("p", "2026-08-12", List.of(later("s1")), d, false, Set.of("s1|B/long"), null));
        Preferences p = new Preferences(d, null);
        assertEquals("2026-08-19", p.waiting("s1", "B/long").later_until);
        assertNull(p.waiting("s2", "B/long"), "s2 is no longer in the plan");
        assertTrue(d.waiting.size() == 1);
    }
}
