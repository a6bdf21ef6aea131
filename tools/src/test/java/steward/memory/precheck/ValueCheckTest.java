package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ValueCheckTest {
    static PrecheckInput answered(String f, String c) {
        return new PrecheckInput(
                "[env] the lab printer runs firmware 4.2", "memory", null, null, 0, false, null, 100, 2200, true, f, c);
    }

    @Test
    void lowFrequencyAndRecoverableFails() {
        assertEquals(
                "fail",
                new ValueCheck().evaluate(answered("low", "recoverable")).status());
    }

    @Test
    void frequentOrSevereOrUnansweredDoesNot() {
        assertEquals(
                "pass",
                new ValueCheck().evaluate(answered("high", "recoverable")).status());
        assertEquals(
                "pass", new ValueCheck().evaluate(answered("low", "severe")).status());
        assertEquals("question", new ValueCheck().evaluate(answered(null, null)).status());
    }
}
