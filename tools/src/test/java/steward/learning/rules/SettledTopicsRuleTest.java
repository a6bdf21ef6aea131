package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import steward.learning.Events;
import steward.learning.Level;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

class SettledTopicsRuleTest {
    @Test
    void topicsAnsweredConsolidatedTwiceOverTwoRunsAreListedNotAsked() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, """
                s1 | E | - | MEDIUM | review | APPROVED | - | react
                s2 | E | - | MEDIUM | review | APPROVED | - | hooks
                """);
        assertFalse(new Preferences(d, null).quiet("E"), "one run is not enough");
        var run = Events.learn(d, "s3 | E | - | MEDIUM | review | APPROVED | - | python typing");
        Preferences p = new Preferences(d, null);
        assertTrue(p.quiet("E"));
        assertEquals(Level.LOW, p.adjust("E", null, Level.MEDIUM).level(), "listed for information");
        assertTrue(
                p.adjust("E", null, Level.MEDIUM).note().contains("you said every topic so far was consolidated (3)"));
        assertTrue(
                Events.changes(run)
                        .contains("rule E's topics listed from now on, no longer asked (you said consolidated 3 times"),
                Events.changes(run));
    }

    @Test
    void oneNotYetKeepsRuleEAskedAndAListedTopicAnsweredNotYetAsksAgain() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | E | - | MEDIUM | review | APPROVED | - | react");
        Events.learn(d, "s2 | E | - | MEDIUM | review | NOT_YET | - | hooks");
        Events.learn(d, "s3 | E | - | MEDIUM | review | APPROVED | - | ideas");
        assertFalse(new Preferences(d, null).quiet("E"), "the user said 'not yet' once: the reminder is wanted");

        PreferenceData q = new PreferenceData();
        Events.learn(q, "s1 | E | - | MEDIUM | review | APPROVED | - | react");
        Events.learn(q, "s2 | E | - | MEDIUM | review | APPROVED | - | hooks");
        assertTrue(new Preferences(q, null).quiet("E"));
        var run = Events.learn(q, "s3 | E | - | MEDIUM | review | NOT_YET | - | ideas");
        assertFalse(new Preferences(q, null).quiet("E"));
        assertEquals(Level.MEDIUM, q.rule_level.get("E").level);
        assertTrue(Events.changes(run).contains("rule E's topics asked again"), Events.changes(run));
    }

    @Test
    void unansweredTopicsTeachNothing() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | E | - | MEDIUM | review | UNANSWERED | - | react");
        Events.learn(d, "s2 | E | - | MEDIUM | review | UNANSWERED | - | hooks");
        Events.learn(d, "s3 | E | - | MEDIUM | review | UNANSWERED | - | ideas");
        assertFalse(new Preferences(d, null).quiet("E"), "silence is never an answer");
        assertTrue(d.topic_level.consolidated.isEmpty());
    }

    @Test
    void otherRulesApprovedTwiceAreNotSettledTopics() {
        PreferenceData d = new PreferenceData();
        Events.learn(d, "s1 | B | long | MEDIUM | delete | APPROVED");
        Events.learn(d, "s2 | B | long | MEDIUM | delete | APPROVED");
        assertFalse(new Preferences(d, null).quiet("B/long"));
        assertEquals(Level.HIGH, d.rule_level.get("B/long").level, "promotion, as before");
    }
}
