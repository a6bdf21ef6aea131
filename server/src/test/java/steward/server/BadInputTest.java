package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.server.tools.ToolResult;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/** Bad input gets a clear isError result ("context: cause") and writes nothing. */
class BadInputTest {
    @TempDir
    Path tmp;

    private ToolResult status(Path home, String args) {
        return Tools.registry().invoke("steward_status", Json.MAPPER.readTree(args), TestSupport.context(home));
    }

    @Test
    void unknownTool() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Map<String, Integer> before = TestSupport.snapshotTree(home);
        ToolResult r =
                Tools.registry().invoke("session_nuke", Json.MAPPER.createObjectNode(), TestSupport.context(home));
        assertTrue(r.isError());
        assertTrue(r.text().startsWith("session_nuke: unknown tool"), r.text());
        assertEquals(before, TestSupport.snapshotTree(home));
    }

    @Test
    void argumentsThatViolateTheInputSchema() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        ToolResult r = status(home, "{\"surprise\": 1}");
        assertTrue(r.isError());
        assertTrue(r.text().startsWith("steward_status: invalid arguments:"), r.text());
        assertTrue(r.text().contains("surprise"), r.text());
        ToolResult notObject =
                Tools.registry().invoke("steward_status", Json.MAPPER.readTree("[1,2]"), TestSupport.context(home));
        assertTrue(notObject.isError());
    }

    /** A blank session_id would share one cooldown among every caller that sends it: refused, nothing written. */
    @Test
    void aBlankSessionIdIsRefusedByRecallInject() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Map<String, Integer> before = TestSupport.snapshotTree(home);
        for (String id : new String[] {"", " ", "\t"}) {
            ToolResult r = Tools.registry()
                    .invoke(
                            "recall_inject",
                            Json.MAPPER
                                    .createObjectNode()
                                    .put("context", "what did we decide about docker?")
                                    .put("session_id", id)
                                    .put("mode", "active"),
                            TestSupport.context(home));
            assertTrue(r.isError(), "'" + id + "': " + r.text());
            assertTrue(r.text().startsWith("recall_inject: session_id is blank"), r.text());
        }
        assertEquals(before, TestSupport.snapshotTree(home));
    }

    /**
     * A time ISO-8601 can write but epoch milliseconds cannot hold (years ±999,999,999) is refused as bad input, in every
     * tool that takes one, and nothing is written; it escaped the tools as an ArithmeticException ("internal error").
     */
    @Test
    void timesBeyondWhatEpochMillisecondsHoldAreRefused() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Map<String, Integer> before = TestSupport.snapshotTree(home);
        for (String t : new String[] {"+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z"}) {
            Map<String, String> calls = Map.of(
                    "recall_search", "{\"query\":\"docker\",\"since\":\"" + t + "\"}",
                    "session_precheck", "{\"request\":\"docker build cache\",\"now\":\"" + t + "\"}",
                    "session_audit", "{\"now\":\"" + t + "\"}");
            for (Map.Entry<String, String> c : calls.entrySet()) {
                ToolResult r = Tools.registry()
                        .invoke(c.getKey(), Json.MAPPER.readTree(c.getValue()), TestSupport.context(home));
                assertTrue(r.isError(), c + " → " + r.text());
                assertTrue(r.text().startsWith(c.getKey() + ": "), r.text());
                assertTrue(!r.text().contains("internal error") && r.text().contains(t), r.text());
            }
            ToolResult until = Tools.registry()
                    .invoke(
                            "recall_search",
                            Json.MAPPER.readTree("{\"query\":\"docker\",\"until\":\"" + t + "\"}"),
                            TestSupport.context(home));
            assertTrue(until.isError() && !until.text().contains("internal error"), until.text());
        }
        assertEquals(before, TestSupport.snapshotTree(home));
    }

    @Test
    void hermesHomeThatDoesNotExist() {
        Path missing = tmp.resolve("no-such-home");
        ToolResult r = status(missing, "{}");
        assertTrue(r.isError());
        assertTrue(r.text().startsWith("steward_status: hermes home: "), r.text());
        assertTrue(!Files.exists(missing), "nothing created");
    }

    @Test
    void stateDbThatIsNotSqlite() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.writeString(
                home.resolve("state.db"), "SQLite format 2? no: plain text that is not a database\n".repeat(100));
        Map<String, Integer> before = TestSupport.snapshotTree(home);
        ToolResult r = status(home, "{}");
        assertTrue(r.isError());
        assertTrue(r.text().startsWith("steward_status: state.db: "), r.text());
        assertEquals(before, TestSupport.snapshotTree(home));
    }

    @Test
    void stateDbThatIsEmpty() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.write(home.resolve("state.db"), new byte[0]);
        Map<String, Integer> before = TestSupport.snapshotTree(home);
        ToolResult r = status(home, "{}");
        assertTrue(r.isError());
        assertTrue(r.text().contains("empty"), r.text());
        assertEquals(before, TestSupport.snapshotTree(home));
    }

    /** A state.db that is a directory is named as such: it was reported as "no such file". */
    @Test
    void stateDbThatIsADirectory() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.delete(home.resolve("state.db"));
        Files.createDirectory(home.resolve("state.db"));
        Map<String, Integer> before = TestSupport.snapshotTree(home);
        for (String tool : new String[] {"steward_status", "session_precheck"}) {
            ToolResult r = Tools.registry()
                    .invoke(
                            tool,
                            Json.MAPPER.readTree(tool.equals("steward_status") ? "{}" : "{\"request\":\"docker\"}"),
                            TestSupport.context(home));
            assertTrue(r.isError(), r.text());
            assertTrue(r.text().contains("is a directory, not a file"), r.text());
            assertTrue(!r.text().contains("no such file"), r.text());
        }
        assertEquals(before, TestSupport.snapshotTree(home));
    }

    @Test
    void stateDbWithSchemaVersion99() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        try (Connection c = Sqlite.openReadWrite(home.resolve("state.db"));
                Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE schema_version SET version = 99");
        }
        Map<String, Integer> before = TestSupport.snapshotTree(home);
        ToolResult r = status(home, "{}");
        assertTrue(r.isError());
        assertTrue(r.text().contains("schema version 99 is newer than Steward supports"), r.text());
        assertEquals(before, TestSupport.snapshotTree(home));
    }

    @Test
    void memoryFileThatIsNotUtf8() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.write(
                home.resolve("memories/USER.md"), new byte[] {'N', 'a', 'm', 'e', ':', ' ', (byte) 0xc3, (byte) 0x28});
        Map<String, Integer> before = TestSupport.snapshotTree(home);
        ToolResult r = status(home, "{}");
        assertTrue(r.isError());
        assertTrue(r.text().contains("USER.md: not valid UTF-8"), r.text());
        assertEquals(before, TestSupport.snapshotTree(home));
    }
}
