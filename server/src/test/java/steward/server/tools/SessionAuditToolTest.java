package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

class SessionAuditToolTest {
    @TempDir
    Path tmp;

    @Test
    void resultValidatesAndTextIsTheReport() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode r = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"locale\":\"en\",\"max_items_per_group\":3}");
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
        assertEquals("session_audit", t.registry.find("session_audit").orElseThrow().name());
        assertTrue(t.registry.find("session_audit").orElseThrow().hints().readOnly());
    }
}
