package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CapacityCheckTest {
    static PrecheckInput sized(int after, boolean fits) {
        return new PrecheckInput("[env] x", "memory", null, null, 0, false, null, after, 2200, fits, "high", "severe");
    }

    @Test
    void aWriteThatDoesNotFitFails() {
        assertEquals("fail", new CapacityCheck().evaluate(sized(2201, false)).status());
    }

    @Test
    void aWriteThatFitsPassesAndWarnsFrom85Percent() {
        assertEquals("pass", new CapacityCheck().evaluate(sized(1000, true)).status());
        assertEquals("warn", new CapacityCheck().evaluate(sized(1870, true)).status());
    }
}
