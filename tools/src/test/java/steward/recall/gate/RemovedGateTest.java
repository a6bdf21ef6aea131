package steward.recall.gate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.junit.jupiter.api.Test;
import steward.recall.Identity;
import steward.recall.RecallItem;

class RemovedGateTest {
    final RemovedGate gate = new RemovedGate();

    static RecallItem memory(String text) {
        return new RecallItem(
                "steward://memory/memory/" + Identity.id(text),
                RecallItem.MEMORY,
                "memory",
                "",
                text,
                "",
                1.7e9,
                null,
                false);
    }

    static Gate.Context now(String... entries) {
        Set<String> n = new java.util.HashSet<>();
        for (String e : entries) n.add(Identity.normalise(e));
        return new Gate.Context("s1", Set.of(), Set.of(), Set.of(), Set.of(), Set.of(), n, Set.of());
    }

    @Test
    void dropsAMemoryEntryNoLongerInTheFileAndKeepsOneStillThere() {
        assertNotNull(gate.drop(memory("Staging DB on port 5433"), now("Prod DB on port 5432")));
        assertNull(gate.drop(memory("Staging DB on port 5433"), now("staging db on port 5433.")), "case, punctuation");
        assertNull(
                gate.drop(memory("Staging DB on port 5433"), now("[0.5] Staging DB on port 5433")),
                "a confidence prefix added by consolidation: the same entry");
        assertNull(
                gate.drop(memory("[0.3] Staging DB on port 5433"), now("[0.7] Staging DB on port 5433")), "promoted");
    }

    @Test
    void leavesOtherSourcesAndUnreadFilesAlone() {
        assertNull(gate.drop(GateTestSupport.item("steward://session/a/message/1", "x"), now()));
        assertNull(gate.drop(memory("Staging DB on port 5433"), GateTestSupport.EMPTY), "memory not read: unknown");
    }

    /**
     * Review of 2026-12-05: right after session_apply deleted a session, the server (whose index lags by a moment)
     * injected its messages.
     */
    @Test
    void dropsAMessageOfASessionNoLongerInStateDb() {
        RecallItem m = GateTestSupport.item("steward://session/s1/message/7", "We chose Postgres 16");
        Gate.Context gone =
                new Gate.Context("cur", Set.of(), Set.of(), Set.of(), Set.of(), Set.of(), null, Set.of("s1"));
        assertNotNull(gate.drop(m, gone));
        Gate.Context there =
                new Gate.Context("cur", Set.of(), Set.of(), Set.of(), Set.of(), Set.of(), null, Set.of("s2"));
        assertNull(gate.drop(m, there));
    }
}
