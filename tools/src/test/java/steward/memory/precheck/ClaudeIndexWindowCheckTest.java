package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClaudeIndexWindowCheckTest {
    static PrecheckInput lines(int after) {
        return new PrecheckInput("a fact", "claude", null, null, 0, false, null, after, 200, after <= 200, null, null);
    }

    @Test
    void anIndexLineBeyondTheLoaded200LinesFails() {
        assertEquals("fail", new ClaudeIndexWindowCheck().evaluate(lines(201)).status());
        assertEquals("fail", new ClaudeIndexWindowCheck().evaluate(lines(206)).status());
    }

    @Test
    void withinTheWindowPassesAndWarnsFrom90Percent() {
        assertEquals("pass", new ClaudeIndexWindowCheck().evaluate(lines(6)).status());
        assertEquals("warn", new ClaudeIndexWindowCheck().evaluate(lines(180)).status());
        assertEquals("warn", new ClaudeIndexWindowCheck().evaluate(lines(200)).status());
    }

    @Test
    void hermesTargetsAreSkipped() {
        assertEquals(
                "skip",
                new ClaudeIndexWindowCheck()
                        .evaluate(CapacityCheckTest.sized(5000, false))
                        .status());
    }
}
