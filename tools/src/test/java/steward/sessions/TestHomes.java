package steward.sessions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import steward.json.Json;
import steward.sessions.store.Sqlite;
import tools.jackson.databind.JsonNode;

/** Copies {@code fixtures/hermes-home} into a test directory and reads its manifest. */
public final class TestHomes {
    private TestHomes() {}

    public static final Instant NOW = Instant.parse("2026-08-10T12:00:00Z");
    public static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    public static Path repo() {
        String r = System.getProperty("steward.repo");
        Path p = r != null ? Path.of(r) : Path.of("..");
        if (!Files.isDirectory(p.resolve("fixtures/hermes-home"))) p = Path.of("..");
        return p.toAbsolutePath().normalize();
    }

    public static Path copyFixture(Path tmp) throws IOException {
        Path from = repo().resolve("fixtures/hermes-home");
        Path to = tmp.resolve("hermes-home");
        steward.state.FileTrees.copy(from, to);
        return to;
    }

    public static JsonNode manifest() throws IOException {
        return Json.MAPPER.readTree(Files.readAllBytes(repo().resolve("fixtures/hermes-home/manifest.json")));
    }

    /** Every row of sessions and messages (all columns, ordered by id), for logical comparison. */
    public static List<String> dump(Path db) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db); Statement st = c.createStatement()) {
            for (String sql : List.of("SELECT * FROM sessions ORDER BY id", "SELECT * FROM messages ORDER BY id",
                    "SELECT rowid, * FROM messages_fts ORDER BY rowid")) {
                try (ResultSet rs = st.executeQuery(sql)) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder sb = new StringBuilder();
                        for (int i = 1; i <= md.getColumnCount(); i++) sb.append(md.getColumnName(i)).append('=').append(rs.getObject(i)).append('|');
                        out.add(sb.toString());
                    }
                }
            }
        }
        return out;
    }

    /**
     * Sessions and messages compared by meaning rather than row id: every session row; every message row without its
     * id, in each session's order; and, for both FTS tables, the indexed text of every message (a restore gives
     * messages new row ids, as Hermes' own import does). Also asserts each FTS rowid belongs to a message.
     */
    public static List<String> logicalDump(Path db) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db); Statement st = c.createStatement()) {
            for (String sql : List.of("SELECT * FROM sessions ORDER BY id",
                    "SELECT * FROM messages ORDER BY session_id, id",
                    "SELECT m.session_id, f.content FROM messages_fts f JOIN messages m ON m.id = f.rowid ORDER BY m.session_id, m.id",
                    "SELECT m.session_id, f.content FROM messages_fts_trigram f JOIN messages m ON m.id = f.rowid ORDER BY m.session_id, m.id",
                    "SELECT 'fts row without message', rowid FROM messages_fts WHERE rowid NOT IN (SELECT id FROM messages)",
                    "SELECT 'message without fts row', id FROM messages WHERE id NOT IN (SELECT rowid FROM messages_fts)")) {
                try (ResultSet rs = st.executeQuery(sql)) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder sb = new StringBuilder();
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            if (sql.contains("FROM messages ORDER") && md.getColumnName(i).equals("id")) continue;
                            sb.append(md.getColumnName(i)).append('=').append(rs.getObject(i)).append('|');
                        }
                        out.add(sb.toString());
                    }
                }
            }
        }
        return out;
    }

    /** Damages messages_fts the way issue 12 saw it: index entries left for a row whose indexed content is gone. */
    public static void damageFts(Path db) throws Exception {
        try (Connection c = Sqlite.openReadWrite(db); Statement st = c.createStatement()) {
            st.execute("DELETE FROM messages_fts_content WHERE id = (SELECT MIN(id) FROM messages)");
        }
    }
}
