package steward.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** End to end over stdio against the real jar: audit → apply with decisions → audit shows the new state. */
class SessionHousekeepingIT {
    @TempDir
    Path tmp;

    static JsonNode call(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult r = client.callTool(
                McpSchema.CallToolRequest.builder(tool).arguments(args).build());
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + ": " + r.content());
        JsonNode n = Json.MAPPER.valueToTree(r.structuredContent());
        assertEquals(List.of(), Schemas.validate(tool + ".output.json", n));
        return n;
    }

    @Test
    void auditApplyAuditOverStdio() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        try (McpSyncClient client = StewardProcess.client(home)) {
            assertTrue(
                    client.listTools().tools().stream().anyMatch(t -> t.name().equals("session_apply")));
            String current = "20260810_071500_a6a3a4";
            JsonNode first = call(
                    client,
                    "session_audit",
                    Map.of("now", "2026-08-10T12:00:00Z", "current_session_id", current, "locale", "zh"));
            // a subagent left open for days: rule M ends it automatically (an item of the plan); the rename wins over
            // the ending
            String nameless = "20260805_111800_02f4b3";
            JsonNode applied = call(
                    client,
                    "session_apply",
                    Map.of(
                            "plan_id",
                            first.get("plan_id").asString(),
                            "decisions",
                            Map.of(
                                    "rules",
                                    Map.of("B", "approve"),
                                    "items",
                                    Map.of("20260801_105200_7c5d42", "approve")),
                            "renames",
                            Map.of(nameless, "记忆整理子任务"),
                            "current_session_id",
                            current));
            assertTrue(applied.get("backup").get("size_bytes").asLong() > 0);
            JsonNode second =
                    call(client, "session_audit", Map.of("now", "2026-08-10T12:00:00Z", "current_session_id", current));
            int deleted = (int) applied.get("executed").findValues("action").stream()
                    .filter(a -> a.asString().equals("delete"))
                    .count();
            assertEquals(
                    first.get("totals").get("all").asInt() - deleted,
                    second.get("totals").get("all").asInt());
            int ended = (int) applied.get("executed").findValues("action").stream()
                    .filter(a -> a.asString().equals("mark_ended"))
                    .count();
            assertTrue(ended >= 2, "the archived one and rule M's subagents were marked as ended");
            assertEquals(
                    first.get("totals").get("active").asInt() - ended,
                    second.get("totals").get("active").asInt());
            // the only HIGH items left are subagents rule M just ended, now finished shells (rule A)
            for (JsonNode it : second.get("groups").get("auto").get("items"))
                assertEquals("A", it.get("rule").asString(), it.toString());
            assertFalse(second.toString().contains("\"rule\":\"B\""), "rule B items are gone");
            assertTrue(second.toString().contains("记忆整理子任务"), "the renamed subagent shows its new title");
            assertEquals("ok", applied.get("learning").get("status").asString());
        }
        // restart-safety: another process sees what the last one learned
        Process p = new ProcessBuilder(
                        StewardProcess.command("call", "session_preferences", "--hermes-home", home.toString()))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), UTF_8);
        assertEquals(0, p.waitFor(), out);
        JsonNode prefs = Json.MAPPER.readTree(out);
        assertEquals(1, prefs.get("run_count").asInt());
        assertTrue(prefs.get("rules").toString().contains("B/long"), out);
    }
}
