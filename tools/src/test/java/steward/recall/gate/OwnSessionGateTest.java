package steward.recall.gate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.junit.jupiter.api.Test;

class OwnSessionGateTest {
    final Gate gate = new OwnSessionGate();

    @Test
    void dropsTheCurrentSessionsRecentTurn() {
        String uri = "steward://session/s1/message/7";
        assertNotNull(gate.drop(
                GateTestSupport.item(uri, "we picked Postgres"),
                GateTestSupport.ctx(Set.of(uri), Set.of(), Set.of(), Set.of())));
    }

    @Test
    void dropsAnItemEqualToARecentTurnGivenInTheCall() {
        assertNotNull(gate.drop(
                GateTestSupport.item("steward://session/s9/message/1", "we picked Postgres"),
                GateTestSupport.ctx(Set.of(), Set.of("we picked Postgres"), Set.of(), Set.of())));
    }

    @Test
    void keepsOlderTurnsAndOtherSessions() {
        assertNull(gate.drop(
                GateTestSupport.item("steward://session/s2/message/3", "we picked Postgres"),
                GateTestSupport.ctx(
                        Set.of("steward://session/s1/message/7"), Set.of("something else"), Set.of(), Set.of())));
    }
}
