package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.ToolRegistry;
import steward.server.Tools;

/**
 * Defects 6 and 7 of issue 12: a mistyped home is refused, naming the path and where it came from, and creates
 * nothing; a call that fails changes nothing, directories included.
 */
class BadHomeTest {
    @TempDir
    Path tmp;

    final ToolRegistry registry = Tools.registry();

    ToolResult call(StewardPaths paths, String tool, String json) {
        return registry.invoke(
                tool,
                Json.MAPPER.readTree(json),
                new ToolContext(paths, Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC), Work.NONE));
    }

    @Test
    void aHomeThatDoesNotExistIsRefusedAndNothingIsCreated() {
        Path missing = tmp.resolve("typo-hermes");
        StewardPaths viaFlag = StewardPaths.resolve(missing.toString(), null, Map.of());
        StewardPaths viaEnv = StewardPaths.resolve(null, null, Map.of("HERMES_HOME", missing.toString()));
        for (String[] c : List.of(
                new String[] {"memory_write", "{\"action\":\"add\",\"content\":\"Prefers tabs\"}"},
                new String[] {"recall_search", "{\"query\":\"tabs\"}"},
                new String[] {"session_audit", "{}"},
                new String[] {"memory_pending", "{}"},
                new String[] {"recall_inject", "{\"context\":\"hello\"}"},
                new String[] {"session_preferences", "{}"})) {
            ToolResult r = call(viaFlag, c[0], c[1]);
            assertTrue(r.isError(), c[0]);
            assertTrue(
                    r.text()
                            .startsWith(c[0] + ": Hermes home " + missing
                                    + " does not exist (from --hermes-home); nothing was created"),
                    r.text());
            ToolResult e = call(viaEnv, c[0], c[1]);
            assertTrue(e.text().contains("(from $HERMES_HOME)"), e.text());
            assertFalse(Files.exists(missing), c[0] + " created the home");
        }
        ToolResult status = call(viaFlag, "steward_status", "{}");
        assertTrue(status.isError() && status.text().contains(missing.toString()), status.text());
        assertFalse(Files.exists(missing));
    }

    @Test
    void memoriesDirInsideAnExistingHomeIsCreatedAsHermesWould() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("fresh-home"));
        ToolResult r = call(StewardPaths.of(home), "memory_write", "{\"action\":\"add\",\"content\":\"Prefers tabs\"}");
        assertFalse(r.isError(), r.text());
        assertEquals("Prefers tabs", Files.readString(home.resolve("memories/MEMORY.md")));
    }

    @Test
    void aRefusedPendingDecisionCreatesNoDirectoryAndNoLockFile() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        StewardPaths paths = StewardPaths.of(home);
        for (String args : List.of(
                "{\"action\":\"reject\",\"pending_id\":\"zz\"}",
                "{\"action\":\"reject\",\"pending_id\":\"0badf00d\"}",
                "{\"action\":\"approve\",\"pending_id\":\"0badf00d\"}",
                "{\"action\":\"approve\"}")) {
            ToolResult r = call(paths, "memory_pending", args);
            assertTrue(r.isError(), args);
            try (var s = Files.list(home)) {
                assertEquals(List.of(), s.toList(), args + " left files behind");
            }
        }
    }

    @Test
    void operationsItemsWithExtraKeysAreAcceptedAsHermesIgnoresThem() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        var r = t.ok(
                "memory_write",
                "{\"target\":\"memory\",\"operations\":[{\"action\":\"add\",\"content\":\"Deploys on Fridays never\","
                        + "\"note\":\"from the retro\",\"priority\":2}]}");
        assertTrue(r.get("success").asBoolean(), r.toString());
        assertTrue(Files.readString(t.home.resolve("memories/MEMORY.md")).contains("Deploys on Fridays never"));
    }
}
