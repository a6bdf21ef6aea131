package steward.sessions.apply;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.retention.Retention;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.backup.RestoreEngine;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/**
 * A Claude Code session moved into a backup and then written again at its path (a window still open on it: Claude
 * Code appends by path, so the new file holds only the new turns). The backup stays the only copy of the history until
 * a restore puts it back under the new lines; and a restored transcript as old as Claude Code's cleanupPeriodDays gets
 * the current time, or Claude Code would delete it at its next start.
 */
class ClaudeWrittenAgainTest {
    @TempDir
    Path tmp;

    Path home;
    StewardPaths paths;
    JsonNode high;

    static final String NEW_TURN = """
            {"type":"user","message":{"role":"user","content":"ok, continue where we left off"},"uuid":"n-1","timestamp":"2026-08-10T11:59:00.000Z"}
            """;

    @BeforeEach
    void setUp() throws Exception {
        home = ClaudeTestHomes.install(tmp, false);
        paths = ClaudeTestHomes.claudeOnly(tmp, home);
        for (JsonNode s : ClaudeTestHomes.manifest().get("sessions"))
            if (s.get("kind").asString().equals("B_high")) high = s;
    }

    Path transcript() {
        return home.resolve("projects")
                .resolve(high.get("project").asString())
                .resolve(high.get("id").asString() + ".jsonl");
    }

    String applyHigh() {
        AuditEngine.Outcome o = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, null, 0.0));
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of(), Map.of(), false, null));
        assertTrue(
                r.executed().stream()
                        .anyMatch(d -> d.session_id().equals(high.get("id").asString())),
                r.executed().toString());
        lastApply = r;
        return r.backup().backup_id();
    }

    ApplyResult lastApply;

    /** Applies, then restores every other session of the backup: only this one's copy is left in question. */
    String applyHighAndRestoreTheOthers() {
        String id = applyHigh();
        List<String> others = lastApply.executed().stream()
                .map(ApplyResult.Done::session_id)
                .filter(s -> !s.equals(high.get("id").asString()))
                .toList();
        assertFalse(others.isEmpty());
        RestoreEngine.Result r = new RestoreEngine(paths, TestHomes.CLOCK).restore(id, others);
        assertTrue(r.restored().containsAll(others), r.skipped().toString());
        return id;
    }

    static Clock later(int days) {
        return Clock.offset(TestHomes.CLOCK, Duration.ofDays(days));
    }

    Retention.Backup backup(String id, int days) {
        return new Retention(paths, later(days))
                .run(false).backups().stream()
                        .filter(b -> b.backup_id().equals(id))
                        .findFirst()
                        .orElseThrow();
    }

    @Test
    void aTranscriptWrittenAgainKeepsItsBackupAndRestoreMergesTheHistoryUnderTheNewLines() throws Exception {
        byte[] history = Files.readAllBytes(transcript());
        String id = applyHighAndRestoreTheOthers();
        assertFalse(Files.exists(transcript()));
        Files.writeString(transcript(), NEW_TURN);

        // a file at the path that holds only the new turn: the backup is still the only copy of the history
        Retention.Backup b = backup(id, 400);
        assertEquals(Retention.KEPT_ONLY_COPY, b.state(), b.toString());
        assertTrue(b.only_copy_sessions() >= 1, b.toString());
        assertFalse(
                new Retention(paths, later(400)).run(true).pruned_backups().contains(id), "pruning never removes it");

        RestoreEngine.Result r = new RestoreEngine(paths, TestHomes.CLOCK)
                .restore(id, List.of(high.get("id").asString()));
        assertEquals(
                List.of(high.get("id").asString()), r.restored(), r.skipped().toString());
        assertEquals(1, r.merged().size(), r.merged().toString());
        assertEquals(history.length, r.merged().get(0).backup_bytes());
        ByteArrayOutputStream want = new ByteArrayOutputStream();
        want.write(history);
        if (history[history.length - 1] != '\n') want.write('\n');
        want.write(NEW_TURN.getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(want.toByteArray(), Files.readAllBytes(transcript()), "the history, then the new turn");

        // now the home carries every backed-up byte: the backup may go once past retention
        assertEquals(Retention.PRUNABLE, backup(id, 400).state());
        RestoreEngine.Result again = new RestoreEngine(paths, TestHomes.CLOCK)
                .restore(id, List.of(high.get("id").asString()));
        assertTrue(again.restored().isEmpty());
        assertTrue(again.merged().isEmpty(), "a second restore merges nothing twice");
        assertTrue(
                again.skipped().get(0).reason().startsWith("already back"),
                again.skipped().toString());
        assertArrayEquals(want.toByteArray(), Files.readAllBytes(transcript()));
    }

    @Test
    void aFileAtThePathWithTheSameBytesIsBackAndOneWithOtherBytesIsNot() throws Exception {
        byte[] history = Files.readAllBytes(transcript());
        String id = applyHighAndRestoreTheOthers();
        Files.write(transcript(), history); // put back by hand, byte for byte
        assertEquals(Retention.PRUNABLE, backup(id, 400).state());
        byte[] edited = history.clone();
        edited[0] = (byte) (edited[0] == '{' ? ' ' : '{'); // same size, other bytes
        Files.write(transcript(), edited);
        assertEquals(Retention.KEPT_ONLY_COPY, backup(id, 400).state());
    }

    @Test
    void aRestoredTranscriptAsOldAsClaudeCodesCleanupPeriodGetsTheCurrentTime() throws Exception {
        Files.writeString(home.resolve("settings.json"), "{\"cleanupPeriodDays\": 10}\n");
        FileTime old = FileTime.from(TestHomes.NOW.minus(Duration.ofDays(9)));
        Files.setLastModifiedTime(transcript(), old);
        String id = applyHigh();
        RestoreEngine.Result r = new RestoreEngine(paths, TestHomes.CLOCK).restore(id, null);
        assertTrue(r.restored().contains(high.get("id").asString()));
        assertEquals(10, r.claude_cleanup().cleanup_period_days());
        assertTrue(
                r.claude_cleanup().session_ids().contains(high.get("id").asString()),
                r.claude_cleanup().toString());
        assertEquals(FileTime.from(TestHomes.NOW), Files.getLastModifiedTime(transcript()));
    }

    @Test
    void aRecentRestoredTranscriptKeepsItsTime() throws Exception {
        FileTime recent = FileTime.from(TestHomes.NOW.minus(Duration.ofDays(2)));
        Files.setLastModifiedTime(transcript(), recent);
        String id = applyHigh();
        RestoreEngine.Result r = new RestoreEngine(paths, TestHomes.CLOCK).restore(id, null);
        assertNull(r.claude_cleanup(), String.valueOf(r.claude_cleanup()));
        assertEquals(recent, Files.getLastModifiedTime(transcript()));
    }
}
