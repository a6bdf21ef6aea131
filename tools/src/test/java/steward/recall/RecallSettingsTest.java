package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import steward.config.Origin;

/** Every recall setting resolved once, with where it came from; a bad value falls back to the default and says so. */
class RecallSettingsTest {
    @Test
    void defaultsWhenNothingIsSet() {
        RecallSettings s = RecallSettings.resolve(Map.of(), Map.of());
        assertEquals(true, s.dense().value());
        assertEquals(Origin.DEFAULT, s.dense().origin());
        assertNull(s.dense().from());
        assertEquals("shadow", s.mode().value());
        assertEquals(RecallSettings.DEFAULT_POLL_MS, s.pollMillis().value());
        assertEquals(List.of(), s.warnings());
    }

    @Test
    void theEnvironmentWinsOverPropertiesAndSaysWhichVariableSetIt() {
        RecallSettings s = RecallSettings.resolve(
                Map.of("STEWARD_RECALL_DENSE", "off", "STEWARD_RECALL_MODE", " Canary "),
                Map.of("steward.recall.dense", "on", "steward.recall.poll-ms", "500"));
        assertEquals(false, s.dense().value());
        assertEquals(Origin.ENVIRONMENT, s.dense().origin());
        assertEquals("STEWARD_RECALL_DENSE", s.dense().from());
        assertEquals("canary", s.mode().value());
        assertEquals(500, s.pollMillis().value());
        assertEquals(Origin.FLAG, s.pollMillis().origin());
        assertEquals("-Dsteward.recall.poll-ms", s.pollMillis().from());
        assertEquals(
                new RecallSettings.Shown("off", "environment", "STEWARD_RECALL_DENSE"),
                s.describe().get("dense"));
    }

    @Test
    void aValueThatCannotBeReadFallsBackToTheDefaultWithAWarning() {
        RecallSettings s = RecallSettings.resolve(
                Map.of("STEWARD_RECALL_DENSE", "maybe", "STEWARD_RECALL_MODE", "loud", "STEWARD_RECALL_POLL_MS", "5"),
                Map.of());
        assertEquals(true, s.dense().value());
        assertEquals("shadow", s.mode().value());
        assertEquals(RecallSettings.DEFAULT_POLL_MS, s.pollMillis().value());
        assertEquals(3, s.warnings().size(), s.warnings().toString());
        assertTrue(s.warnings().get(0).startsWith("STEWARD_RECALL_DENSE=maybe"));
    }
}
