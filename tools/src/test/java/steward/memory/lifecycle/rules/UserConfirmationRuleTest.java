package steward.memory.lifecycle.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserConfirmationRuleTest {
    static final String ROWS = """
            # id        | level | mentions | confirmed | last | changed | touched | superseded | procedure | redundant
            confirmed7  | 0.7   | 4        | yes       | 0d   | 9d      | yes     | -          | no        | -
            remember3   | 0.3   | 1        | yes       | 0d   | 0d      | yes     | -          | no        | -
            notasked    | 0.7   | 9        | no        | 0d   | 9d      | yes     | -          | no        | -
            core        | 0.9   | 5        | yes       | 0d   | 9d      | yes     | -          | no        | -
            """;
    final Map<String, EntryState> rows = LifecycleFixtures.rows(ROWS);
    final UserConfirmationRule rule = new UserConfirmationRule();

    @Test
    void theUsersConfirmationMakesAnEntryCore() {
        for (String id : List.of("confirmed7", "remember3")) {
            assertEquals(
                    0.9,
                    rule.evaluate(rows.get(id), LifecycleFixtures.ctx())
                            .orElseThrow()
                            .to(),
                    id);
        }
    }

    @Test
    void withoutConfirmationOrAlreadyCoreNothingHappens() {
        for (String id : List.of("notasked", "core")) {
            assertTrue(rule.evaluate(rows.get(id), LifecycleFixtures.ctx()).isEmpty(), id);
        }
    }
}
