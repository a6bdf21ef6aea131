package steward.sessions.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.PreferenceData;
import steward.learning.PreferenceStore;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionStore;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/**
 * Review of 2026-12-04: a deleted session whose title another session took since (Hermes' titles are unique) was
 * skipped by session_restore, so it existed only in the backup. It now comes back as "<title> (restored)" (then
 * "(restored 2)", …), every message with it, and the result says so in {@code retitled}.
 */
class RestoreRetitleTest {
    @TempDir
    Path tmp;

    static final String ID = "20260803_070000_ee241c", TITLE = "O'Brien; DROP TABLE sessions;--";

    @Test
    void aSessionWhoseTitleWasTakenSinceComesBackUnderATitleThatSaysSo() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        SessionRow seen;
        try (SessionStore s = SessionStore.openReadOnly(paths.stateDb())) {
            seen = s.listSessions().stream()
                    .filter(r -> r.id().equals(ID))
                    .findFirst()
                    .orElseThrow();
        }
        assertEquals(TITLE, seen.title());
        // the user asked to delete it (rule F runs it)
        new PreferenceStore(paths.stateDir(), TestHomes.CLOCK)
                .update(
                        d -> {
                            PreferenceData.SessionMark m = new PreferenceData.SessionMark(ID, TITLE, "2026-08-09", "B");
                            m.messages = seen.messageCount();
                            m.last_activity = seen.lastActivity();
                            m.ended = !seen.active();
                            d.session_level.delete.add(m);
                            return null;
                        },
                        false);
        Plan plan = new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .plan();
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), Map.of(ID, "approve"), Map.of(), Map.of(), false, null));
        assertTrue(
                r.executed().stream().anyMatch(d -> d.session_id().equals(ID)),
                r.executed().toString());
        int messages = count(paths, "SELECT COUNT(*) FROM messages WHERE session_id = '" + ID + "'");
        assertEquals(0, messages);
        // two other sessions take the title and its first restored form
        String other = "20260702_112900_0becd7";
        title(paths, other, TITLE);
        title(paths, "20260628_120000_b688b6", TITLE + " (restored)");

        RestoreEngine.Result rr =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), List.of(ID));
        assertEquals(List.of(ID), rr.restored());
        assertEquals(List.of(new RestoreEngine.Retitled(ID, TITLE + " (restored 2)", TITLE)), rr.retitled());
        assertEquals(
                seen.messageCount(), count(paths, "SELECT COUNT(*) FROM messages WHERE session_id = '" + ID + "'"));
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                PreparedStatement ps = c.prepareStatement("SELECT title FROM sessions WHERE id = ?")) {
            ps.setString(1, other);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertEquals(TITLE, rs.getString(1), "the other session keeps its title");
            }
        }
    }

    static void title(StewardPaths paths, String id, String title) throws Exception {
        try (Connection c = Sqlite.openReadWrite(paths.stateDb());
                PreparedStatement ps = c.prepareStatement("UPDATE sessions SET title = ? WHERE id = ?")) {
            ps.setString(1, title);
            ps.setString(2, id);
            assertEquals(1, ps.executeUpdate());
        }
    }

    static int count(StewardPaths paths, String sql) throws Exception {
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
