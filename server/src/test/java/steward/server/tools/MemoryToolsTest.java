package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.Schemas;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.resources.MemoryResources;
import steward.state.FileTrees;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The memory tools through the registry: real results validate against their output schemas; failures are isError with Hermes' record. */
class MemoryToolsTest {
    @TempDir
    Path tmp;

    ToolRegistry registry;
    ToolContext ctx;
    Path mem;

    @BeforeEach
    void setUp() throws Exception {
        FileTrees.copy(TestHomes.fixtureHome(), tmp);
        registry = Tools.registry();
        ctx = new ToolContext(
                StewardPaths.of(tmp), Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC), Work.NONE);
        mem = tmp.resolve("memories/MEMORY.md");
    }

    ToolResult call(String tool, String json) {
        return registry.invoke(tool, Json.MAPPER.readTree(json), ctx);
    }

    JsonNode valid(String tool, ToolResult r) {
        JsonNode n = ToolRegistry.toJson(r.structured());
        assertEquals(List.of(), Schemas.validate(tool + ".output.json", n), n.toString());
        return n;
    }

    @Test
    void registeredInOrderAfterStewardStatus() {
        List<String> names = registry.tools().stream().map(StewardTool::name).toList();
        assertEquals("steward_status", names.get(0));
        assertEquals(
                List.of(
                        "memory_write",
                        "memory_precheck",
                        "memory_pending",
                        "memory_log",
                        "memory_health",
                        "memory_consolidate",
                        "memory_history"),
                names.stream().filter(n -> n.startsWith("memory_")).toList());
    }

    @Test
    void successIsHermesShapedAndValid() {
        ToolResult r = call("memory_write", "{\"action\":\"add\",\"content\":\"[env] Node 22 via fnm\"}");
        assertFalse(r.isError());
        JsonNode n = valid("memory_write", r);
        assertEquals("Entry added.", n.get("message").asString());
        assertTrue(
                r.text().startsWith("{\"success\": true, \"done\": true, \"target\": \"memory\", \"usage\": \""),
                r.text());
    }

    @Test
    void operationsMayArriveAsAJsonStringAndAnythingElseIsAClearErrorThatChangesNothing() throws Exception {
        byte[] before = Files.readAllBytes(mem);
        ToolResult broken =
                call("memory_write", "{\"target\":\"memory\",\"operations\":\"[{\\\"action\\\": \\\"add\\\", \"}");
        assertTrue(broken.isError());
        assertTrue(broken.text().startsWith("memory_write: operations is not valid JSON"), broken.text());
        ToolResult notArray = call("memory_write", "{\"operations\":\"{\\\"action\\\":\\\"add\\\"}\"}");
        assertTrue(notArray.text().startsWith("memory_write: operations must be an array"), notArray.text());
        ToolResult notString =
                call("memory_write", "{\"operations\":\"[{\\\"action\\\":\\\"add\\\",\\\"content\\\":7}]\"}");
        assertEquals("memory_write: content must be a string", notString.text());
        assertArrayEquals(before, Files.readAllBytes(mem));
        ToolResult ok = call(
                "memory_write",
                "{\"operations\":\"[{\\\"action\\\":\\\"add\\\",\\\"content\\\":\\\"[env] a\\\"},"
                        + "{\\\"action\\\":\\\"add\\\",\\\"content\\\":\\\"[env] b\\\"}]\"}");
        assertFalse(ok.isError(), ok.text());
        String after = Files.readString(mem);
        assertTrue(
                after.endsWith("[env] a\n§\n[env] b"),
                "a JSON string holding the array is applied as the batch: " + after);
    }

    @Test
    void failuresAreIsErrorAndStillCarryHermesRecord() throws Exception {
        byte[] before = Files.readAllBytes(mem);
        ToolResult noMatch = call("memory_write", "{\"action\":\"remove\",\"old_text\":\"no such entry\"}");
        assertTrue(noMatch.isError());
        JsonNode n = valid("memory_write", noMatch);
        assertEquals("no_match", n.get("kind").asString());
        assertEquals(7, n.get("current_entries").size());
        assertTrue(noMatch.text().startsWith("memory_write: No entry matched 'no such entry'."));

        ToolResult target = call("memory_write", "{\"action\":\"add\",\"target\":\"profile\",\"content\":\"x\"}");
        assertTrue(target.isError());
        assertEquals(
                "Invalid target 'profile'. Use 'memory' or 'user'.",
                valid("memory_write", target).get("error").asString());

        ToolResult empty = call("memory_write", "{\"action\":\"add\",\"content\":\"\"}");
        assertTrue(empty.isError());
        valid("memory_write", empty);

        ToolResult badOps = call("memory_write", "{\"operations\":\"[{not json\"}");
        assertTrue(badOps.isError());
        assertTrue(badOps.text().startsWith("memory_write: operations is not valid JSON"), badOps.text());
        assertNull(badOps.structured());

        ToolResult extra = call("memory_write", "{\"action\":\"add\",\"content\":\"x\",\"bogus\":1}");
        assertTrue(extra.isError());

        ToolResult over = call("memory_write", "{\"action\":\"add\",\"content\":\"" + "x".repeat(3000) + "\"}");
        assertTrue(over.isError());
        JsonNode o = valid("memory_write", over);
        assertEquals("compress", o.get("overflow").get("step").asString());
        assertArrayEquals(before, Files.readAllBytes(mem), "no failure changed the file");
    }

    /**
     * Strict function-calling clients send JSON null for every optional field they leave out; Hermes' memory tool takes a
     * null target, content, old_text or operations (and an operation's null fields) as absent. memory_write refused the
     * whole call ("invalid arguments: /old_text: null found, string expected"), so such a client could never write.
     */
    @Test
    void nullArgumentsAreTakenAsLeftOutAsHermesTakesThem() throws Exception {
        ToolResult add = call(
                "memory_write",
                "{\"target\":null,\"action\":\"add\",\"content\":\"[env] Node 22 via fnm\",\"old_text\":null,"
                        + "\"operations\":null,\"confirm_whole_file\":null}");
        assertFalse(add.isError(), add.text());
        assertEquals("Entry added.", valid("memory_write", add).get("message").asString());
        ToolResult batch = call(
                "memory_write",
                "{\"target\":\"memory\",\"action\":null,\"operations\":[{\"action\":\"add\",\"content\":\"[env] uv for Python\","
                        + "\"old_text\":null},{\"action\":\"remove\",\"content\":null,\"old_text\":\"Node 22\"}]}");
        assertFalse(batch.isError(), batch.text());
        String after = Files.readString(mem);
        assertTrue(after.endsWith("\n§\n[env] uv for Python") && !after.contains("Node 22"), after);
        byte[] before = Files.readAllBytes(mem);
        ToolResult noContent = call("memory_write", "{\"action\":\"add\",\"content\":null}");
        assertTrue(noContent.isError());
        assertEquals(
                "Content is required for 'add' action.",
                valid("memory_write", noContent).get("error").asString());
        assertArrayEquals(before, Files.readAllBytes(mem));
    }

    @Test
    void precheckResultsValidate() {
        ToolResult r = call("memory_precheck", "{\"content\":\"[env] The NAS is reachable as nas.local\"}");
        assertFalse(r.isError());
        JsonNode n = valid("memory_precheck", r);
        assertFalse(n.get("is_final").asBoolean());
        ToolResult second = call(
                "memory_precheck",
                "{\"content\":\"[env] The NAS is reachable as nas.local\",\"answers\":{\"frequency\":\"high\",\"consequence\":\"severe\"}}");
        assertEquals("write", valid("memory_precheck", second).get("verdict").asString());
        ToolResult bad = call("memory_precheck", "{\"content\":\"   \"}");
        assertTrue(bad.isError());
        assertTrue(call("memory_precheck", "{\"content\":\"x\",\"answers\":{\"frequency\":\"sometimes\"}}")
                .isError());
    }

    /** Content memory_write refuses (half of a character: it cannot be written as UTF-8) is refused by its precheck too. */
    @Test
    void precheckRefusesALoneSurrogateAsMemoryWriteDoes() throws Exception {
        byte[] before = Files.readAllBytes(mem);
        for (String target : List.of("memory", "user")) {
            String content = "\"The NAS is nas.local \\ud83d\"";
            ToolResult write = call(
                    "memory_write", "{\"action\":\"add\",\"target\":\"" + target + "\",\"content\":" + content + "}");
            assertTrue(write.isError(), write.text());
            ToolResult pre = call("memory_precheck", "{\"target\":\"" + target + "\",\"content\":" + content + "}");
            assertTrue(pre.isError(), "precheck says " + pre.text() + " where memory_write says " + write.text());
            assertTrue(pre.text().startsWith("memory_precheck: ") && pre.text().contains("U+D83D"), pre.text());
        }
        assertArrayEquals(before, Files.readAllBytes(mem));
    }

    @Test
    void stagedWriteListedApprovedThroughMemoryPending() throws Exception {
        Files.writeString(tmp.resolve("config.yaml"), "memory:\n  write_approval: true\n");
        ToolResult staged = call("memory_write", "{\"action\":\"add\",\"content\":\"[env] Node 22 via fnm\"}");
        JsonNode s = valid("memory_write", staged);
        String id = s.get("pending_id").asString();
        JsonNode list = valid("memory_pending", call("memory_pending", "{}"));
        assertEquals(1, list.get("count").asInt());
        assertEquals(id, list.get("pending").get(0).get("pending_id").asString());
        ToolResult ok = call("memory_pending", "{\"action\":\"approve\",\"pending_id\":\"" + id + "\"}");
        assertFalse(ok.isError(), ok.text());
        assertTrue(valid("memory_pending", ok).get("applied").asBoolean());
        assertTrue(Files.readString(mem).endsWith("\n§\n[env] Node 22 via fnm"));
        assertTrue(
                call("memory_pending", "{\"action\":\"approve\",\"pending_id\":\"" + id + "\"}")
                        .isError(),
                "single use");
        assertTrue(call("memory_pending", "{\"action\":\"reject\"}").isError());
    }

    /**
     * A staged file Steward cannot use (not JSON, JSON null, no request, no time: damaged, or another writer's format) is
     * named in the list, never hidden, and refused by approve and reject without writing anything; a usable one is listed
     * under its file's id. They were skipped silently, or made list, approve and reject fail with an internal error or
     * a result the output schema refuses.
     */
    @Test
    void stagedFilesStewardCannotUseAreNamedAndRefusedWithoutWriting() throws Exception {
        Files.writeString(tmp.resolve("config.yaml"), "memory:\n  write_approval: true\n");
        String id = valid(
                        "memory_write",
                        call("memory_write", "{\"action\":\"add\",\"content\":\"[env] Node 22 via fnm\"}"))
                .get("pending_id")
                .asString();
        Path dir = tmp.resolve("pending/memory");
        String good = Files.readString(dir.resolve(id + ".json"));
        JsonNode g = Json.MAPPER.readTree(good);
        Files.writeString(dir.resolve("0000000a.json"), "null");
        Files.writeString(dir.resolve("0000000b.json"), "{}");
        Files.writeString(
                dir.resolve("0000000c.json"),
                ((tools.jackson.databind.node.ObjectNode) g.deepCopy())
                        .putNull("request")
                        .toString());
        Files.writeString(dir.resolve("0000000e.json"), "not json");
        Files.writeString(dir.resolve("0000000f.json"), "{\"id\":\"0000000f\",\"payload\":{\"action\":\"add\"}}");
        Files.writeString(
                dir.resolve("0000000d.json"),
                ((tools.jackson.databind.node.ObjectNode) g.deepCopy())
                        .put("pending_id", "ffffffff")
                        .toString());

        ToolResult listed = call("memory_pending", "{}");
        assertFalse(listed.isError(), listed.text());
        JsonNode list = valid("memory_pending", listed);
        assertEquals(2, list.get("count").asInt(), list.toString());
        List<String> ids = new java.util.ArrayList<>();
        for (JsonNode p : list.get("pending")) ids.add(p.get("pending_id").asString());
        assertEquals(
                List.of("0000000d", id).stream().sorted().toList(),
                ids.stream().sorted().toList());
        assertEquals(5, list.get("unreadable").size(), list.toString());
        for (String bad : List.of("0000000a", "0000000b", "0000000c", "0000000e", "0000000f")) {
            assertTrue(list.get("unreadable").toString().contains(bad + ".json"), list.toString());
            assertTrue(listed.text().contains(bad + ".json"), listed.text());
            var before = steward.server.TestSupport.snapshotTree(tmp);
            for (String action : List.of("approve", "reject")) {
                ToolResult r = call("memory_pending", "{\"action\":\"" + action + "\",\"pending_id\":\"" + bad + "\"}");
                assertTrue(r.isError(), action + " " + bad + ": " + r.text());
                assertTrue(r.text().startsWith("memory_pending: ") && !r.text().contains("internal error"), r.text());
                assertFalse(r.text().matches("(?s).*(Exception|steward\\.memory|`).*"), "plain words: " + r.text());
            }
            assertEquals(before, steward.server.TestSupport.snapshotTree(tmp), bad + ": nothing written");
        }
        ToolResult ok = call("memory_pending", "{\"action\":\"approve\",\"pending_id\":\"0000000d\"}");
        assertFalse(ok.isError(), ok.text());
    }

    @Test
    void resourcesRenderTheSystemPromptBlocks() {
        var specs = MemoryResources.specifications(ctx);
        assertEquals(2, specs.size());
        var memSpec = specs.get(0);
        assertEquals("steward://memory/MEMORY.md", memSpec.resource().uri());
        McpSchema.ReadResourceResult res = memSpec.readHandler()
                .apply(
                        null,
                        McpSchema.ReadResourceRequest.builder(memSpec.resource().uri())
                                .build());
        String text = ((McpSchema.TextResourceContents) res.contents().get(0)).text();
        assertTrue(text.startsWith("═".repeat(46) + "\nMEMORY (your personal notes) ["), text);
        assertTrue(text.endsWith("see scope-recall-maintenance"));
        var userRes = specs.get(1)
                .readHandler()
                .apply(
                        null,
                        McpSchema.ReadResourceRequest.builder(
                                        specs.get(1).resource().uri())
                                .build());
        assertTrue(((McpSchema.TextResourceContents) userRes.contents().get(0))
                .text()
                .contains("USER PROFILE (who the user is) [4% — 59/1,375 chars]"));
    }
}
