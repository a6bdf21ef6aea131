package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PruneTentativeRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded | procedure | redundant
            tentative   | 0.3   | 1        | no        | 5d   | 5d      | no      | -          | no        | -
            fresh       | 0.3   | 1        | no        | 0d   | 0d      | yes     | -          | no        | -
            leaning     | 0.5   | 2        | no        | 5d   | 5d      | no      | -          | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final PruneTentativeRule rule = new PruneTentativeRule();

    @Test
    void overTheTargetTentativeEntriesAreProposedFirst() {
        Change c = rule.evaluate(rows.get("tentative"), LifecycleFixtures.ctx(4100, 4000))
                .orElseThrow();
        assertEquals("prune", c.action());
        assertEquals("R1", c.rule());
    }

    @Test
    void underTheTargetAFreshEntryOrAHigherLevelIsNotProposed() {
        assertTrue(rule.evaluate(rows.get("tentative"), LifecycleFixtures.ctx(3900, 4000))
                .isEmpty());
        for (String id : List.of("fresh", "leaning"))
            assertTrue(
                    rule.evaluate(rows.get(id), LifecycleFixtures.ctx(4100, 4000))
                            .isEmpty(),
                    id);
    }
}
