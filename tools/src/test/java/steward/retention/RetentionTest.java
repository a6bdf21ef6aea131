package steward.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.config.Origin;
import steward.config.StewardPaths;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.backup.SessionBackup;
import steward.testing.TestHomes;

/** Plans and session backups past their time are pruned, never a backup that is the only copy of a session or a side file. */
class RetentionTest {
    @TempDir
    Path tmp;

    StewardPaths paths;

    StewardPaths home() throws Exception {
        paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        return paths;
    }

    static Clock later(int days) {
        return Clock.offset(TestHomes.CLOCK, Duration.ofDays(days));
    }

    ApplyResult applyHigh() {
        String plan = new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .plan()
                .plan_id();
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan, Map.of(), Map.of(), Map.of(), false, null));
    }

    @Test
    void aBackupOfSessionsStillDeletedIsKeptWhateverItsAgeAndPrunedOnceTheyAreBack() throws Exception {
        home();
        ApplyResult r = applyHigh();
        String id = r.backup().backup_id();
        SessionBackup store = new SessionBackup(paths.stateDir());
        long deleted =
                r.executed().stream().filter(x -> x.action().equals("delete")).count();

        Retention.Report within = new Retention(paths, later(29)).run(true);
        assertEquals(List.of(), within.pruned_backups());
        assertEquals("within retention", within.backups().get(0).state());

        Retention.Report old = new Retention(paths, later(400)).run(true);
        assertEquals(List.of(), old.pruned_backups(), "the only copy of deleted sessions is never pruned");
        Retention.Backup b = old.keptAsOnlyCopy().get(0);
        assertEquals(id, b.backup_id());
        assertEquals(deleted, b.only_copy_sessions());
        assertTrue(Files.isRegularFile(store.file(id)));

        new RestoreEngine(paths, TestHomes.CLOCK).restore(id, null);
        Retention.Report dry = new Retention(paths, later(31)).run(false);
        assertEquals(List.of(id), dry.pruned_backups(), "every session is back: the backup is no longer the only copy");
        assertTrue(Files.isRegularFile(store.file(id)), "without pruning nothing is removed");
        Retention.Report pruned = new Retention(paths, later(31)).run(true);
        assertEquals(List.of(id), pruned.pruned_backups());
        assertTrue(pruned.bytes_freed() > 0);
        assertFalse(Files.exists(store.file(id)));
        assertFalse(Files.exists(store.filesDir(id)));
    }

    /**
     * Review of 2026-12-05: sessions an apply ended and Hermes' auto_prune then deleted were in no other place than the
     * apply's backup, which retention listed as "within retention" and would have pruned.
     */
    @Test
    void anEndedSessionDeletedSinceOutsideStewardKeepsItsBackup() throws Exception {
        home();
        ApplyResult r = applyHigh();
        long deleted =
                r.executed().stream().filter(x -> x.action().equals("delete")).count();
        String ended = r.executed().stream()
                .filter(x -> x.action().equals("mark_ended"))
                .findFirst()
                .orElseThrow()
                .session_id();
        steward.sessions.HermesRows.sql(paths.stateDb(), "DELETE FROM messages WHERE session_id = '" + ended + "'");
        steward.sessions.HermesRows.sql(paths.stateDb(), "DELETE FROM sessions WHERE id = '" + ended + "'");
        Retention.Report old = new Retention(paths, later(400)).run(true);
        assertEquals(List.of(), old.pruned_backups());
        assertEquals(deleted + 1, old.keptAsOnlyCopy().get(0).only_copy_sessions());
    }

    @Test
    void aSideFileFoundNowhereElseKeepsItsBackup() throws Exception {
        home();
        SessionBackup store = new SessionBackup(paths.stateDir());
        String id = "b_20260701T000000Z_abcdef";
        Files.createDirectories(store.filesDir(id));
        // an ended session that still exists, and a side file of it that is only in the backup
        Files.writeString(
                store.file(id),
                "{\"id\":\"20260810_071500_a6a3a4\",\"messages\":[],\"_steward\":{\"action\":\"mark_ended\"}}\n");
        Files.writeString(store.filesDir(id).resolve("session_20260810_071500_a6a3a4.json"), "{}");
        store.markInterrupted(id, "from an apply that changed nothing");
        Retention.Report r = new Retention(paths, later(0)).run(true);
        assertEquals(1, r.keptAsOnlyCopy().size());
        assertEquals(0, r.keptAsOnlyCopy().get(0).only_copy_sessions(), "the session itself is in state.db");
        assertEquals(1, r.keptAsOnlyCopy().get(0).only_copy_files());
        Files.createDirectories(paths.hermesHome().resolve("sessions"));
        Files.writeString(paths.hermesHome().resolve("sessions/session_20260810_071500_a6a3a4.json"), "{}");
        assertEquals(
                List.of(id),
                new Retention(paths, later(0)).run(true).pruned_backups(),
                "once the file is back in place");
        assertFalse(Files.exists(store.interruptedMarker(id)), "a pruned backup leaves no marker behind");
    }

    @Test
    void theAgeComesFromConfigYaml() throws Exception {
        home();
        Files.writeString(
                paths.configYaml(), "memory:\n  memory_char_limit: 2200\nsteward:\n  backup_retention_days: 7\n");
        Retention.Settings s = new Retention(paths, TestHomes.CLOCK).settings();
        assertEquals(7, s.backupDays());
        assertEquals(Origin.CONFIG_FILE, s.origin());
        ApplyResult r = applyHigh();
        new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), null);
        assertEquals(List.of(), new Retention(paths, later(6)).run(true).pruned_backups());
        assertEquals(
                List.of(r.backup().backup_id()),
                new Retention(paths, later(8)).run(true).pruned_backups());

        Files.writeString(paths.configYaml(), "steward:\n  backup_retention_days: soon\n");
        Retention.Settings bad = new Retention(paths, TestHomes.CLOCK).settings();
        assertEquals(Retention.DEFAULT_BACKUP_DAYS, bad.backupDays());
        assertTrue(
                bad.warnings().get(0).contains("backup_retention_days"),
                bad.warnings().toString());
    }

    @Test
    void expiredPlansArePrunedAndLivePlansKept() throws Exception {
        home();
        Path plans = paths.stateDir().resolve("plans");
        Files.createDirectories(plans.resolve("used"));
        long now = TestHomes.NOW.getEpochSecond();
        Files.writeString(plans.resolve("mc_00000000000000aa.json"), "{\"expires_epoch\":" + (now - 1) + "}");
        Files.writeString(plans.resolve("mc_00000000000000bb.json"), "{\"expires_epoch\":" + (now + 3600) + "}");
        Path oldUsed = plans.resolve("used/p_00000000000000cc.json");
        Files.writeString(oldUsed, "{}");
        Files.setLastModifiedTime(oldUsed, FileTime.from(TestHomes.NOW.minus(Duration.ofHours(25))));
        Path freshUsed = plans.resolve("used/p_00000000000000dd.json");
        Files.writeString(freshUsed, "{}");
        Files.setLastModifiedTime(freshUsed, FileTime.from(TestHomes.NOW.minus(Duration.ofHours(1))));
        Retention.Report r = new Retention(paths, TestHomes.CLOCK).run(true);
        assertEquals(List.of("mc_00000000000000aa", "p_00000000000000cc"), r.pruned_plans());
        assertTrue(Files.exists(plans.resolve("mc_00000000000000bb.json")) && Files.exists(freshUsed));
    }

    @Test
    void discardingTheOnlyCopyNeedsForce() throws Exception {
        home();
        ApplyResult r = applyHigh();
        String id = r.backup().backup_id();
        Retention ret = new Retention(paths, TestHomes.CLOCK);
        StewardError e = assertThrows(StewardError.class, () -> ret.discard(id, false));
        assertTrue(e.getMessage().contains("only copy"), e.getMessage());
        assertTrue(Files.exists(new SessionBackup(paths.stateDir()).file(id)));
        new SessionBackup(paths.stateDir()).markInterrupted(id, "test");
        assertTrue(ret.discard(id, true).onlyCopy());
        assertFalse(Files.exists(new SessionBackup(paths.stateDir()).interruptedMarker(id)));
        assertFalse(Files.exists(new SessionBackup(paths.stateDir()).file(id)));
        assertThrows(StewardError.class, () -> ret.discard("b_20990101T000000Z_000000", true));
    }
}
