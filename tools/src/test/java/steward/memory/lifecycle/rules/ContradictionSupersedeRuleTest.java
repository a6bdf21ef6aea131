package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContradictionSupersedeRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded            | procedure | redundant
            oldip       | 0.7   | 4        | no        | 3d   | 9d      | no      | Office IP is 10.0.0.9 | no        | -
            oldcore     | 0.9   | 5        | yes       | 0d   | 0d      | yes     | 用 pnpm 不用 npm        | no        | -
            current     | 0.7   | 4        | no        | 3d   | 9d      | no      | -                     | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final ContradictionSupersedeRule rule = new ContradictionSupersedeRule();

    @Test
    void aContradictedEntryIsSupersededWithTheDateNotOverwritten() {
        Change c = rule.evaluate(rows.get("oldip"), LifecycleFixtures.ctx()).orElseThrow();
        assertEquals("supersede", c.action());
        assertTrue(c.en().contains("2026-08-10") && c.en().contains("10.0.0.9"), c.en());
        assertEquals(
                "supersede",
                rule.evaluate(rows.get("oldcore"), LifecycleFixtures.ctx())
                        .orElseThrow()
                        .action(),
                "even a core entry");
        List<Change> all = LifecycleRules.levels(rows.get("oldcore"), LifecycleFixtures.ctx());
        assertEquals(1, all.size(), "a superseded entry is not promoted as well");
    }

    @Test
    void anUncontradictedEntryIsNotSuperseded() {
        assertTrue(rule.evaluate(rows.get("current"), LifecycleFixtures.ctx()).isEmpty());
    }
}
