package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

class SessionApplyToolTest {
    @TempDir
    Path tmp;

    @Test
    void appliesWithRuleDecisionsAndValidates() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode audit = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"max_items_per_group\":2}");
        String plan = audit.get("plan_id").asString();
        JsonNode dry = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\",\"dry_run\":true}");
        assertTrue(dry.get("dry_run").asBoolean());
        int askedB = 0;
        for (JsonNode g : audit.get("groups").get("confirm")) {
            for (JsonNode i : g.get("items")) if (i.get("rule").asString().equals("B") && "new".equals(i.get("question").asString(""))) askedB++;
        }
        assertEquals(2, askedB, "two of the four rule-B questions are listed");
        JsonNode r = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\",\"decisions\":{\"rules\":{\"B\":\"approve\"}}}");
        assertEquals(audit.get("expected").get("total_after_auto").asInt() - askedB, r.get("after").get("all").asInt(),
                "HIGH items plus the rule-B questions the report listed were deleted, not the unlisted one");
        assertEquals(r.get("automatic_count").asInt(), r.get("automatic").size());
        assertTrue(r.get("automatic").get(0).get("undo").asString().contains(r.get("backup").get("backup_id").asString()));
        assertTrue(r.get("backup").get("size_bytes").asLong() > 0);
        ToolResult again = t.call("session_apply", "{\"plan_id\":\"" + plan + "\"}");
        assertTrue(again.isError() && again.text().contains("already used"), again.text());
    }

    @Test
    void unknownPlansAndBadDecisionsAreErrors() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        String plan = t.ok("session_audit", "{}").get("plan_id").asString();
        assertTrue(t.call("session_apply", "{\"plan_id\":\"p_ffffffffffffffff\"}").isError());
        assertTrue(t.call("session_apply", "{\"plan_id\":\"" + plan + "\",\"decisions\":{\"items\":{\"x\":\"approve\"}}}").isError());
        assertTrue(t.call("session_apply", "{\"plan_id\":\"" + plan + "\",\"decisions\":{\"items\":{\"x\":\"yes\"}}}").isError(), "schema enum");
        assertTrue(t.call("session_apply", "{}").isError());
    }
}
