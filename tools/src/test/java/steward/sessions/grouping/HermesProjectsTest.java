package steward.sessions.grouping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.sessions.store.Sqlite;

/** Hermes Desktop's projects.db (projects + project_folders), read from a real SQLite file. */
class HermesProjectsTest {
    @TempDir
    Path home;

    void projectsDb(String... sql) throws Exception {
        try (Connection c = Sqlite.openOwned(home.resolve("projects.db"));
                Statement st = c.createStatement()) {
            for (String s : sql) st.execute(s);
        }
    }

    @Test
    void projectsWithFoldersMatchTheLongestPrefixAndArchivedOnesAreLeftOut() throws Exception {
        projectsDb(
                "CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL, archived_at TEXT)",
                "CREATE TABLE project_folders (id TEXT PRIMARY KEY, project_id INTEGER NOT NULL, folder_path TEXT NOT NULL, archived_at TEXT)",
                "INSERT INTO projects VALUES (1, 'Src', NULL), (2, 'Billing', NULL), (3, 'Old', '2026-01-01'), (4, 'Empty', NULL)",
                "INSERT INTO project_folders VALUES ('a', 1, '/home/u/src', NULL), ('b', 2, '/home/u/src/billing', NULL), "
                        + "('c', 3, '/home/u/src/billing/old', NULL), ('d', 2, '/home/u/src/billing2', '2026-02-02')");
        HermesProjects p = HermesProjects.read(home);
        assertEquals("projects.db", p.source());
        assertNull(p.warning());
        assertEquals(
                List.of(
                        new HermesProjects.Project("1", "Src", List.of("/home/u/src")),
                        new HermesProjects.Project("2", "Billing", List.of("/home/u/src/billing")),
                        new HermesProjects.Project("4", "Empty", List.of())),
                p.projects());
        assertEquals("Billing", p.match("/home/u/src/billing/tests").name(), "longest prefix wins");
        assertEquals("Billing", p.match("/home/u/src/billing/old").name(), "the archived project gathers nothing");
        assertEquals(
                "Src",
                p.match("/home/u/src/billing2").name(),
                "segments, not string prefixes; archived folder ignored");
        assertNull(p.match("/home/u"));
        assertNull(p.match(null));
        assertEquals("Src", p.match("\\home\\u\\src\\x").name(), "backslashes compare like slashes");
    }

    @Test
    void absentUnreadableOrForeignFilesMeanNoProjects() throws Exception {
        assertEquals(HermesProjects.NONE, HermesProjects.read(home));
        Files.writeString(
                home.resolve("projects.db"), "not sqlite at all, just text that is long enough to be read as a header");
        HermesProjects bad = HermesProjects.read(home);
        assertEquals(List.of(), bad.projects());
        assertTrue(
                bad.warning() != null && bad.warning().startsWith("cannot read Hermes projects"),
                String.valueOf(bad.warning()));
        Files.delete(home.resolve("projects.db"));
        projectsDb("CREATE TABLE other (x)");
        assertEquals(HermesProjects.NONE, HermesProjects.read(home), "a projects.db without a projects table");
    }
}
