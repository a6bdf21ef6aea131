package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry and the precedence table: every check described, the first failed check in the table decides. */
class ChecksTest {
    @Test
    void everyCheckHasMetadataAndTheTableNamesEachVerdictOnce() {
        assertEquals(14, Checks.ORDERED.size());
        assertEquals(11, Checks.CLAUDE.size());
        for (PrecheckCheck c : Checks.ORDERED) {
            assertEquals(false, c.meta().summary().isBlank(), c.id());
            if (!c.meta().verdict().isEmpty()) assertEquals(c.meta().verdict(), Checks.PRECEDENCE.get(c.id()), c.id());
        }
        assertEquals(
                List.of(
                        "threat_scan",
                        "already_carried",
                        "claude_covered",
                        "history_state",
                        "temporary",
                        "claude_instruction",
                        "pointer",
                        "procedure",
                        "incident_story",
                        "granularity",
                        "value",
                        "capacity",
                        "claude_index_window"),
                List.copyOf(Checks.PRECEDENCE.keySet()));
    }

    @Test
    void theFirstFailedCheckInTheTableDecides() {
        Map<String, Outcome> o = new LinkedHashMap<>();
        o.put("granularity", Outcome.fail("x"));
        o.put("procedure", Outcome.fail("x"));
        o.put("capacity", Outcome.fail("x"));
        assertEquals("route_skill", Checks.verdict(o));
        o.put("history_state", Outcome.fail("x"));
        assertEquals("reject_history", Checks.verdict(o));
        assertEquals("write", Checks.verdict(Map.of("procedure", Outcome.pass("x"), "tag", Outcome.warn("x"))));
    }
}
