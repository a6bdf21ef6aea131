package steward.sessions.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.sessions.HermesRows;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/**
 * A restore says which of the sessions it brought back Hermes' own sessions.auto_prune will delete again (ended,
 * started more than retention_days ago), and when; with auto_prune off, or nothing that old, it says nothing.
 */
class RestoreAutoPruneTest {
    @TempDir
    Path tmp;

    static final double NOW = TestHomes.NOW.getEpochSecond();

    /** The fixture's HIGH items applied with auto_prune off (as the audit saw it); the backup id. */
    static String applyHigh(StewardPaths paths) {
        String plan = new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .plan()
                .plan_id();
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan, Map.of(), Map.of(), Map.of(), false, null));
        assertTrue(r.executed().stream().anyMatch(x -> x.action().equals("delete")), "the fixture deletes something");
        return r.backup().backup_id();
    }

    static Set<String> ids(StewardPaths paths, String where) throws Exception {
        Set<String> out = new HashSet<>();
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                ResultSet rs = c.createStatement().executeQuery("SELECT id FROM sessions WHERE " + where)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    @Test
    void restoredSessionsHermesWillPruneAgainAreNamedWithWhen() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        String backup = applyHigh(paths);
        Files.writeString(paths.configYaml(), "sessions:\n  auto_prune: true\n  retention_days: 30\n");
        HermesRows.sql(
                paths.stateDb(),
                "INSERT OR REPLACE INTO state_meta (key, value) VALUES ('last_auto_prune', '" + (NOW - 6 * 3600)
                        + "')");

        RestoreEngine.Result r = new RestoreEngine(paths, TestHomes.CLOCK).restore(backup, null);
        Set<String> restored = new HashSet<>(r.restored());
        Set<String> due = ids(paths, "ended_at IS NOT NULL AND started_at <= " + (NOW - 30 * 86400));
        Set<String> soon = ids(
                paths,
                "ended_at IS NOT NULL AND started_at > " + (NOW - 30 * 86400) + " AND started_at <= "
                        + (NOW - 23 * 86400));
        due.retainAll(restored);
        soon.retainAll(restored);
        assertFalse(due.isEmpty(), "the fixture's deletions include sessions older than 30 days");

        RestoreEngine.AutoPrune p = r.hermes_auto_prune();
        assertEquals(30.0, p.retention_days());
        assertEquals("2026-08-11T06:00:00Z", p.next_run_after(), "24 h after Hermes' last run");
        assertEquals(due.size(), p.due());
        assertEquals(soon.size(), p.due_within_7_days());
        Set<String> named = new HashSet<>();
        for (RestoreEngine.Due d : p.sessions()) named.add(d.session_id());
        Set<String> expected = new HashSet<>(due);
        expected.addAll(soon);
        assertEquals(expected, named);
        for (String id : restored) {
            if (!expected.contains(id)) assertFalse(named.contains(id), id + " stays: active or recent");
        }
    }

    @Test
    void withAutoPruneOffOrARetentionLongerThanTheHistoryNothingIsSaid() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp.resolve("off")));
        String backup = applyHigh(paths);
        Files.writeString(paths.configYaml(), "sessions:\n  auto_prune: false\n  retention_days: 30\n");
        RestoreEngine.Result off = new RestoreEngine(paths, TestHomes.CLOCK).restore(backup, null);
        assertFalse(off.restored().isEmpty());
        assertNull(off.hermes_auto_prune());

        StewardPaths again = StewardPaths.of(TestHomes.copyFixture(tmp.resolve("long")));
        String second = applyHigh(again);
        Files.writeString(again.configYaml(), "sessions:\n  auto_prune: true\n  retention_days: 36500\n");
        RestoreEngine.Result longRetention = new RestoreEngine(again, TestHomes.CLOCK).restore(second, null);
        assertFalse(longRetention.restored().isEmpty());
        assertNull(longRetention.hermes_auto_prune(), "nothing is 100 years old");
    }
}
