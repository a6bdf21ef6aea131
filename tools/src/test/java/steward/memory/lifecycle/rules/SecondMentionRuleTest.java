package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecondMentionRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded | procedure | redundant
            twice       | 0.3   | 2        | no        | 0d   | 5d      | yes     | -          | no        | -
            thrice      | 0.3   | 3        | no        | 0d   | 5d      | yes     | -          | no        | -
            once        | 0.3   | 1        | no        | 0d   | 0d      | yes     | -          | no        | -
            untouched   | 0.3   | 2        | no        | 3d   | 3d      | no      | -          | no        | -
            leaning     | 0.5   | 2        | no        | 0d   | 5d      | yes     | -          | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final SecondMentionRule rule = new SecondMentionRule();

    @Test
    void aTentativeEntryMentionedASecondTimeInThisRunIsPromotedToLeaning() {
        for (String id : List.of("twice", "thrice")) {
            Change c = rule.evaluate(rows.get(id), LifecycleFixtures.ctx()).orElseThrow();
            assertEquals(0.3, c.from(), id);
            assertEquals(0.5, c.to(), id);
            assertEquals("promote", c.action());
            assertEquals("P1", c.rule());
        }
    }

    @Test
    void oneMentionAnEntryNotMentionedNowOrAnotherLevelIsNotPromoted() {
        for (String id : List.of("once", "untouched", "leaning")) {
            assertTrue(rule.evaluate(rows.get(id), LifecycleFixtures.ctx()).isEmpty(), id);
        }
    }
}
