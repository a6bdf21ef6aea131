package steward.recall.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import steward.recall.RecallItem;

/** The gates describe themselves as the housekeeping rules do: @RuleMeta with an id, a summary and a rationale. */
class GatesTest {
    @Test
    void everyGateCarriesItsMetadataWithAUniqueId() {
        Set<String> ids = new HashSet<>();
        for (Gate g : Gates.ALL) {
            assertFalse(g.meta().id().isBlank(), g.getClass().getName());
            assertFalse(g.meta().summary().isBlank(), g.getClass().getName());
            assertFalse(g.meta().rationale().isBlank(), g.getClass().getName());
            assertEquals(g.meta().id(), g.id());
            assertEquals(g.meta().summary(), g.description());
            assertFalse(!ids.add(g.id()), "duplicate gate id " + g.id());
        }
        assertEquals(Set.of("own_recent_turn", "cooldown", "harmful", "secret", "gone"), ids);
    }

    @Test
    void aGateWithoutMetadataIsRefused() {
        Gate bare = (RecallItem item, Gate.Context ctx) -> null;
        assertThrows(IllegalStateException.class, bare::id);
    }
}
