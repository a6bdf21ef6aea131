package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TagCheckTest {
    @Test
    void anUntaggedMemoryEntryWarns() {
        CheckFixtures.check(new TagCheck(), """
                warn | GPU is an RTX 4090
                warn | [0.5] GPU is an RTX 4090
                """);
    }

    @Test
    void aTagAfterAConfidencePrefixOrAUserEntryIsFine() {
        CheckFixtures.check(new TagCheck(), """
                pass | [env] GPU is an RTX 4090
                pass | [0.7] [env] GPU is an RTX 4090
                """);
        assertEquals(
                "skip",
                new TagCheck()
                        .evaluate(new PrecheckInput(
                                "Prefers tea", "user", null, null, 0, false, null, 0, 1375, true, "high", "severe"))
                        .status());
    }
}
