package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

class SessionAuditToolTest {
    @TempDir
    Path tmp;

    @Test
    void resultValidatesAndTextIsTheReport() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode r =
                t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"locale\":\"en\",\"max_items_per_group\":3}");
        assertEquals(3, r.get("threshold").asInt());
        assertTrue(r.get("groups").get("auto").get("left_out").asInt() > 0);
        ToolResult text = t.call("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"locale\":\"zh\"}");
        assertTrue(text.text().contains("会话审计报告"));
        JsonNode headless = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00+00:00\",\"mode\":\"headless\"}");
        assertEquals("headless", headless.get("mode").asString());
    }

    @Test
    void badArgumentsAreErrors() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        assertTrue(t.call("session_audit", "{\"mode\":\"cron\"}").isError());
        assertTrue(t.call("session_audit", "{\"now\":\"yesterday\"}").isError());
        assertTrue(t.call("session_audit", "{\"current_session_id\":\"nope\"}").isError());
        assertTrue(t.call("session_audit", "{\"extra\":1}").isError());
        assertEquals(
                "session_audit", t.registry.find("session_audit").orElseThrow().name());
        assertTrue(t.registry.find("session_audit").orElseThrow().hints().readOnly());
    }

    static List<JsonNode> groups(JsonNode r) {
        List<JsonNode> out = new ArrayList<>();
        r.get("groups").forEach(g -> {
            if (g.isArray()) g.forEach(out::add);
            else out.add(g);
        });
        return out;
    }

    @Test
    void theArgumentsReachTheAuditAndHermesFilesAreNotWritten() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        List<String> before = TestHomes.dump(t.home.resolve("state.db"));
        String current = "20260810_071500_a6a3a4";
        JsonNode r = t.ok(
                "session_audit",
                "{\"now\":\"2026-08-10T12:00:00Z\",\"current_session_id\":\"" + current
                        + "\",\"max_items_per_group\":3}");
        assertEquals(current, r.get("current").get("session_id").asString());
        assertEquals("argument", r.get("current").get("found_by").asString());
        assertEquals(62, r.get("totals").get("all").asInt());
        int listed = 0, counted = 0;
        for (JsonNode g : groups(r)) {
            assertTrue(g.get("items").size() <= 3, "max_items_per_group caps every group: " + g);
            assertEquals(
                    g.get("count").asInt(),
                    g.get("items").size() + g.get("left_out").asInt(),
                    "a capped group says how many it left out");
            listed += g.get("items").size();
            counted += g.get("count").asInt();
            for (JsonNode i : g.get("items"))
                assertTrue(
                        !i.get("session_id").asString().equals(current)
                                || !i.get("executable").asBoolean(),
                        "the current session is never executable");
        }
        assertEquals(62, counted, "every session is counted in exactly one group");
        assertTrue(listed < counted);
        assertTrue(
                Files.isRegularFile(
                        t.home.resolve("steward/plans/" + r.get("plan_id").asString() + ".json")),
                "the plan is stored for session_apply");
        assertEquals(before, TestHomes.dump(t.home.resolve("state.db")), "read-only for Hermes");

        ToolResult en = t.call("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"locale\":\"en\"}");
        ToolResult zh = t.call("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"locale\":\"zh\"}");
        assertTrue(zh.text().contains("会话审计报告") && !en.text().contains("会话审计报告"), en.text());
        JsonNode found = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}");
        assertEquals(
                "newest_active_tui_cli", found.get("current").get("found_by").asString());
        assertEquals(
                current,
                found.get("current").get("session_id").asString(),
                "the fixture's current session is the newest active tui session");

        JsonNode headless = t.ok(
                "session_audit",
                "{\"now\":\"2026-08-10T12:00:00Z\",\"mode\":\"headless\",\"max_items_per_group\":500}");
        int executable = 0;
        for (JsonNode g : groups(headless)) {
            for (JsonNode i : g.get("items")) {
                if (!i.get("executable").asBoolean()) continue;
                executable++;
                assertEquals("A", i.get("rule").asString(), "headless: only rule A runs: " + i);
            }
        }
        assertTrue(executable > 0, "the fixture's finished subagent shells are executable headless");
    }
}
