package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PruneRedundantRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded | procedure | redundant
            dup         | 0.5   | 2        | no        | 1d   | 1d      | no      | -          | no        | User is Chinese, answers in Chinese
            unique      | 0.5   | 2        | no        | 1d   | 1d      | no      | -          | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final PruneRedundantRule rule = new PruneRedundantRule();

    @Test
    void anEntryAnotherCoversIsProposedWhenOverTheTarget() {
        Change c = rule.evaluate(rows.get("dup"), LifecycleFixtures.ctx(4500, 4000))
                .orElseThrow();
        assertEquals("R4", c.rule());
    }

    @Test
    void aUniqueEntryOrUnderTheTargetIsNot() {
        assertTrue(rule.evaluate(rows.get("unique"), LifecycleFixtures.ctx(4500, 4000))
                .isEmpty());
        assertTrue(
                rule.evaluate(rows.get("dup"), LifecycleFixtures.ctx(100, 4000)).isEmpty());
    }

    @Test
    void pruneRulesRunInTheSeedsOrder() {
        EntryState both = LifecycleFixtures.rows("""
                both | 0.3 | 1 | no | 70d | 70d | no | - | yes | something
                """).get("both");
        assertEquals(
                "R1",
                LifecycleRules.prune(both, LifecycleFixtures.ctx(4500, 4000))
                        .orElseThrow()
                        .rule());
        assertEquals(
                List.of("R1", "R2", "R3", "R4"),
                LifecycleRules.PRUNE.stream().map(LifecycleRule::id).toList());
    }
}
