package steward.sessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.sql.Types;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

class SessionStoreTest {
    @TempDir
    Path tmp;

    @Test
    void countsMatchTheManifest() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        JsonNode manifest = Json.MAPPER.readTree(Files.readString(home.resolve("manifest.json")));
        int active = 0, archived = 0;
        Map<String, Integer> bySource = new HashMap<>();
        for (JsonNode s : manifest.get("sessions")) {
            if (s.get("active").asBoolean()) active++;
            if (s.get("archived").asBoolean()) archived++;
            bySource.merge(s.get("source").asString(), 1, Integer::sum);
        }
        try (SessionStore store = SessionStore.openReadOnly(home.resolve("state.db"))) {
            assertEquals(21, store.schemaVersion());
            SessionStore.Counts c = store.counts();
            assertEquals(manifest.get("sessions").size(), c.total());
            assertEquals(active, c.active());
            assertEquals(c.total() - active, c.ended());
            assertEquals(archived, c.archived());
            assertEquals(bySource, c.bySource());
            assertEquals(c.total(), store.listSessions().size());
        }
    }

    @Test
    void lastActivityIsTheNewestMessageOrTheStart() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        JsonNode manifest = Json.MAPPER.readTree(Files.readString(home.resolve("manifest.json")));
        Map<String, Double> expected = new HashMap<>();
        for (JsonNode s : manifest.get("sessions"))
            expected.put(s.get("id").asString(), s.get("last_active").asDouble());
        try (SessionStore store = SessionStore.openReadOnly(home.resolve("state.db"))) {
            for (SessionRow r : store.listSessions()) {
                assertEquals(expected.get(r.id()), r.lastActivity(), 1.0, r.id());
            }
        }
    }

    @Test
    void auditListingReadsTheSameRowsAsTheReferenceListing() throws Exception {
        // more rows than PARALLEL_MIN_ROWS, so the two-reader path runs; awkward titles, no messages, a subagent
        Path home = TestHomes.copyFixture(tmp);
        Path db = home.resolve("state.db");
        String[] titles = {
            null, "O'Brien; DROP TABLE sessions;--", "emoji \uD83D\uDE80 title", "ctl\u001fsep\u0001x", "  ", "中文标题"
        };
        try (Connection c = Sqlite.openReadWrite(db)) {
            c.setAutoCommit(false);
            try (var ps = c.prepareStatement(
                            "INSERT INTO sessions (id, source, title, started_at, ended_at, end_reason, message_count, "
                                    + "model_config, parent_session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
                    var pm = c.prepareStatement(
                            "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'x', ?)")) {
                for (int i = 0; i < (int) SessionStore.PARALLEL_MIN_ROWS + 100; i++) {
                    String id = String.format("zz_%05d", i);
                    boolean sub = i % 7 == 0;
                    ps.setString(1, id);
                    ps.setString(2, sub ? "subagent" : "cli");
                    String t = titles[i % titles.length];
                    ps.setString(
                            3, t == null ? null : t.isBlank() ? (i == 4 ? t : null) : t + " " + i); // titles are unique
                    ps.setDouble(4, 1.7e9 + i + 0.123456789);
                    if (i % 3 == 0) ps.setNull(5, Types.REAL);
                    else ps.setDouble(5, 1.7e9 + i + 99.987654321);
                    ps.setString(6, i % 3 == 0 ? null : "user_exit");
                    ps.setInt(7, i % 5);
                    ps.setString(8, sub ? "{\"_delegate_from\": \"zz_00000\"}" : null);
                    ps.setString(9, sub && i > 0 ? "zz_00000" : null);
                    ps.executeUpdate();
                    for (int m = 0; m < i % 5; m++) {
                        pm.setString(1, id);
                        pm.setDouble(2, 1.7e9 + i + 10 * m + 0.5);
                        pm.executeUpdate();
                    }
                }
            }
            c.commit();
        }
        try (SessionStore store = SessionStore.openReadOnly(db)) {
            Map<String, SessionRow> reference = new HashMap<>();
            for (SessionRow r : store.listSessions()) reference.put(r.id(), r);
            var audit = store.listSessionsForAudit();
            assertEquals(reference.size(), audit.size());
            assertEquals(
                    reference.size(),
                    audit.stream().map(SessionRow::id).distinct().count());
            for (SessionRow a : audit) {
                SessionRow r = reference.get(a.id());
                String at = a.id();
                assertEquals(r.source(), a.source(), at);
                assertEquals(r.title(), a.title(), at);
                assertEquals(r.parentSessionId(), a.parentSessionId(), at);
                assertEquals(r.startedAt(), a.startedAt(), 0.0, at);
                assertEquals(r.endedAt(), a.endedAt(), at);
                assertEquals(r.endReason(), a.endReason(), at);
                assertEquals(r.messageCount(), a.messageCount(), at);
                assertEquals(r.lastActivity(), a.lastActivity(), 0.0, at);
                assertEquals(r.archived(), a.archived(), at);
                if (r.subagent() || (r.modelConfig() != null && r.modelConfig().contains("_delegate_from"))) {
                    assertEquals(r.modelConfig(), a.modelConfig(), at);
                }
            }
        }
    }

    @Test
    void refusesAFileThatIsNotSqlite() throws Exception {
        Path db = tmp.resolve("state.db");
        Files.writeString(db, "this is not a database, just text ".repeat(200));
        byte[] before = Files.readAllBytes(db);
        StewardError e = assertThrows(StewardError.class, () -> SessionStore.openReadOnly(db));
        assertTrue(e.getMessage().startsWith("state.db: "), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(db));
    }

    @Test
    void refusesAnEmptyFileWithoutWritingToIt() throws Exception {
        Path db = tmp.resolve("state.db");
        Files.createFile(db);
        StewardError e = assertThrows(StewardError.class, () -> SessionStore.openReadOnly(db));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
        assertEquals(0, Files.size(db));
    }

    @Test
    void refusesANewerSchema() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path db = home.resolve("state.db");
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE schema_version SET version = 99");
        }
        StewardError e = assertThrows(StewardError.class, () -> SessionStore.openReadOnly(db));
        assertTrue(e.getMessage().contains("schema version 99 is newer"), e.getMessage());
    }

    @Test
    void acceptsNewerSupportedSchemasWithExtraColumns() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path db = home.resolve("state.db");
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            st.executeUpdate("ALTER TABLE sessions ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0");
            st.executeUpdate("ALTER TABLE sessions ADD COLUMN last_activity_at REAL");
            st.executeUpdate("UPDATE sessions SET pinned = 1 WHERE id = (SELECT id FROM sessions LIMIT 1)");
            st.executeUpdate("UPDATE schema_version SET version = 30");
        }
        try (SessionStore store = SessionStore.openReadOnly(db)) {
            assertEquals(30, store.schemaVersion());
            assertTrue(store.hasSessionColumn("pinned"));
            assertEquals(
                    1, store.listSessions().stream().filter(SessionRow::pinned).count());
        }
    }

    @Test
    void refusesADatabaseWithoutHermesTables() throws Exception {
        Path db = tmp.resolve("other.db");
        try (Connection c = Sqlite.openOwned(db);
                Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE notes(id INTEGER)");
        }
        StewardError e = assertThrows(StewardError.class, () -> SessionStore.openReadOnly(db));
        assertTrue(e.getMessage().contains("no 'sessions' table"), e.getMessage());
    }

    @Test
    void writeWaitsForAnotherWriterThenCommits() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path db = home.resolve("state.db");
        CountDownLatch locked = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            try (Connection c = Sqlite.openReadWrite(db);
                    Statement st = c.createStatement()) {
                st.execute("BEGIN IMMEDIATE");
                locked.countDown();
                Thread.sleep(1500);
                st.execute("COMMIT");
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        other.start();
        locked.await();
        try (SessionStore store = SessionStore.openReadWrite(db)) {
            int n = store.write(c -> {
                try (Statement st = c.createStatement()) {
                    return st.executeUpdate(
                            "UPDATE sessions SET title = 'renamed by test' WHERE id = '20260707_101100_1738f7'");
                }
            });
            assertEquals(1, n);
        }
        other.join();
    }

    @Test
    void writeGivesUpCleanlyWhenTheDatabaseStaysLocked() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path db = home.resolve("state.db");
        try (Connection holder = Sqlite.openReadWrite(db);
                Statement hold = holder.createStatement();
                SessionStore store = SessionStore.openReadWrite(db)) {
            hold.execute("BEGIN IMMEDIATE");
            StewardError e = assertThrows(
                    StewardError.class,
                    () -> Sqlite.immediate(
                            store.connection(),
                            c -> {
                                try (Statement st = c.createStatement()) {
                                    return st.executeUpdate("DELETE FROM messages");
                                }
                            },
                            2));
            assertTrue(e.getMessage().contains("stayed locked"), e.getMessage());
            hold.execute("ROLLBACK");
            try (Statement st = store.connection().createStatement();
                    var rs = st.executeQuery("SELECT COUNT(*) FROM messages")) {
                rs.next();
                assertTrue(rs.getInt(1) > 0, "nothing was deleted");
            }
        }
    }

    @Test
    void decodesJsonEncodedContent() {
        String raw =
                "\u0000json:[{\"type\":\"text\",\"text\":\"hello\"},{\"type\":\"image\"},{\"type\":\"text\",\"text\":\"world\"}]";
        assertTrue(MessageContent.isEncodedJson(raw));
        assertEquals("hello\nworld", MessageContent.text(raw));
        assertEquals("plain", MessageContent.text("plain"));
        assertTrue(MessageContent.decode(raw).isArray());
    }
}
