package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class SessionPrecheckToolTest {
    @TempDir
    Path tmp;

    @Test
    void findsClaudeCodeSessionsAndValidates() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode r = t.ok("session_precheck", "{\"request\":\"帮我对比一下 Claude Code 的几种模式\",\"locale\":\"zh\"}");
        assertTrue(r.get("match_count").asInt() >= 3);
        JsonNode best = null;
        for (JsonNode m : r.get("matches"))
            if (m.get("session_id").asString().equals("20260806_093200_774510")) best = m;
        assertTrue(best != null && best.get("matched_keywords").toString().contains("模式"), r.toString());
        assertEquals("strong", best.get("strength").asString());
        for (int i = 1; i < r.get("matches").size(); i++) {
            assertTrue(r.get("matches").get(i - 1).get("last_activity_epoch").asDouble()
                    >= r.get("matches").get(i).get("last_activity_epoch").asDouble());
        }
        ToolResult text = t.call("session_precheck", "{\"request\":\"Claude Code\"}");
        assertTrue(text.text().contains("last active"), text.text());
        assertTrue(t.call("session_precheck", "{\"request\":\"\"}").isError());
    }
}
