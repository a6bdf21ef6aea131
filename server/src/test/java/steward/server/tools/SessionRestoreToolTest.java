package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.server.ToolRegistry;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

class SessionRestoreToolTest {
    @TempDir
    Path tmp;

    /** session_apply of the audit's plan as it stands (its HIGH items). */
    static JsonNode applyAudit(ToolTestSupport t, JsonNode audit) {
        return t.ok("session_apply", "{\"plan_id\":\"" + audit.get("plan_id").asString() + "\"}");
    }

    @Test
    void restoresWhatApplyDeleted() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode audit = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}");
        JsonNode applied = applyAudit(t, audit);
        String backup = applied.get("backup").get("backup_id").asString();
        JsonNode r = t.ok("session_restore", "{\"backup_id\":\"" + backup + "\"}");
        assertEquals(applied.get("executed_count").asInt(), r.get("restored").size());
        assertEquals(
                audit.get("totals").get("all").asInt(), r.get("sessions_after").asInt());
        JsonNode twice = t.ok("session_restore", "{\"backup_id\":\"" + backup + "\"}");
        assertEquals(0, twice.get("restored").size());
        assertTrue(twice.get("skipped").size() > 0);
    }

    @Test
    void aRestoreWarnsWhenHermesAutoPruneWillDeleteTheSessionsAgain() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode applied = applyAudit(t, t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}"));
        Files.writeString(t.home.resolve("config.yaml"), "sessions:\n  auto_prune: true\n  retention_days: 30\n");
        ToolResult r = t.call(
                "session_restore",
                "{\"backup_id\":\"" + applied.get("backup").get("backup_id").asString() + "\"}");
        JsonNode prune = ToolRegistry.toJson(r.structured()).get("hermes_auto_prune");
        assertTrue(prune.get("due").asInt() > 0, prune.toString());
        assertTrue(
                r.text()
                        .contains("WARNING Hermes' sessions.auto_prune (retention 30 days) deletes "
                                + prune.get("due").asInt() + " of these again at its next start"),
                r.text());
        assertTrue(r.text().contains("set sessions.auto_prune: false or raise sessions.retention_days"), r.text());
    }

    @Test
    void unknownBackupIsAnError() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        assertTrue(t.call("session_restore", "{\"backup_id\":\"b_20260101T000000Z_abcdef\"}")
                .isError());
        assertTrue(t.call("session_restore", "{\"backup_id\":\"../../etc/passwd\"}")
                .isError());
    }

    @Test
    void restoringEveryBackedUpSessionGivesBackTheDatabaseAsItWas() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        List<String> before = TestHomes.logicalDump(t.home.resolve("state.db"));
        JsonNode audit = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}");
        JsonNode applied = t.ok(
                "session_apply",
                "{\"plan_id\":\"" + audit.get("plan_id").asString()
                        + "\",\"decisions\":{\"rules\":{\"B\":\"approve\"}}}");
        String backup = applied.get("backup").get("backup_id").asString();
        List<String> ids = new ArrayList<>();
        applied.get("executed").forEach(x -> ids.add(x.get("session_id").asString()));
        // first one session only, then the rest
        JsonNode one =
                t.ok("session_restore", "{\"backup_id\":\"" + backup + "\",\"session_ids\":[\"" + ids.get(0) + "\"]}");
        assertEquals(List.of(ids.get(0)), toList(one.get("restored")));
        JsonNode rest = t.ok("session_restore", "{\"backup_id\":\"" + backup + "\"}");
        assertEquals(ids.size() - 1, rest.get("restored").size());
        assertEquals(1, rest.get("skipped").size(), "the one restored before is skipped, not duplicated");
        assertEquals(
                before,
                TestHomes.logicalDump(t.home.resolve("state.db")),
                "sessions, messages and Hermes' search index as before the apply (messages get new row ids, as Hermes' import gives)");
        assertTrue(t.call("session_restore", "{\"backup_id\":\"" + backup + "\",\"session_ids\":[\"not_in_it\"]}")
                .isError());
    }

    /** An empty session_ids names no session: refused, never read as "the whole backup"; nothing changes. */
    @Test
    void anEmptyListOfSessionsRestoresNothing() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode applied = applyAudit(t, t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}"));
        String backup = applied.get("backup").get("backup_id").asString();
        List<String> before = TestHomes.logicalDump(t.home.resolve("state.db"));
        ToolResult r = t.call("session_restore", "{\"backup_id\":\"" + backup + "\",\"session_ids\":[]}");
        assertTrue(r.isError() && r.text().startsWith("session_restore: session_ids is empty"), r.text());
        assertEquals(before, TestHomes.logicalDump(t.home.resolve("state.db")), "nothing restored");
        JsonNode all = t.ok("session_restore", "{\"backup_id\":\"" + backup + "\"}");
        assertEquals(applied.get("executed_count").asInt(), all.get("restored").size(), "left out: the whole backup");
    }

    static List<String> toList(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asString()));
        return out;
    }
}
