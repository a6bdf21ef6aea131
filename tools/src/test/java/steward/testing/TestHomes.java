package steward.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.sessions.store.Sqlite;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;

/**
 * The one shared test support of every module (packaged as the {@code steward-tools} test-jar, which holds
 * only {@code steward.testing}): the repository root, private copies of {@code fixtures/hermes-home}, the
 * fixture's manifest and pinned clock, small memory homes, and a logical dump of a {@code state.db}.
 */
public final class TestHomes {
    private TestHomes() {}

    /** The fixture's "now": every expectation in {@code fixtures/hermes-home/manifest.json} is relative to it. */
    public static final Instant NOW = Instant.parse("2026-08-10T12:00:00Z");

    public static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    /** The repository root: from the {@code steward.repo} system property (set by Maven), else upwards from the working directory. */
    public static Path repo() {
        String p = System.getProperty("steward.repo");
        Path base = (p != null ? Path.of(p) : Path.of("")).toAbsolutePath().normalize();
        for (Path b = base; b != null; b = b.getParent()) {
            if (Files.isDirectory(b.resolve("fixtures/hermes-home")) && Files.isDirectory(b.resolve("schemas")))
                return b;
        }
        throw new IllegalStateException(
                "repository root (with fixtures/hermes-home and schemas/) not found from " + base);
    }

    public static Path fixtureHome() {
        return repo().resolve("fixtures/hermes-home");
    }

    /** A private, writable copy of {@code fixtures/hermes-home} at {@code <dir>/hermes-home}. */
    public static Path copyFixture(Path dir) throws IOException {
        Path to = dir.resolve("hermes-home");
        FileTrees.copy(fixtureHome(), to);
        return to;
    }

    public static JsonNode manifest() throws IOException {
        return Json.MAPPER.readTree(Files.readAllBytes(fixtureHome().resolve("manifest.json")));
    }

    /** A home with an empty {@code memories/} directory and a {@code config.yaml} setting both memory limits. */
    public static StewardPaths home(Path dir, int memoryLimit, int userLimit) throws IOException {
        Files.createDirectories(dir.resolve("memories"));
        Files.writeString(
                dir.resolve("config.yaml"),
                "memory:\n  memory_char_limit: " + memoryLimit + "\n  user_char_limit: " + userLimit + "\n",
                StandardCharsets.UTF_8);
        return StewardPaths.of(dir);
    }

    /** Every row of sessions and messages (all columns, ordered by id), for logical comparison. */
    public static List<String> dump(Path db) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement()) {
            for (String sql : List.of(
                    "SELECT * FROM sessions ORDER BY id",
                    "SELECT * FROM messages ORDER BY id",
                    "SELECT rowid, * FROM messages_fts ORDER BY rowid")) {
                try (ResultSet rs = st.executeQuery(sql)) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder sb = new StringBuilder();
                        for (int i = 1; i <= md.getColumnCount(); i++)
                            sb.append(md.getColumnName(i))
                                    .append('=')
                                    .append(rs.getObject(i))
                                    .append('|');
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
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement()) {
            for (String sql : List.of(
                    "SELECT * FROM sessions ORDER BY id",
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
                            if (sql.contains("FROM messages ORDER")
                                    && md.getColumnName(i).equals("id")) continue;
                            sb.append(md.getColumnName(i))
                                    .append('=')
                                    .append(rs.getObject(i))
                                    .append('|');
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
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            st.execute("DELETE FROM messages_fts_content WHERE id = (SELECT MIN(id) FROM messages)");
        }
    }

    /**
     * A copy of the fixture with {@code sessions} more ended cli sessions of {@code messagesPerSession} user/assistant
     * messages each, as Hermes would hold them (Hermes' triggers keep its FTS tables in step). For the calls that take
     * longer than a second: their progress and cancellation.
     */
    public static Path largeHome(Path dir, int sessions, int messagesPerSession) throws Exception {
        Path home = copyFixture(dir);
        String[] topics = {
            "docker build cache",
            "rust borrow checker",
            "kubernetes ingress",
            "postgres vacuum",
            "react hooks",
            "gpu driver",
            "travel to kyoto",
            "tax return",
            "java gc pauses",
            "claude code hooks"
        };
        double start = NOW.getEpochSecond() - 400L * 86_400;
        try (Connection c = Sqlite.openReadWrite(home.resolve("state.db"))) {
            Sqlite.immediate(c, x -> {
                try (PreparedStatement s = x.prepareStatement(
                                "INSERT INTO sessions (id, source, started_at, ended_at, end_reason, "
                                        + "message_count, title) VALUES (?, 'cli', ?, ?, 'user_exit', ?, ?)");
                        PreparedStatement m = x.prepareStatement(
                                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")) {
                    for (int i = 0; i < sessions; i++) {
                        String id = String.format(Locale.ROOT, "20250101_%06d_%06x", i, i);
                        double t = start + i * 3_600.0;
                        String topic = topics[i % topics.length];
                        s.setString(1, id);
                        s.setDouble(2, t);
                        s.setDouble(3, t + messagesPerSession * 30.0);
                        s.setInt(4, messagesPerSession);
                        s.setString(5, i % 3 == 0 ? null : "Large home " + i + ": " + topic);
                        s.addBatch();
                        for (int j = 0; j < messagesPerSession; j++) {
                            m.setString(1, id);
                            m.setString(2, j % 2 == 0 ? "user" : "assistant");
                            m.setString(
                                    3,
                                    (j % 2 == 0 ? "Question " : "Answer ") + j + " about " + topic + " in session " + i
                                            + ": what changed, what to try next, and why it matters for the "
                                            + topics[(i + j) % topics.length] + " work.");
                            m.setDouble(4, t + j * 30.0);
                            m.addBatch();
                        }
                        if (i % 200 == 199) {
                            s.executeBatch();
                            m.executeBatch();
                        }
                    }
                    s.executeBatch();
                    m.executeBatch();
                }
                return null;
            });
        }
        return home;
    }
}
