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
}
