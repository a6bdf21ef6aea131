package steward.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HousekeepingSettingsTest {
    @TempDir
    Path tmp;

    HousekeepingSettings load(String yaml) throws Exception {
        Path f = tmp.resolve("config.yaml");
        Files.writeString(f, yaml);
        return HousekeepingSettings.load(f);
    }

    @Test
    void aMissingFileMeansTheDefaults() {
        HousekeepingSettings s = HousekeepingSettings.load(tmp.resolve("none.yaml"));
        assertEquals(2.0, s.idleHours("cron"));
        assertEquals(24.0, s.idleHours("subagent"));
        assertEquals(48.0, s.idleHours("gateway"));
        assertEquals(24.0, s.idleHours("api"));
        assertEquals(14.0, s.cronRetentionDays());
        assertFalse(s.autoPrune());
        assertEquals(90.0, s.pruneRetentionDays());
    }

    @Test
    void stewardSettingsAndHermesAutoPruneAreRead() throws Exception {
        HousekeepingSettings s = load("""
                sessions:
                  auto_prune: true
                  retention_days: 30
                  min_interval_hours: 12
                steward:
                  cron_retention_days: 7
                  machine_idle_hours:
                    cron: 6
                    gateway: 0
                """);
        assertTrue(s.autoPrune());
        assertEquals(30.0, s.pruneRetentionDays());
        assertEquals(12.0, s.pruneIntervalHours());
        assertEquals(7.0, s.cronRetentionDays());
        assertEquals(6.0, s.idleHours("cron"));
        assertEquals(0.0, s.idleHours("gateway"), "0 turns the kind off");
        assertEquals(List.of(), s.warnings());
    }

    @Test
    void theGatewayIdleTimeFollowsHermesSessionReset() throws Exception {
        assertEquals(
                0.0,
                load("session_reset:\n  mode: none\n").idleHours("gateway"),
                "Hermes never resets: chat sessions go on");
        assertEquals(
                144.0,
                load("session_reset:\n  mode: idle\n  idle_minutes: 4320\n").idleHours("gateway"),
                "twice a 3-day idle reset");
        assertEquals(
                48.0,
                load("session_reset:\n  mode: both\n  idle_minutes: 60\n").idleHours("gateway"),
                "never below the default");
        assertEquals(
                5.0,
                load("session_reset:\n  mode: none\nsteward:\n  machine_idle_hours:\n    gateway: 5\n")
                        .idleHours("gateway"),
                "the user's own setting wins");
    }

    @Test
    void malformedValuesAreWarningsAndDefaults() throws Exception {
        HousekeepingSettings s =
                load("steward:\n  cron_retention_days: soon\n  machine_idle_hours:\n    cron: -1\n    robots: 3\n");
        assertEquals(14.0, s.cronRetentionDays());
        assertEquals(2.0, s.idleHours("cron"));
        assertEquals(3, s.warnings().size(), s.warnings().toString());
        assertFalse(load("sessions:\n  auto_prune: false\n").autoPrune());
    }
}
