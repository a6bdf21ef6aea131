package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The session tools on both homes, through the registry: results validate, store selects a home, the round trip restores every byte. */
class ClaudeSessionToolsTest {
    @TempDir
    Path tmp;

    @Test
    void auditApplyRestoreOnTheClaudeHome() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp, true);
        Path claude = t.ctx.paths().claudeHome();
        Map<String, String> before = ClaudeTestHomes.tree(claude);
        String current = ClaudeTestHomes.manifest().get("current_session_id").asString();
        JsonNode audit = t.ok(
                "session_audit",
                "{\"now\":\"2026-08-10T12:00:00Z\",\"store\":\"claude\",\"current_session_id\":\"" + current
                        + "\",\"max_items_per_group\":50}");
        assertEquals(1, audit.get("stores").size());
        assertEquals("claude", audit.get("stores").get(0).get("store").asString());
        assertEquals(24.0, audit.get("stores").get(0).get("idle_hours").asDouble());
        ToolResult text = t.call(
                "session_audit",
                "{\"now\":\"2026-08-10T12:00:00Z\",\"store\":\"claude\",\"current_session_id\":\"" + current + "\"}");
        assertTrue(text.text().contains("(/home/dev/webapp)"), text.text());
        JsonNode applied =
                t.ok("session_apply", "{\"plan_id\":\"" + audit.get("plan_id").asString() + "\"}");
        assertTrue(applied.get("executed_count").asInt() >= 5, applied.toString());
        assertFalse(ClaudeTestHomes.tree(claude).equals(before));
        JsonNode restored = t.ok(
                "session_restore",
                "{\"backup_id\":\"" + applied.get("backup").get("backup_id").asString() + "\",\"store\":\"claude\"}");
        assertEquals(
                applied.get("executed_count").asInt(), restored.get("restored").size());
        assertEquals(before, ClaudeTestHomes.tree(claude));
    }

    @Test
    void bothHomesByDefaultAndStoreSelectsOne() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp, true);
        String current = TestHomes.manifest().get("current_session_id").asString();
        JsonNode both =
                t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"current_session_id\":\"" + current + "\"}");
        assertEquals(2, both.get("stores").size());
        JsonNode hermes = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"store\":\"hermes\"}");
        assertEquals(1, hermes.get("stores").size());
        JsonNode dry = t.ok(
                "session_apply",
                "{\"plan_id\":\"" + both.get("plan_id").asString() + "\",\"store\":\"claude\",\"dry_run\":true}");
        boolean hermesSkipped = false;
        for (JsonNode s : dry.get("skipped"))
            hermesSkipped |= s.get("reason").asString().equals("not in the selected store (claude)");
        assertTrue(hermesSkipped, dry.toString());
        JsonNode pre = t.ok(
                "session_precheck",
                "{\"request\":\"postgres vacuum\",\"now\":\"2026-08-10T12:00:00Z\",\"store\":\"claude\"}");
        assertEquals("claude", pre.get("matches").get(0).get("store").asString());
        JsonNode status = t.ok("steward_status", "{}");
        assertEquals(18, status.get("claude").get("sessions").asInt());
        ToolResult st = t.call("steward_status", "{}");
        assertTrue(st.text().contains("Claude home: ") && st.text().contains("/home/dev/webapp"), st.text());
        assertTrue(
                t.call("session_audit", "{\"store\":\"codex\"}").isError(),
                "an unknown store is refused by the schema");
        assertTrue(t.call("session_audit", "{\"idle_hours\":0}").isError());
    }
}
