package steward.recall.gate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.junit.jupiter.api.Test;

class HarmfulGateTest {
    final Gate gate = new HarmfulGate();

    @Test
    void dropsAnItemMarkedHarmful() {
        String uri = "steward://skill/deploy";
        assertNotNull(gate.drop(
                GateTestSupport.item(uri, "x"), GateTestSupport.ctx(Set.of(), Set.of(), Set.of(), Set.of(uri))));
    }

    @Test
    void keepsItemsWithoutHarmfulFeedback() {
        assertNull(gate.drop(GateTestSupport.item("steward://skill/backup", "x"), GateTestSupport.EMPTY));
    }
}
