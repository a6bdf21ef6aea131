package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PruneStaleRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded | procedure | redundant
            stale61     | 0.7   | 4        | no        | 61d  | 20d     | no      | -          | no        | -
            stale60     | 0.7   | 4        | no        | 60d  | 20d     | no      | -          | no        | -
            recent      | 0.5   | 2        | no        | 10d  | 10d     | no      | -          | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final PruneStaleRule rule = new PruneStaleRule();

    @Test
    void moreThanSixtyDaysUnreferencedIsProposedWhenOverTheTarget() {
        assertEquals(
                "R2",
                rule.evaluate(rows.get("stale61"), LifecycleFixtures.ctx(2300, 2200))
                        .orElseThrow()
                        .rule());
    }

    @Test
    void sixtyDaysOrLessOrUnderTheTargetIsNotProposed() {
        for (String id : List.of("stale60", "recent"))
            assertTrue(
                    rule.evaluate(rows.get(id), LifecycleFixtures.ctx(2300, 2200))
                            .isEmpty(),
                    id);
        assertTrue(rule.evaluate(rows.get("stale61"), LifecycleFixtures.ctx(2000, 2200))
                .isEmpty());
    }
}
