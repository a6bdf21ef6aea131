package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.server.Schemas;
import steward.server.ToolRegistry;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;
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
        for (JsonNode g : audit.get("decision_groups")) {
            if (g.get("rule").asString().equals("B")
                    && g.get("section").asString().equals("ask"))
                askedB += g.get("count").asInt();
        }
        // four long chats, more than a group lists (2): asked in one counted line, not two by name and two left for
        // later
        assertEquals(4, askedB, "the four rule-B questions are counted in the report's line");
        JsonNode r =
                t.ok("session_apply", "{\"plan_id\":\"" + plan + "\",\"decisions\":{\"rules\":{\"B\":\"approve\"}}}");
        assertEquals(
                audit.get("expected").get("total_after_auto").asInt() - askedB,
                r.get("after").get("all").asInt(),
                "HIGH items plus the rule-B questions the report listed were deleted, not the unlisted one");
        assertEquals(r.get("automatic_count").asInt(), r.get("automatic").size());
        assertTrue(r.get("automatic")
                .get(0)
                .get("undo")
                .asString()
                .contains(r.get("backup").get("backup_id").asString()));
        assertTrue(r.get("backup").get("size_bytes").asLong() > 0);
        ToolResult again = t.call("session_apply", "{\"plan_id\":\"" + plan + "\"}");
        assertTrue(again.isError() && again.text().contains("already used"), again.text());
    }

    @Test
    void unknownPlansAndBadDecisionsAreErrors() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        String plan = t.ok("session_audit", "{}").get("plan_id").asString();
        assertTrue(
                t.call("session_apply", "{\"plan_id\":\"p_ffffffffffffffff\"}").isError());
        assertTrue(
                t.call("session_apply", "{\"plan_id\":\"" + plan + "\",\"decisions\":{\"items\":{\"x\":\"approve\"}}}")
                        .isError());
        assertTrue(
                t.call("session_apply", "{\"plan_id\":\"" + plan + "\",\"decisions\":{\"items\":{\"x\":\"yes\"}}}")
                        .isError(),
                "schema enum");
        assertTrue(t.call("session_apply", "{}").isError());
    }

    @Test
    void vacuumWithoutAPlanAndBadVacuumInputChangeNothing() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path db = t.home.resolve("state.db");
        byte[] before = Files.readAllBytes(db);
        ToolResult missing = t.call("session_apply", "{}");
        assertTrue(missing.isError() && missing.text().contains("plan_id is required"), missing.text());
        assertTrue(t.call("session_apply", "{\"vacuum\":\"yes\"}").isError(), "schema: boolean");
        ToolResult claude = t.call("session_apply", "{\"vacuum\":true,\"store\":\"claude\"}");
        assertTrue(claude.isError() && claude.text().contains("Claude Code store has none"), claude.text());
        ToolResult badPlan = t.call("session_apply", "{\"plan_id\":\"p_ffffffffffffffff\",\"vacuum\":true}");
        assertTrue(badPlan.isError(), "a bad plan stops the call before any vacuum");
        JsonNode v = t.ok("session_apply", "{\"vacuum\":true}").get("vacuum");
        assertEquals("not_worth_it", v.get("outcome").asString(), "the fixture's free list is a few pages");
        assertTrue(Arrays.equals(before, Files.readAllBytes(db)));
        assertTrue(!Files.exists(t.home.resolve("steward/backups/state-db")));
    }

    @Test
    void planThenVacuumInOneCall() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Files.writeString(
                t.home.resolve("config.yaml"),
                "steward:\n  vacuum_min_free_mb: 0.001\n  vacuum_max_lock_seconds: 600\n");
        String plan = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}")
                .get("plan_id")
                .asString();
        ToolResult r = t.call("session_apply", "{\"plan_id\":\"" + plan + "\",\"vacuum\":true}");
        assertTrue(!r.isError(), r.text());
        JsonNode n = t.ok("session_apply", "{\"vacuum\":true,\"dry_run\":true}");
        assertEquals(1, n.size(), "a vacuum-only result holds the vacuum alone");
        JsonNode out = ToolRegistry.toJson(r.structured());
        assertTrue(out.get("executed_count").asInt() > 0, "the plan ran");
        assertEquals("vacuumed", out.get("vacuum").get("outcome").asString(), r.text());
        assertEquals(List.of(), Schemas.validate("session_apply.output.json", out));
        assertTrue(r.text().contains("Vacuum: vacuumed state.db"), r.text());
        assertEquals("ok", out.get("vacuum").get("integrity").asString());
    }

    static boolean exists(Path db, String id) throws Exception {
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Test
    void aDryRunChangesNothingAndAnApplyDeletesExactlyWhatItReports() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path db = t.home.resolve("state.db");
        List<String> before = TestHomes.dump(db);
        String plan = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}")
                .get("plan_id")
                .asString();
        JsonNode dry = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\",\"dry_run\":true}");
        assertEquals(before, TestHomes.dump(db), "a dry run writes nothing");
        assertTrue(dry.get("backup").isNull(), "and makes no backup");
        assertTrue(dry.get("executed_count").asInt() > 0);

        JsonNode r = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\"}");
        assertEquals(
                dry.get("executed_count").asInt(),
                r.get("executed_count").asInt(),
                "the dry run previewed exactly this");
        for (JsonNode x : r.get("executed")) {
            boolean present = exists(db, x.get("session_id").asString());
            assertEquals(!x.get("action").asString().equals("delete"), present, x.toString());
        }
        assertEquals(
                dry.get("executed_count").asInt(),
                r.get("backup").get("sessions").asInt(),
                "every changed session is in the backup");
        assertTrue(Files.isRegularFile(Path.of(r.get("backup").get("path").asString())));
        assertTrue(r.get("checklist").size() > 0);
        for (JsonNode c : r.get("checklist"))
            if (c.get("check").asString().equals("backup"))
                assertTrue(c.get("ok").asBoolean(), c.toString());
        ToolResult text = t.call(
                "session_apply",
                "{\"plan_id\":\""
                        + t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}")
                                .get("plan_id")
                                .asString() + "\",\"dry_run\":true}");
        assertTrue(text.text().startsWith("Dry run of plan "), text.text());
    }

    @Test
    void afterANewBackupOldBackupsArePrunedUnlessTheyAreTheOnlyCopy() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path dir = t.home.resolve("steward/backups/sessions");
        Files.createDirectories(dir);
        // 70 days old: one of a session that is still in state.db (ended), one of a session that exists nowhere else
        Path back = dir.resolve("b_20260601T000000Z_aaaaaa.jsonl");
        Files.writeString(
                back, "{\"id\":\"20260810_071500_a6a3a4\",\"messages\":[],\"_steward\":{\"action\":\"mark_ended\"}}\n");
        Path only = dir.resolve("b_20260601T000000Z_bbbbbb.jsonl");
        Files.writeString(
                only, "{\"id\":\"20260101_000000_gone00\",\"messages\":[],\"_steward\":{\"action\":\"delete\"}}\n");
        String plan = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}")
                .get("plan_id")
                .asString();
        ToolResult r = t.call("session_apply", "{\"plan_id\":\"" + plan + "\"}");
        assertTrue(r.text().contains("Retention: pruned 1 backup(s) older than 30 days"), r.text());
        assertTrue(
                r.text()
                        .contains(
                                "Retention: kept 1 backup(s) older than 30 days: the only copy of 1 deleted session(s)"),
                r.text());
        assertTrue(Files.notExists(back));
        assertTrue(Files.exists(only), "the only copy of a deleted session is never pruned");
    }

    /**
     * A compaction chain approved by its own id: the text says that one answer covered its three sessions, and why, and
     * the structured result names the answer on each (answered_by, answered_as).
     */
    @Test
    void oneAnswerOnAChainSaysWhichSessionsItCoveredAndWhy() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        String a = "20260714_105300_e77ffe", b = "20260715_080300_208596", c = "20260729_104800_84b280";
        try (Connection db = Sqlite.openReadWrite(t.home.resolve("state.db"));
                Statement st = db.createStatement()) {
            st.executeUpdate("UPDATE sessions SET end_reason = 'compression' WHERE id IN ('" + a + "', '" + b + "')");
            st.executeUpdate("UPDATE sessions SET parent_session_id = '" + a + "' WHERE id = '" + b + "'");
            st.executeUpdate("UPDATE sessions SET parent_session_id = '" + b + "' WHERE id = '" + c + "'");
        }
        JsonNode audit = t.ok("session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}");
        String chain = null;
        for (JsonNode ch : audit.get("housekeeping").get("chain_items"))
            if (ch.get("session_ids").get(0).asString().equals(a))
                chain = ch.get("chain_id").asString();
        assertTrue(
                chain != null && chain.matches("c\\d+"),
                audit.get("housekeeping").toString());
        ToolResult done = t.call(
                "session_apply",
                "{\"plan_id\":\"" + audit.get("plan_id").asString() + "\",\"decisions\":{\"items\":{\"" + chain
                        + "\":\"approve\"}}}");
        assertTrue(!done.isError(), done.text());
        JsonNode applied = ToolRegistry.toJson(done.structured());
        assertEquals(List.of(), Schemas.validate("session_apply.output.json", applied));
        int ours = 0;
        for (JsonNode x : applied.get("executed")) {
            if (!List.of(a, b, c).contains(x.get("session_id").asString())) continue;
            ours++;
            assertEquals(chain, x.get("answered_by").asString(), x.toString());
            assertEquals("chain", x.get("answered_as").asString(), x.toString());
        }
        assertEquals(3, ours, applied.get("executed").toString());
        String text = done.text();
        assertTrue(
                text.contains("one answer " + chain + " covered 3: " + a + ", " + b + ", " + c
                        + " (one compaction chain: one conversation, deleted as a whole)"),
                text);
    }
}
