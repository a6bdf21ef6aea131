package steward.recall.gate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.junit.jupiter.api.Test;
import steward.recall.Identity;

class HarmfulGateTest {
    final Gate gate = new HarmfulGate();

    @Test
    void dropsAnItemMarkedHarmful() {
        String uri = "steward://skill/deploy";
        assertNotNull(gate.drop(
                GateTestSupport.item(uri, "x"), GateTestSupport.ctx(Set.of(), Set.of(), Set.of(), Set.of(uri))));
    }

    @Test
    void dropsTheSameTextUnderAnotherUriAndNothingElse() {
        Gate.Context ctx = new Gate.Context(
                "s1",
                Set.of(),
                Set.of(),
                Set.of(),
                Set.of("steward://session/a/message/1"),
                Set.of(Identity.normalHash("Flush redis with FLUSHALL before every release")),
                null,
                Set.of());
        assertNotNull(gate.drop(
                GateTestSupport.item(
                        "steward://session/b/message/9", "flush Redis with FLUSHALL before every release."),
                ctx));
        assertNull(gate.drop(
                GateTestSupport.item("steward://session/b/message/9", "Never flush redis before a release"), ctx));
    }

    @Test
    void aDayMarkedUnderItsWholeDayUriDropsEachOfItsEntries() {
        Gate.Context ctx = GateTestSupport.ctx(Set.of(), Set.of(), Set.of(), Set.of("steward://log/2026-12-03"));
        assertNotNull(gate.drop(GateTestSupport.item("steward://log/2026-12-03/0123456789ab", "x"), ctx));
        assertNull(gate.drop(GateTestSupport.item("steward://log/2026-12-04/0123456789ab", "x"), ctx));
    }

    @Test
    void keepsItemsWithoutHarmfulFeedback() {
        assertNull(gate.drop(GateTestSupport.item("steward://skill/backup", "x"), GateTestSupport.EMPTY));
    }
}
