package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.ClaudeTestHomes;
import tools.jackson.databind.JsonNode;

/** memory_precheck and memory_write on Claude Code's memory, through the registry: results validate, CLAUDE.md needs confirm. */
class ClaudeMemoryToolsTest {
    @TempDir
    Path tmp;

    ToolTestSupport t;
    Path claude;
    Path project;

    @BeforeEach
    void setUp() throws Exception {
        t = new ToolTestSupport(tmp, true);
        claude = t.ctx.paths().claudeHome();
        project = ClaudeTestHomes.memoryProject(claude);
    }

    String args(String json) {
        return json.replace("}", ",\"project\":\"" + project + "\"}");
    }

    @Test
    void precheckAgainstClaudeMdAndAutoMemory() throws Exception {
        Map<String, String> before = ClaudeTestHomes.tree(claude);
        JsonNode covered = t.ok(
                "memory_precheck",
                args(
                        "{\"target\":\"claude\",\"content\":\"Use pnpm for every install; npm rewrites pnpm-lock.yaml\"}"));
        assertEquals("already_covered", covered.get("verdict").asString());
        assertEquals(
                "auto_memory", covered.get("candidates").get(0).get("source").asString());
        assertEquals(5, covered.get("claude").get("index_lines").asInt());
        JsonNode rule = t.ok(
                "memory_precheck",
                args("{\"target\":\"claude\",\"content\":\"The team must squash every pull request\"}"));
        assertEquals("route_claude_md", rule.get("verdict").asString());
        ToolResult text = t.call(
                "memory_precheck", args("{\"target\":\"claude\",\"content\":\"The CDN caches /static for one hour\"}"));
        assertTrue(
                text.text().contains("memory/MEMORY.md after the write: 6 lines (Claude Code loads the first 200)"),
                text.text());
        assertEquals(before, ClaudeTestHomes.tree(claude));
        assertTrue(
                t.call("memory_precheck", "{\"target\":\"claude\",\"content\":\"x y z\",\"project\":\"relative/dir\"}")
                        .isError());
        assertTrue(
                t.call("memory_precheck", "{\"content\":\"x y z\",\"project\":\"/tmp\"}")
                        .isError(),
                "project is for target claude only");
    }

    /** Content memory_write refuses (half of a character) is refused by its precheck too, for target claude. */
    @Test
    void precheckRefusesALoneSurrogateAsMemoryWriteDoes() throws Exception {
        Map<String, String> before = ClaudeTestHomes.tree(claude);
        String content = "\"The CDN caches /static \\ud83d\"";
        ToolResult write = t.call(
                "memory_write",
                args("{\"target\":\"claude\",\"action\":\"add\",\"content\":" + content
                        + ",\"name\":\"CDN\",\"type\":\"reference\"}"));
        assertTrue(write.isError(), write.text());
        ToolResult pre = t.call("memory_precheck", args("{\"target\":\"claude\",\"content\":" + content + "}"));
        assertTrue(pre.isError(), "precheck says " + pre.text() + " where memory_write says " + write.text());
        assertTrue(pre.text().startsWith("memory_precheck: ") && pre.text().contains("U+D83D"), pre.text());
        assertEquals(before, ClaudeTestHomes.tree(claude));
    }

    @Test
    void writeAutoMemoryAndClaudeMdWithConfirm() throws Exception {
        JsonNode added = t.ok(
                "memory_write",
                args("{\"target\":\"claude\",\"action\":\"add\",\"content\":\"The CDN caches /static for one hour.\","
                        + "\"name\":\"CDN cache\",\"type\":\"reference\"}"));
        assertEquals("success", added.get("kind").asString());
        assertEquals(
                "memory/cdn-cache.md", added.get("claude").get("topic_file").asString());
        assertEquals(6, added.get("claude").get("index_lines").asInt());

        Path md = project.resolve("CLAUDE.md");
        byte[] before = Files.readAllBytes(md);
        String call =
                args("{\"target\":\"claude_md\",\"action\":\"add\",\"content\":\"Run pnpm lint before pushing.\"}");
        ToolResult preview = t.call("memory_write", call);
        assertFalse(preview.isError(), preview.text());
        assertTrue(preview.text().contains("+- Run pnpm lint before pushing."), preview.text());
        JsonNode p = t.ok("memory_write", call);
        assertEquals("needs_confirm", p.get("kind").asString());
        assertArrayEquals(before, Files.readAllBytes(md));
        String token = p.get("claude").get("confirm_token").asString();
        JsonNode done = t.ok("memory_write", call.replace("}", ",\"confirm\":\"" + token + "\"}"));
        assertEquals("success", done.get("kind").asString());
        assertTrue(Files.readString(md).endsWith("- Run pnpm lint before pushing.\n"));
    }

    @Test
    void statusReportsEachMemoryFileAgainstWhatClaudeCodeLoads() {
        JsonNode status = t.ok("steward_status", "{}");
        JsonNode m = status.get("claude").get("memory");
        assertEquals(200, m.get("index_window").asInt());
        assertEquals(2, m.get("indexes").asInt());
        ToolResult text = t.call("steward_status", "{}");
        assertTrue(
                text.text().contains("  memory:    2 MEMORY.md, 4 topics; -home-dev-api 205/200 lines (5 not loaded)"),
                text.text());
    }

    @Test
    void badInputIsAClearErrorAndTheHermesTargetsRefuseClaudeArguments() throws Exception {
        Map<String, String> before = ClaudeTestHomes.tree(claude);
        byte[] hermes = Files.readAllBytes(t.home.resolve("memories/MEMORY.md"));
        assertTrue(t.call(
                        "memory_write",
                        args("{\"target\":\"claude\",\"action\":\"add\",\"content\":\"x\",\"type\":\"diary\"}"))
                .isError());
        assertTrue(t.call(
                        "memory_write",
                        args("{\"target\":\"claude\",\"action\":\"add\",\"content\":\"x\",\"confirm\":\"abc\"}"))
                .isError());
        assertTrue(t.call(
                        "memory_write",
                        args("{\"target\":\"claude\",\"action\":\"remove\",\"old_text\":\"nothing like this\"}"))
                .isError());
        assertTrue(t.call("memory_write", "{\"action\":\"add\",\"content\":\"[env] x\",\"name\":\"n\"}")
                .isError());
        assertEquals(before, ClaudeTestHomes.tree(claude));
        assertArrayEquals(hermes, Files.readAllBytes(t.home.resolve("memories/MEMORY.md")));
    }

    /** A project path no file system can hold (a NUL character) is bad input: it escaped as InvalidPathException. */
    @Test
    void aProjectPathWithANulCharacterIsRefusedInPlainWords() throws Exception {
        Map<String, String> before = ClaudeTestHomes.tree(claude);
        for (String call : List.of(
                "{\"target\":\"claude\",\"content\":\"Use pnpm\",\"project\":\"/tmp/a\\u0000b\"}",
                "{\"target\":\"claude\",\"action\":\"add\",\"content\":\"Use pnpm\",\"name\":\"pnpm\","
                        + "\"type\":\"feedback\",\"project\":\"/tmp/a\\u0000b\"}")) {
            String tool = call.contains("\"action\"") ? "memory_write" : "memory_precheck";
            ToolResult r = t.call(tool, call);
            assertTrue(r.isError(), r.text());
            assertTrue(r.text().startsWith(tool + ": project "), r.text());
            assertFalse(r.text().contains("internal error") || r.text().contains("Exception"), r.text());
        }
        assertEquals(before, ClaudeTestHomes.tree(claude));
    }
}
