package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

class SessionRestoreToolTest {
    @TempDir
    Path tmp;

    @Test
    void restoresWhatApplyDeleted() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode audit = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}");
        JsonNode applied = t.ok("session_apply", "{\"plan_id\":\"" + audit.get("plan_id").asString() + "\"}");
        String backup = applied.get("backup").get("backup_id").asString();
        JsonNode r = t.ok("session_restore", "{\"backup_id\":\"" + backup + "\"}");
        assertEquals(applied.get("executed_count").asInt(), r.get("restored").size());
        assertEquals(audit.get("totals").get("all").asInt(), r.get("sessions_after").asInt());
        JsonNode twice = t.ok("session_restore", "{\"backup_id\":\"" + backup + "\"}");
        assertEquals(0, twice.get("restored").size());
        assertTrue(twice.get("skipped").size() > 0);
    }

    @Test
    void unknownBackupIsAnError() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        assertTrue(t.call("session_restore", "{\"backup_id\":\"b_20260101T000000Z_abcdef\"}").isError());
        assertTrue(t.call("session_restore", "{\"backup_id\":\"../../etc/passwd\"}").isError());
    }
}
