package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PruneProcedureRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded | procedure | redundant
            steps       | 0.7   | 4        | no        | 1d   | 1d      | no      | -          | yes       | -
            fact        | 0.7   | 4        | no        | 1d   | 1d      | no      | -          | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final PruneProcedureRule rule = new PruneProcedureRule();

    @Test
    void aProcedureIsProposedForASkillWhenOverTheTarget() {
        Change c = rule.evaluate(rows.get("steps"), LifecycleFixtures.ctx(4500, 4000))
                .orElseThrow();
        assertEquals("R3", c.rule());
        assertTrue(c.en().contains("skill"));
    }

    @Test
    void aDeclarativeFactOrAnyEntryUnderTheTargetIsNot() {
        assertTrue(rule.evaluate(rows.get("fact"), LifecycleFixtures.ctx(4500, 4000))
                .isEmpty());
        assertTrue(rule.evaluate(rows.get("steps"), LifecycleFixtures.ctx(3000, 4000))
                .isEmpty());
    }
}
