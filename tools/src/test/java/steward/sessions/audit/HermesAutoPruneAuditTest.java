package steward.sessions.audit;

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
import steward.learning.Preferences;
import steward.sessions.HermesRows;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/**
 * The audit with Hermes' own sessions.auto_prune on (retention 30 days, on the fixture): it says which sessions Hermes
 * deletes itself and when, and never proposes the opposite (keep them) or the same thing again (delete them).
 */
class HermesAutoPruneAuditTest {
    @TempDir
    Path tmp;

    @Test
    void theAuditSaysWhatHermesPrunesAndProposesNothingAboutIt() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StewardPaths paths = StewardPaths.of(home);
        Files.writeString(paths.configYaml(), "sessions:\n  auto_prune: true\n  retention_days: 30\n");
        double now = TestHomes.NOW.getEpochSecond();
        HermesRows.sql(
                paths.stateDb(),
                "INSERT OR REPLACE INTO state_meta (key, value) VALUES ('last_auto_prune', '" + (now - 6 * 3600)
                        + "')");
        Set<String> due = new HashSet<>();
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT id FROM sessions WHERE ended_at IS NOT NULL AND started_at < "
                                + (now - 30 * 86400))) {
            while (rs.next()) due.add(rs.getString(1));
        }
        assertEquals(10, due.size());
        String current = TestHomes.manifest().get("current_session_id").asString();
        AuditEngine.Outcome o = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500));
        AuditResult.HermesPrune hp = o.result().housekeeping().hermes_prune();
        assertTrue(hp.enabled());
        assertEquals(30.0, hp.retention_days());
        assertEquals(due.size(), hp.due());
        assertEquals("2026-08-11T06:00:00Z", hp.next_run_after(), "24 h after Hermes' last run");
        Map<String, AuditResult.Item> items = FixtureVerdictTest.all(o.result());
        for (String id : due) {
            AuditResult.Item it = items.get(id);
            assertEquals("H", it.rule(), id + ": " + it.reason());
            assertEquals("review", it.action());
            assertFalse(it.executable());
            assertNull(it.question(), "nothing to answer");
            assertTrue(it.reason().contains("at the first Hermes start after 2026-08-11 06:00 UTC"), it.reason());
        }
        for (Plan.PlanItem p : o.plan().items()) {
            if (due.contains(p.session_id())) assertEquals("H", p.rule(), "never proposed again: " + p.session_id());
        }
        assertTrue(
                o.result().groups().retained().items().stream().noneMatch(i -> due.contains(i.session_id())),
                "never promised kept");

        Files.writeString(paths.configYaml(), "sessions:\n  auto_prune: false\n");
        AuditEngine.Outcome off = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500));
        assertFalse(off.result().housekeeping().hermes_prune().enabled());
        assertTrue(off.plan().items().stream().noneMatch(p -> p.rule().equals("H")));
    }
}
