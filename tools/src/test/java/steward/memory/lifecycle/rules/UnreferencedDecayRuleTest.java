package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnreferencedDecayRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded | procedure | redundant
            core30      | 0.9   | 5        | no        | 30d  | 40d     | no      | -          | no        | -
            leaning45   | 0.5   | 2        | no        | 45d  | 45d     | no      | -          | no        | -
            confirmed90 | 0.7   | 4        | no        | 90d  | 90d     | no      | -          | no        | -
            recent29    | 0.7   | 4        | no        | 29d  | 90d     | no      | -          | no        | -
            justdecayed | 0.5   | 2        | no        | 50d  | 10d     | no      | -          | no        | -
            floor       | 0.3   | 1        | no        | 99d  | 99d     | no      | -          | no        | -
            mentioned   | 0.5   | 3        | no        | 60d  | 60d     | yes     | -          | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final UnreferencedDecayRule rule = new UnreferencedDecayRule();

    @Test
    void thirtyDaysUnreferencedCostsOneLevel() {
        assertEquals(
                0.7,
                rule.evaluate(rows.get("core30"), LifecycleFixtures.ctx())
                        .orElseThrow()
                        .to());
        assertEquals(
                0.3,
                rule.evaluate(rows.get("leaning45"), LifecycleFixtures.ctx())
                        .orElseThrow()
                        .to());
        Change c =
                rule.evaluate(rows.get("confirmed90"), LifecycleFixtures.ctx()).orElseThrow();
        assertEquals(0.5, c.to(), "one level per run, never two");
        assertEquals("demote", c.action());
    }

    @Test
    void recentReferenceARecentLevelChangeTheFloorOrAMentionNowKeepTheLevel() {
        for (String id : List.of("recent29", "justdecayed", "floor", "mentioned")) {
            assertTrue(rule.evaluate(rows.get(id), LifecycleFixtures.ctx()).isEmpty(), id);
        }
    }

    @Test
    void aDecayedEntryIsNotPromotedBackWithoutANewMention() {
        EntryState s = LifecycleFixtures.rows("""
                e | 0.5 | 3 | no | 40d | 40d | no | - | no | -
                """).get("e");
        List<Change> cs = LifecycleRules.levels(s, LifecycleFixtures.ctx());
        assertEquals(1, cs.size());
        assertEquals(0.3, cs.get(0).to());
    }
}
