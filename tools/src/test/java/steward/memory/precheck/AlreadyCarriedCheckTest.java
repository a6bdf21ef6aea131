package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class AlreadyCarriedCheckTest {
    final AlreadyCarriedCheck check = new AlreadyCarriedCheck();

    @Test
    void anIdenticalEntryOrACloseCoverFails() {
        assertEquals(
                "fail",
                check.evaluate(CheckFixtures.with("[env] GPU is an RTX 4090", null, null, 0, true))
                        .status());
        assertEquals(
                "fail",
                check.evaluate(CheckFixtures.with(
                                "[env] GPU RTX 4090 with CUDA 12.4", "memory", "MEMORY.md entry 5", 0.9, false))
                        .status());
    }

    @Test
    void aPartialCoverOrATinyTextPasses() {
        assertEquals(
                "pass",
                check.evaluate(CheckFixtures.with(
                                "[env] GPU driver is 555.85 for CUDA 12.4", "memory", "MEMORY.md entry 5", 0.5, false))
                        .status());
        assertEquals(
                "pass",
                check.evaluate(CheckFixtures.with("GPU", "memory", "MEMORY.md entry 5", 1.0, false))
                        .status(),
                "fewer than 3 words");
        assertEquals(
                "pass",
                check.evaluate(CheckFixtures.with("[env] something new", null, null, 0, false))
                        .status());
    }

    @Test
    void aCloseCoverThatLacksAVersionHostOrNegationPasses() {
        PrecheckInput other = new PrecheckInput(
                "[ops] Postgres 15 on db01",
                "memory",
                "memory",
                "MEMORY.md entry 12",
                0.9,
                false,
                null,
                100,
                2200,
                true,
                "high",
                "severe",
                List.of("15"));
        var o = check.evaluate(other);
        assertEquals("pass", o.status());
        org.junit.jupiter.api.Assertions.assertTrue(o.detail().contains("but not 15"), o.detail());
        PrecheckInput negated = new PrecheckInput(
                "[ops] 预发部署不需要 VPN",
                "memory",
                "memory",
                "MEMORY.md entry 9",
                0.95,
                false,
                null,
                100,
                2200,
                true,
                "high",
                "severe",
                List.of("not"));
        assertEquals("pass", check.evaluate(negated).status());
    }
}
