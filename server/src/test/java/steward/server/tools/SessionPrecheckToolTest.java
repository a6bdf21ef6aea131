package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.server.TestSupport;
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

    /** "continue" names the session it continues, one that exists; else the answer is refused and nothing is recorded. */
    @Test
    void aContinueChoiceWithoutAnExistingSessionIsRefusedAndRecordsNothing() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Map<String, Integer> before = TestSupport.snapshotTree(t.home);
        ToolResult none = t.call("session_precheck", "{\"request\":\"Claude Code modes\",\"choice\":\"continue\"}");
        assertTrue(none.isError(), none.text());
        assertTrue(none.text().startsWith("session_precheck: ") && none.text().contains("session_id"), none.text());
        ToolResult unknown = t.call(
                "session_precheck",
                "{\"request\":\"Claude Code modes\",\"choice\":\"continue\",\"session_id\":\"20990101_000000_nosuch\"}");
        assertTrue(unknown.isError(), unknown.text());
        assertTrue(unknown.text().contains("20990101_000000_nosuch"), unknown.text());
        assertEquals(before, TestSupport.snapshotTree(t.home), "a refused answer records nothing");
        ToolResult ok = t.call(
                "session_precheck",
                "{\"request\":\"Claude Code modes\",\"choice\":\"continue\",\"session_id\":\"20260806_093200_774510\"}");
        assertFalse(ok.isError(), ok.text());
        assertTrue(ok.text().contains("recorded: continue"), ok.text());
    }
}
