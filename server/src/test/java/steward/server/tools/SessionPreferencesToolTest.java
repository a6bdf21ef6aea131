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

    /** Keys name where the sessions live (B/short@gateway): shown, and accepted by reset_rule one by one or all at once. */
    @Test
    void keyedConditionsAreShownAndResetPerFamilyOrAll() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        String plan = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}")
                .get("plan_id")
                .asString();
        t.ok("session_apply", "{\"plan_id\":\"" + plan + "\",\"decisions\":{\"rules\":{\"B\":\"approve\"}}}");
        java.util.List<String> keys = new java.util.ArrayList<>();
        t.ok("session_preferences", "{}")
                .get("rules")
                .forEach(r -> keys.add(r.get("key").asString()));
        assertTrue(keys.contains("B/short") && keys.contains("B/short@gateway"), keys.toString());
        JsonNode one = t.ok("session_preferences", "{\"action\":\"reset_rule\",\"rule\":\"B/short@gateway\"}");
        assertEquals(
                "reset what was learned for B/short@gateway", one.get("changed").asString());
        java.util.List<String> left = new java.util.ArrayList<>();
        one.get("rules").forEach(r -> left.add(r.get("key").asString()));
        assertTrue(left.contains("B/short") && !left.contains("B/short@gateway"), left.toString());
        JsonNode all = t.ok("session_preferences", "{\"action\":\"reset_rule\",\"rule\":\"B/short\"}");
        all.get("rules").forEach(r -> assertTrue(!r.get("key").asString().startsWith("B/short"), r.toString()));
    }

    /** A store with properties this build does not model (in runs and changes too): shown within the schema, kept in the file. */
    @Test
    void unknownPropertiesAreKeptInTheFileAndNotShown() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path f = t.ctx.paths().stateDir().resolve("preferences.json");
        Files.createDirectories(f.getParent());
        Files.writeString(
                f,
                "{\"version\":1,\"x_top\":[1,{\"a\":\"b\"}],\"run_count\":1,"
                        + "\"runs\":[{\"run\":1,\"date\":\"2026-08-01\",\"plan_id\":\"p\",\"decisions\":0,"
                        + "\"summary\":[],\"x_run\":true}],"
                        + "\"changes\":[{\"date\":\"2026-08-01T00:00:00Z\",\"action\":\"a\",\"detail\":\"d\",\"x_ch\":2}]}");
        JsonNode shown = t.ok("session_preferences", "{\"action\":\"set_threshold\",\"value\":4}");
        assertEquals(1, shown.get("recent_runs").size());
        assertTrue(!shown.get("recent_runs").get(0).has("x_run"), shown.toString());
        assertTrue(!shown.get("recent_changes").get(0).has("x_ch"), shown.toString());
        JsonNode file = tools.jackson.databind.json.JsonMapper.builder().build().readTree(Files.readString(f));
        assertEquals("[1,{\"a\":\"b\"}]", file.get("x_top").toString());
        assertTrue(file.at("/runs/0/x_run").asBoolean());
        assertEquals(2, file.at("/changes/0/x_ch").asInt());
    }

    /** A delete request that can no longer act (its session gone or changed) is listed as stale, not as pending. */
    @Test
    void staleDeleteRequestsAreListedApart() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path f = t.ctx.paths().stateDir().resolve("preferences.json");
        Files.createDirectories(f.getParent());
        Files.writeString(
                f,
                "{\"version\":1,\"session_level\":{\"delete\":["
                        + "{\"id\":\"s_pending\",\"date\":\"2026-08-01\",\"rule\":\"B\"},"
                        + "{\"id\":\"s_stale\",\"date\":\"2026-08-01\",\"rule\":\"B\",\"stale_since\":\"2026-08-05\","
                        + "\"stale_reason\":\"gone\",\"stale_runs\":1}]}}");
        ToolResult r = t.call("session_preferences", "{}");
        JsonNode sessions = t.ok("session_preferences", "{}").get("sessions");
        assertEquals(1, sessions.get("deleted").asInt());
        assertEquals("[\"s_pending\"]", sessions.get("deleted_ids").toString());
        assertEquals(1, sessions.get("stale").asInt());
        assertEquals("[\"s_stale\"]", sessions.get("stale_ids").toString());
        assertTrue(r.text().contains("delete asked: 1 (+1 stale"), r.text());
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
