package steward.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.retention.Retention;
import steward.sessions.maintenance.StateVacuum;

/** The one reader of config.yaml: every family from one parse, each value with its origin, bad values named. */
class StewardConfigTest {
    @TempDir
    Path tmp;

    StewardConfig load(String yaml) throws Exception {
        Path f = tmp.resolve("config.yaml");
        Files.writeString(f, yaml);
        return StewardConfig.load(f);
    }

    @Test
    void oneBadValueNamesItsKeyAndTheFile() throws Exception {
        Path f = tmp.resolve("config.yaml");
        for (String key : List.of(
                "subagent_keep_days",
                "cron_retention_days",
                "backup_retention_days",
                "vacuum_min_free_mb",
                "vacuum_max_lock_seconds")) {
            StewardConfig c = load("steward:\n  " + key + ": soon\n");
            List<String> all = new ArrayList<>();
            all.addAll(c.steward().warnings());
            all.addAll(c.housekeeping().warnings());
            all.addAll(Retention.Settings.of(c).warnings());
            all.addAll(StateVacuum.Settings.of(c).warnings());
            assertEquals(1, all.size(), key + ": " + all);
            assertTrue(all.get(0).startsWith(f + ": steward." + key + " "), all.get(0));
            assertTrue(all.get(0).contains("(soon)"), all.get(0));
            // the default is used, but the value is there: rules that depend on it never run on their own
            assertEquals(Origin.UNREADABLE, c.origins().get("steward." + key), key);
            assertEquals(java.util.Set.of("steward." + key), c.unread(), key);
        }
        StewardConfig idle = load("steward:\n  machine_idle_hours:\n    cron: -1\n");
        assertEquals(
                List.of(f + ": steward.machine_idle_hours.cron must be hours from 0 to 8760 (-1); using 2"),
                idle.housekeeping().warnings());
    }

    @Test
    void everyValueSaysWhereItCameFrom() throws Exception {
        StewardConfig c = load("steward:\n  subagent_keep_days: 5\n  backup_retention_days: 7\n"
                + "  machine_idle_hours:\n    cron: 3\nsession_reset:\n  mode: none\nsessions:\n  auto_prune: true\n");
        assertEquals(5.0, c.steward().subagentKeepDays());
        assertEquals(7, c.backupRetentionDays().value());
        assertEquals(3.0, c.housekeeping().idleHours("cron"));
        assertEquals(0.0, c.housekeeping().idleHours("gateway"));
        assertEquals(Origin.CONFIG_FILE, c.origins().get("steward.subagent_keep_days"));
        assertEquals(Origin.CONFIG_FILE, c.origins().get("steward.backup_retention_days"));
        assertEquals(Origin.CONFIG_FILE, c.origins().get("steward.machine_idle_hours.cron"));
        assertEquals(Origin.DERIVED, c.origins().get("steward.machine_idle_hours.gateway"), "from session_reset");
        assertEquals(Origin.DEFAULT, c.origins().get("steward.machine_idle_hours.api"));
        assertEquals(Origin.CONFIG_FILE, c.origins().get("sessions.auto_prune"));
        assertEquals(Origin.DEFAULT, c.origins().get("sessions.retention_days"));
        assertEquals(Origin.DEFAULT, c.origins().get("steward.vacuum_min_free_mb"));
        assertEquals(12, c.origins().size(), c.origins().toString());
    }

    @Test
    void theFamiliesAreThoseOfTheOneRead() throws Exception {
        StewardConfig c = load("steward:\n  cron_retention_days: 3\n  vacuum_min_free_mb: 1\n");
        Path f = c.file();
        assertEquals(c.steward(), StewardSettings.load(f));
        assertEquals(c.housekeeping(), HousekeepingSettings.load(f));
        assertEquals(Retention.Settings.of(c), Retention.Settings.load(f));
        assertEquals(StateVacuum.Settings.of(c), StateVacuum.Settings.load(f));
        assertEquals(1024L * 1024, StateVacuum.Settings.of(c).minFreeBytes());
        assertEquals(3.0, c.housekeeping().cronRetentionDays());

        StewardConfig missing = StewardConfig.load(tmp.resolve("none.yaml"));
        assertEquals(StewardConfig.State.MISSING, missing.read().state());
        assertEquals(StewardSettings.defaults(), missing.steward());
        assertEquals(HousekeepingSettings.defaults(), missing.housekeeping());
        assertTrue(missing.origins().values().stream().allMatch(o -> o == Origin.DEFAULT));

        StewardConfig malformed = load("steward: {subagent_keep_days: [\n");
        assertEquals(StewardConfig.State.MALFORMED, malformed.read().state());
        assertEquals(1, malformed.steward().warnings().size(), "malformed YAML is said once, by StewardSettings");
        assertTrue(malformed.steward().warnings().get(0).startsWith(malformed.file() + ": malformed YAML"));
        assertEquals(List.of(), malformed.housekeeping().warnings());
        assertEquals(malformed.origins().keySet(), malformed.unread(), "nothing in a malformed file is known");

        StewardConfig notAMapping = load("steward: off\nsessions:\n  auto_prune: true\n");
        assertTrue(notAMapping.unread().contains("steward.subagent_keep_days"));
        assertTrue(notAMapping.unread().contains("steward.machine_idle_hours.cron"));
        assertTrue(notAMapping.unread().contains("steward.cron_retention_days"));
        assertTrue(
                notAMapping.unread().stream().allMatch(k -> k.startsWith("steward.")),
                notAMapping.unread().toString());

        StewardConfig idleNotAMapping = load("steward:\n  machine_idle_hours: 0\n  cron_retention_days: 3\n");
        assertEquals(
                java.util.Set.of(
                        "steward.machine_idle_hours.cron",
                        "steward.machine_idle_hours.subagent",
                        "steward.machine_idle_hours.gateway",
                        "steward.machine_idle_hours.api"),
                idleNotAMapping.unread());
        // a bad gateway value is not replaced by one derived from session_reset: it stays unread
        StewardConfig gateway =
                load("steward:\n  machine_idle_hours:\n    gateway: soon\nsession_reset:\n  mode: none\n");
        assertEquals(java.util.Set.of("steward.machine_idle_hours.gateway"), gateway.unread());
        assertTrue(load("steward:\n  subagent_keep_days: 5\n").unread().isEmpty());
        assertTrue(missing.unread().isEmpty());
    }
}
