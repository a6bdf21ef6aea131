package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class SessionPreferencesToolTest {
    @TempDir
    Path tmp;

    @Test
    void showSetAndTrustValidate() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode empty = t.ok("session_preferences", "{}");
        assertEquals("absent", empty.get("status").asString());
        String plan = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}")
                .get("plan_id")
                .asString();
        t.ok("session_apply", "{\"plan_id\":\"" + plan + "\",\"decisions\":{\"rules\":{\"B\":\"approve\"}}}");
        JsonNode shown = t.ok("session_preferences", "{\"action\":\"show\"}");
        assertEquals(1, shown.get("run_count").asInt());
        JsonNode set = t.ok("session_preferences", "{\"action\":\"set_threshold\",\"value\":5}");
        assertEquals(5.0, set.get("active_threshold").asDouble());
        assertEquals(5, t.ok("session_audit", "{}").get("threshold").asInt(), "the audit uses the learned N");
        assertTrue(t.call("session_preferences", "{\"action\":\"set_threshold\",\"value\":9}")
                .isError());
        assertTrue(t.call("session_preferences", "{\"action\":\"trust\",\"rule\":\"Z\"}")
                .isError());
        assertTrue(
                t.call("session_preferences", "{\"action\":\"trust\",\"rule\":\"B; DROP\"}")
                        .isError(),
                "schema pattern");
    }

    @Test
    void corruptStoreIsAnErrorAndUntouched() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path f = t.ctx.paths().stateDir().resolve("preferences.json");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "not json");
        ToolResult r = t.call("session_preferences", "{}");
        assertTrue(r.isError() && r.text().contains("left untouched"), r.text());
        assertTrue(t.call("session_preferences", "{\"action\":\"set_threshold\",\"value\":4}")
                .isError());
        assertEquals("not json", Files.readString(f));
        JsonNode pre = t.ok("session_precheck", "{\"request\":\"Claude Code hooks\"}");
        assertTrue(pre.get("match_count").asInt() > 0);
        assertTrue(
                t.call("session_precheck", "{\"request\":\"Claude Code hooks\",\"choice\":\"new\"}")
                        .isError(),
                "recording a choice into a corrupt store is refused");
    }

    @Test
    void precheckRecordsTheUsersChoice() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode r = t.ok(
                "session_precheck",
                "{\"request\":\"Claude Code hooks\",\"choice\":\"continue\",\"session_id\":\"20260806_111700_139329\"}");
        assertTrue(r.get("recorded").asString().contains("continue"), r.toString());
        assertEquals(
                1, t.ok("session_preferences", "{}").get("precheck_choices").asInt());
    }
}
