package steward.sessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.RealHermes;
import steward.testing.TestHomes;

/**
 * A listing kept between audits and brought up to date equals a fresh listing after every kind of change Hermes
 * makes: messages appended, a session ended or renamed, created, deleted, its messages rewritten, compacted in place.
 */
class AuditListingsTest {
    @TempDir
    Path tmp;

    Path db;

    @AfterEach
    void forget() {
        if (db != null) AuditListings.forget(db);
    }

    private static Map<String, SessionRow> fresh(Path db) {
        try (SessionStore s = SessionStore.openReadOnly(db)) {
            return byId(s.listSessionsForAudit());
        }
    }

    private static Map<String, SessionRow> byId(List<SessionRow> rows) {
        Map<String, SessionRow> m = new LinkedHashMap<>();
        for (SessionRow r : rows) m.put(r.id(), r);
        return m;
    }

    private void sql(String sql, Object... args) {
        try (SessionStore s = SessionStore.openReadWrite(db)) {
            s.write(c -> {
                run(c, sql, args);
                return null;
            });
        }
    }

    private static void run(Connection c, String sql, Object... args) throws java.sql.SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            ps.executeUpdate();
        }
    }

    private String someSession(String where) {
        try (SessionStore s = SessionStore.openReadOnly(db);
                var st = s.connection().createStatement();
                var rs = st.executeQuery("SELECT id FROM sessions WHERE " + where + " ORDER BY rowid LIMIT 1")) {
            assertTrue(rs.next(), "a session where " + where);
            return rs.getString(1);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** The kept listing after {@code change}: brought up to date (not listed whole) and equal to a fresh listing. */
    private void afterChange(String change) {
        List<SessionRow> kept = AuditListings.rows(db);
        assertEquals("UPDATED", AuditListings.lastHow(db).split(" ")[0], change);
        assertEquals(fresh(db), byId(kept), change);
        assertEquals(
                List.copyOf(fresh(db).keySet()),
                kept.stream().map(SessionRow::id).toList(),
                change + ": order");
    }

    @Test
    void everyChangeHermesMakesIsSeenAsAFreshListingSeesIt() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        db = home.resolve("state.db");
        List<SessionRow> first = AuditListings.rows(db);
        assertEquals("FULL", AuditListings.lastHow(db));
        assertEquals(fresh(db), byId(first));
        // nothing changed: the same rows, no session read again (closing the last connection may remove the WAL and
        // move the change key: then one scan finds every session as it was)
        List<SessionRow> again = AuditListings.rows(db);
        assertEquals(first, again);
        assertTrue(List.of("UNCHANGED", "UPDATED 0").contains(AuditListings.lastHow(db)), AuditListings.lastHow(db));
        assertSame(again, AuditListings.rows(db), "the key did not move again: the kept listing as it is");
        assertEquals("UNCHANGED", AuditListings.lastHow(db));

        String s1 = someSession("ended_at IS NULL AND message_count > 2");
        sql(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'one more', ?)",
                s1,
                1786400000.0);
        sql("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", s1);
        afterChange("a message appended");
        assertEquals(1786400000.0, byId(AuditListings.rows(db)).get(s1).lastActivity());
        // (the last reader's close may checkpoint the WAL: the file changes, not a row)
        assertTrue(List.of("UNCHANGED", "UPDATED 0").contains(AuditListings.lastHow(db)), AuditListings.lastHow(db));

        // a message without its count (the count is updated in a later transaction)
        sql(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'assistant', 'reply', ?)",
                s1,
                1786400100.0);
        afterChange("a message before its count");

        String s2 = someSession("ended_at IS NULL AND id != '" + s1 + "'");
        sql(
                "UPDATE sessions SET ended_at = ?, end_reason = 'user_exit', title = 'Named now' WHERE id = ?",
                1786400200.0,
                s2);
        afterChange("ended and renamed");

        sql(
                "INSERT INTO sessions (id, source, started_at, message_count) VALUES ('new_one', 'cli', ?, 2)",
                1786400300.0);
        sql(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('new_one', 'user', 'hi', ?)",
                1786400301.0);
        sql(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('new_one', 'assistant', 'hello', ?)",
                1786400302.0);
        afterChange("a new session");
        assertEquals(1786400302.0, byId(AuditListings.rows(db)).get("new_one").lastActivity());

        String s3 = someSession("ended_at IS NOT NULL AND message_count > 0");
        sql("DELETE FROM messages WHERE session_id = ?", s3);
        sql("DELETE FROM sessions WHERE id = ?", s3);
        afterChange("a session deleted");

        // replace_messages: every row deleted, fewer written again with new ids, the count set
        String s4 = someSession("message_count > 3 AND id != '" + s1 + "'");
        try (SessionStore s = SessionStore.openReadWrite(db)) {
            s.write(c -> {
                run(c, "DELETE FROM messages WHERE session_id = ?", s4);
                run(
                        c,
                        "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'rewritten', ?)",
                        s4,
                        1786300000.0);
                run(c, "UPDATE sessions SET message_count = 1 WHERE id = ?", s4);
                return null;
            });
        }
        afterChange("messages rewritten");
        assertEquals(1, byId(AuditListings.rows(db)).get(s4).messageCount());

        // in-place compaction: the count set to the live rows, the compacted turns kept on disk (the rules count them)
        String s5 = someSession("message_count > 3 AND id NOT IN ('" + s1 + "', '" + s4 + "')");
        sql("UPDATE sessions SET message_count = 1 WHERE id = ?", s5);
        afterChange("compacted in place");
        assertTrue(byId(AuditListings.rows(db)).get(s5).messageCount() > 1, "the rows on disk count");
    }

    @Test
    void aListingRestoreChangedBehindItsBackIsListedWhole() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        db = home.resolve("state.db");
        AuditListings.rows(db);
        AuditListings.forget(db);
        AuditListings.rows(db);
        assertEquals("FULL", AuditListings.lastHow(db));
    }

    /** Hermes' own SessionDB appending in another process: each listing equals a fresh one from the same moment on. */
    @Test
    void aLiveHermesWriterIsFollowed() throws Exception {
        RealHermes hermes = RealHermes.require();
        Path writerScript = hermes.source().resolveSibling("tools").resolve("hermes_writer.py");
        Assumptions.assumeTrue(
                Files.isRegularFile(writerScript), "shared/tools/hermes_writer.py not found: test skipped");
        Path home = TestHomes.copyFixture(tmp);
        db = home.resolve("state.db");
        AuditListings.rows(db);
        ProcessBuilder pb = new ProcessBuilder(
                        "python3",
                        writerScript.toString(),
                        db.toString(),
                        "3",
                        tmp.resolve("w.json").toString())
                .redirectErrorStream(true);
        pb.environment().put("HERMES_SRC", hermes.source().toString());
        Process p = pb.start();
        int updated = 0;
        while (p.isAlive()) {
            AuditListings.rows(db);
            if (AuditListings.lastHow(db).startsWith("UPDATED")) updated++;
            Thread.sleep(100);
        }
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), log);
        assertEquals(0, p.exitValue(), log);
        List<SessionRow> kept = AuditListings.rows(db);
        assertEquals(fresh(db), byId(kept), "after the writer stopped");
        assertTrue(updated > 0, "the listing was brought up to date while Hermes wrote");
    }
}
