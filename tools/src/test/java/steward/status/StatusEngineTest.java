package steward.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.sessions.store.DiskUsage;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

class StatusEngineTest {
    @TempDir
    Path tmp;

    @Test
    void reportsTheFixtureHome() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StatusReport r = new StatusEngine(StewardPaths.of(home)).status();
        assertFalse(r.failed(), r.errors().toString());
        assertEquals(62, r.sessions().total());
        assertEquals(21, r.state_db().schema_version());
        assertEquals(2, r.skills());
        assertEquals(7, r.memory().get("memory").entry_count());
        assertEquals(2200, r.memory().get("memory").limit());
        assertFalse(Files.exists(home.resolve("steward")), "status must not create the state dir");
    }

    @Test
    void countsCodePointsAndWarnsOverTheLimit() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.writeString(home.resolve("config.yaml"), "memory:\n  user_char_limit: 10\n");
        Files.writeString(home.resolve("memories/USER.md"), "😀😀😀\n§\nabcdefghij");
        StatusReport r = new StatusEngine(StewardPaths.of(home)).status();
        StatusReport.MemoryUsage u = r.memory().get("user");
        assertEquals(3 + 3 + 10, u.chars()); // emoji count 1 each; the delimiter "\n§\n" counts 3
        assertEquals(2, u.entry_count());
        assertTrue(
                r.warnings().stream().anyMatch(w -> w.startsWith("USER.md: over its limit")),
                r.warnings().toString());
    }

    @Test
    void missingHomeIsAnError() {
        StatusReport r = new StatusEngine(StewardPaths.of(tmp.resolve("nope"))).status();
        assertTrue(r.failed());
        assertFalse(r.hermes_home_exists());
        assertFalse(Files.exists(tmp.resolve("nope")));
    }

    @Test
    void nonUtf8MemoryFileIsAnErrorAndUntouched() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path f = home.resolve("memories/MEMORY.md");
        byte[] bad = {'o', 'k', (byte) 0xff, (byte) 0xfe, '\n'};
        Files.write(f, bad);
        StatusReport r = new StatusEngine(StewardPaths.of(home)).status();
        assertTrue(r.failed());
        assertTrue(r.errors().get(0).contains("not valid UTF-8"), r.errors().toString());
        assertEquals(62, r.sessions().total(), "everything else is still reported");
        assertTrue(Arrays.equals(bad, Files.readAllBytes(f)));
    }

    @Test
    void reportsDiskSpaceFreeListAndSideFiles() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path db = home.resolve("state.db");
        StatusReport before = new StatusEngine(StewardPaths.of(home)).status();
        DiskUsage d0 = before.disk();
        assertEquals(Files.size(db), d0.db_bytes());
        assertTrue(d0.page_size() >= 512 && d0.page_count() * d0.page_size() == d0.db_bytes(), d0.toString());
        assertEquals(0, d0.side_files());
        // a large row deleted: its pages go to SQLite's free list, the file keeps its size
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=DELETE");
            st.execute(
                    "INSERT INTO messages (session_id, role, content, timestamp) SELECT id, 'user', printf('%.500000c', 'x'), 0 FROM sessions LIMIT 1");
            st.execute("DELETE FROM messages WHERE length(content) = 500000");
        }
        Files.createDirectories(home.resolve("sessions"));
        Files.writeString(home.resolve("sessions/s1.json"), "{\"a\": 1}");
        Files.writeString(home.resolve("sessions/request_dump_s1_1.json"), "0123456789");
        Files.createDirectories(home.resolve("sessions/nested"));
        StatusReport after = new StatusEngine(StewardPaths.of(home)).status();
        DiskUsage d = after.disk();
        assertTrue(d.freelist_bytes() >= 400_000, d.toString());
        assertEquals(d.freelist_pages() * d.page_size(), d.freelist_bytes());
        assertEquals(Files.size(db), d.db_bytes());
        assertEquals(2, d.side_files(), "regular files directly under sessions/ only");
        assertEquals(18, d.side_file_bytes());
        assertEquals(1, d.request_dumps());
        assertEquals(10, d.request_dump_bytes());
        assertFalse(Files.exists(home.resolve("steward")), "status must not create the state dir");
    }

    @Test
    void noDiskFiguresWithoutAStateDb() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.delete(home.resolve("state.db"));
        assertEquals(null, new StatusEngine(StewardPaths.of(home)).status().disk());
    }

    /** steward_status showed config.yaml's setting only: approval turned on in settings.json was reported as off. */
    @Test
    void writeApprovalIsTheOneMemoryWriteApplies() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StewardPaths paths = StewardPaths.of(home);
        Files.writeString(paths.configYaml(), "memory:\n  write_approval: false\n");
        var c = new StatusEngine(paths).status().config();
        assertEquals(false, c.write_approval());
        assertEquals("default", c.write_approval_origin());
        Files.createDirectories(paths.stateDir());
        Path settings = paths.stateDir().resolve("settings.json");
        Files.writeString(settings, "{\"memory\": {\"write_approval\": true}}");
        c = new StatusEngine(paths).status().config();
        assertEquals(true, c.write_approval());
        assertEquals("steward_settings", c.write_approval_origin());
        Files.writeString(settings, "{\"memory\": {\"write_appr"); // memory_write refuses: status says approval on
        c = new StatusEngine(paths).status().config();
        assertEquals(true, c.write_approval());
        assertEquals("unreadable", c.write_approval_origin());
        Files.delete(settings);
        Files.writeString(paths.configYaml(), "memory: [\n");
        c = new StatusEngine(paths).status().config();
        assertEquals(true, c.write_approval());
        assertEquals("unreadable", c.write_approval_origin());
        Files.writeString(paths.configYaml(), "memory:\n  write_approval: yes\n");
        c = new StatusEngine(paths).status().config();
        assertEquals(true, c.write_approval());
        assertEquals("config_file", c.write_approval_origin());
    }
}
