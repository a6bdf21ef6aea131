package steward.recall.gate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.junit.jupiter.api.Test;

class CooldownGateTest {
    final Gate gate = new CooldownGate();

    @Test
    void dropsAnItemInjectedWithinTheCooldown() {
        String uri = "steward://memory/memory/2";
        assertNotNull(gate.drop(
                GateTestSupport.item(uri, "x"), GateTestSupport.ctx(Set.of(), Set.of(), Set.of(uri), Set.of())));
    }

    @Test
    void keepsItemsNotRecentlyInjected() {
        assertNull(gate.drop(
                GateTestSupport.item("steward://memory/memory/3", "x"),
                GateTestSupport.ctx(Set.of(), Set.of(), Set.of("steward://memory/memory/2"), Set.of())));
    }
}
