package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FourthMentionRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded | procedure | redundant
            fourth      | 0.5   | 4        | no        | 0d   | 9d      | yes     | -          | no        | -
            seventh     | 0.5   | 7        | no        | 0d   | 9d      | yes     | -          | no        | -
            third       | 0.5   | 3        | no        | 0d   | 9d      | yes     | -          | no        | -
            quiet       | 0.5   | 6        | no        | 9d   | 9d      | no      | -          | no        | -
            confirmed   | 0.7   | 9        | no        | 0d   | 9d      | yes     | -          | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final FourthMentionRule rule = new FourthMentionRule();

    @Test
    void aLeaningEntryMentionedAFourthTimeIsConfirmed() {
        for (String id : List.of("fourth", "seventh")) {
            Change c = rule.evaluate(rows.get(id), LifecycleFixtures.ctx()).orElseThrow();
            assertEquals(0.7, c.to(), id);
        }
    }

    @Test
    void fewerMentionsNoMentionNowOrAlreadyConfirmedStayAsTheyAre() {
        for (String id : List.of("third", "quiet", "confirmed")) {
            assertTrue(rule.evaluate(rows.get(id), LifecycleFixtures.ctx()).isEmpty(), id);
        }
    }

    @Test
    void mentionsAloneNeverReachCore() {
        EntryState many = LifecycleFixtures.rows("""
                many | 0.7 | 50 | no | 0d | 1d | yes | - | no | -
                """).get("many");
        assertTrue(
                LifecycleRules.levels(many, LifecycleFixtures.ctx()).isEmpty(),
                "only the user's confirmation makes [0.9]");
    }
}
