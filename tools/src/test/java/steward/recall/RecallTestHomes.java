package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import steward.config.StewardPaths;
import steward.sessions.store.SessionStore;
import steward.testing.TestHomes;

/** Test homes: a copy of fixtures/hermes-home, or a small home written by the test. */
final class RecallTestHomes {
    private RecallTestHomes() {}

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-09-01T00:00:00Z"), ZoneOffset.UTC);

    static Path fixtureCopy(Path tmp) throws IOException {
        return TestHomes.copyFixture(tmp);
    }

    /** A home with only memory files (no state.db, no skills). */
    static Path memoryHome(Path tmp, String memory, String user) throws IOException {
        Path home = tmp.resolve("home");
        Files.createDirectories(home.resolve("memories"));
        if (memory != null) Files.writeString(home.resolve("memories/MEMORY.md"), memory);
        if (user != null) Files.writeString(home.resolve("memories/USER.md"), user);
        return home;
    }

    /** The URI of the memory entry with this text (its content-derived id). */
    static String memUri(String target, String text) {
        return "steward://memory/" + target + "/" + Identity.id(text);
    }

    /** The URI of the fixture's MEMORY.md entry that contains {@code part}. */
    static String fixtureMem(Path home, String part) throws IOException {
        String[] entries = Files.readString(home.resolve("memories/MEMORY.md")).split("\n§\n");
        for (String e : entries) if (e.contains(part)) return memUri("memory", e.strip());
        throw new AssertionError("no entry with " + part);
    }

    /** Deletes a session and its messages from state.db (as Hermes' delete_session does). */
    static void deleteSession(Path home, String sessionId) {
        try (SessionStore st = SessionStore.openReadWrite(home.resolve("state.db"))) {
            st.write(c -> {
                for (String sql :
                        new String[] {"DELETE FROM messages WHERE session_id = ?", "DELETE FROM sessions WHERE id = ?"
                        }) {
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        ps.setString(1, sessionId);
                        ps.executeUpdate();
                    }
                }
                return null;
            });
        }
    }

    static RecallEngine engine(Path home) {
        return new RecallEngine(StewardPaths.of(home), CLOCK, RecallEngine.Options.LEXICAL);
    }

    static long addMessage(Path home, String sessionId, String role, String content, double ts) {
        try (SessionStore st = SessionStore.openReadWrite(home.resolve("state.db"))) {
            return st.write(c -> {
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?,?,?,?)",
                        Statement.RETURN_GENERATED_KEYS)) {
                    ps.setString(1, sessionId);
                    ps.setString(2, role);
                    ps.setString(3, content);
                    ps.setDouble(4, ts);
                    ps.executeUpdate();
                    try (var k = ps.getGeneratedKeys()) {
                        k.next();
                        return k.getLong(1);
                    }
                }
            });
        }
    }
}
