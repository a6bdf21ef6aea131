package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.retention.Retention;
import steward.testing.ClaudeTestHomes;
import tools.jackson.databind.JsonNode;

/**
 * Steward's own state damaged (a file emptied or cut by a crash or a full disk, the wrong shape, hand-edited): every
 * tool answers in words, nothing automatic comes of it, the user's files are never lost for it, and the damage is
 * reported rather than silently reset.
 */
class DamagedStateTest {
    @TempDir
    Path tmp;

    /** A Claude Code-only apply of the fixture: the backup's manifest ({@code b_….claude.jsonl}) and its moved files. */
    record ClaudeBackup(ToolTestSupport t, String id, Path manifest, Path files) {}

    ClaudeBackup claudeBackup(Path dir) throws Exception {
        ToolTestSupport t = new ToolTestSupport(Files.createDirectories(dir), true);
        String plan =
                t.ok("session_audit", "{\"store\":\"claude\"}").get("plan_id").asString();
        String id = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\"}")
                .get("backup")
                .get("backup_id")
                .asString();
        Path sessions = t.ctx.paths().stateDir().resolve("backups/sessions");
        return new ClaudeBackup(t, id, sessions.resolve(id + ".claude.jsonl"), sessions.resolve(id + ".files/claude"));
    }

    @Test
    void aDamagedClaudeBackupManifestKeepsTheOnlyCopyAndRestoreSaysSo() throws Exception {
        int n = 0;
        for (String damage : List.of("", "null\n", "[]\n{}\n", "{\"id\":\"x\"")) {
            ClaudeBackup b = claudeBackup(tmp.resolve("c" + n++));
            Map<String, String> saved = ClaudeTestHomes.tree(b.files());
            assertFalse(saved.isEmpty());
            Files.writeString(b.manifest(), damage);
            Clock later = Clock.offset(b.t().ctx.clock(), Duration.ofDays(400));
            Retention.Report r = new Retention(b.t().ctx.paths(), later).run(true);
            assertEquals(List.of(), r.pruned_backups(), "damage " + damage.strip() + ": " + r);
            assertEquals(saved, ClaudeTestHomes.tree(b.files()), "the moved transcripts are the only copy");
            assertTrue(
                    r.warnings().stream().anyMatch(w -> w.contains(b.id())),
                    r.warnings().toString());

            ToolResult restore = b.t().call("session_restore", "{\"backup_id\":\"" + b.id() + "\"}");
            assertTrue(restore.isError(), restore.text());
            assertTrue(restore.text().startsWith("session_restore: backup " + b.id() + " "), restore.text());
            assertFalse(restore.text().contains("internal error"), restore.text());
            assertEquals(saved, ClaudeTestHomes.tree(b.files()));
        }
        // no manifest at all: its files are still the only copy
        ClaudeBackup b = claudeBackup(tmp.resolve("gone"));
        Files.delete(b.manifest());
        Files.writeString(b.manifest().resolveSibling(b.id() + ".jsonl"), "");
        Retention.Report r =
                new Retention(b.t().ctx.paths(), Clock.offset(b.t().ctx.clock(), Duration.ofDays(400))).run(true);
        assertEquals(List.of(), r.pruned_backups(), r.toString());
        assertTrue(Files.isDirectory(b.files()));
    }

    @Test
    void aDamagedPlanIsRefusedInWordsAndAppliesNothing() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        String id = t.ok("session_audit", "{}").get("plan_id").asString();
        Path plan = t.ctx.paths().stateDir().resolve("plans/" + id + ".json");
        JsonNode good = steward.json.Json.MAPPER.readTree(Files.readAllBytes(plan));
        Path db = t.home.resolve("state.db");
        byte[] before = Files.readAllBytes(db);
        List<java.util.function.UnaryOperator<String>> damages = List.of(
                s -> "null",
                s -> s.replaceFirst("\"stores\":\\[", "\"stores\":[null,"),
                s -> s.replaceFirst("\"items\":\\[", "\"items\":[null,"),
                s -> s.replaceFirst(
                        "\"items\":\\[\\[\"([^\"]+)\",\"([^\"]+)\",\"([^\"]+)\",", "\"items\":[[\"$1\",\"$2\",null,"),
                s -> s.replaceFirst("\"delete\",\"HIGH\"", "\"delete\",null"),
                s -> s.replaceFirst("\"delete\",\"HIGH\"", "\"erase\",\"HIGH\""),
                s -> s.replaceFirst("\"items\":\\[.*\\]\\}$", "\"items\":null}"),
                s -> s.replace("\"plan_id\":\"" + id + "\"", "\"plan_id\":\"p_0000000000000000\""));
        for (var d : damages) {
            String damaged = d.apply(steward.json.Json.MAPPER.writeValueAsString(good));
            assertFalse(damaged.equals(steward.json.Json.MAPPER.writeValueAsString(good)), "the damage applies");
            Files.writeString(plan, damaged);
            ToolResult r = t.call("session_apply", "{\"plan_id\":\"" + id + "\"}");
            assertTrue(r.isError(), r.text());
            assertTrue(r.text().startsWith("session_apply: plan " + id + " is unreadable: damaged ("), r.text());
            assertTrue(r.text().contains("run session_audit again"), r.text());
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(db)), "nothing applied");
            assertEquals(damaged, Files.readString(plan), "the plan is left where it was");
        }
    }

    @Test
    void damagedSettingsNeverTurnWriteApprovalOff() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path settings = t.ctx.paths().stateDir().resolve("settings.json");
        Files.createDirectories(settings.getParent());
        Files.writeString(settings, "{\"memory\": {\"write_approval\": true}}");
        assertTrue(t.ok("memory_write", "{\"action\":\"add\",\"content\":\"[env] Uses fish\"}")
                .get("staged")
                .asBoolean());
        Path mem = t.home.resolve("memories/MEMORY.md");
        byte[] before = Files.readAllBytes(mem);
        int pending = t.ok("memory_pending", "{}").get("count").asInt();
        for (String damage :
                List.of("", "{\"memory\": {\"write_appr", "[]", "{\"memory\": {\"write_approval\": \"yes\"}}")) {
            Files.writeString(settings, damage);
            ToolResult r = t.call("memory_write", "{\"action\":\"add\",\"content\":\"[env] Editor is Helix\"}");
            assertTrue(r.isError(), damage + ": " + r.text());
            assertTrue(
                    r.text().startsWith("memory_write: cannot tell whether write approval is on: " + settings),
                    r.text());
            assertTrue(r.text().contains("nothing was written"), r.text());
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(mem)), "MEMORY.md unchanged");
            assertEquals(damage, Files.readString(settings), "the file is left as it is");
        }
        Files.delete(settings);
        Files.createDirectory(settings);
        assertTrue(t.call("memory_write", "{\"action\":\"add\",\"content\":\"[env] Editor is Helix\"}")
                .isError());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(mem)));
        assertEquals(pending, t.ok("memory_pending", "{}").get("count").asInt(), "nothing staged either");
    }

    @Test
    void aDamagedHermesBackupLineIsNamedAndNothingIsRestored() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        String plan = t.ok("session_audit", "{}").get("plan_id").asString();
        String id = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\"}")
                .get("backup")
                .get("backup_id")
                .asString();
        Path f = t.ctx.paths().stateDir().resolve("backups/sessions/" + id + ".jsonl");
        List<String> lines = Files.readAllLines(f);
        Path db = t.home.resolve("state.db");
        for (String bad : List.of("[]", "null", "{\"title\":\"no id\"}")) {
            List<String> damaged = new java.util.ArrayList<>(lines);
            damaged.set(1, bad);
            Files.write(f, damaged);
            byte[] before = Files.readAllBytes(db);
            ToolResult r = t.call("session_restore", "{\"backup_id\":\"" + id + "\"}");
            assertTrue(r.isError(), r.text());
            assertTrue(
                    r.text()
                            .startsWith("session_restore: backup " + id + " is unreadable: " + id
                                    + ".jsonl is damaged: line 2 "),
                    r.text());
            assertTrue(r.text().endsWith("nothing was restored (the backup is left as it is)"), r.text());
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(db)), "state.db unchanged");
            assertEquals(damaged, Files.readAllLines(f));
        }
    }
}
