package steward.sessions.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.backup.SessionBackup;
import steward.status.StatusEngine;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;

/**
 * Defects 2 and 3 of issue 12: a session_apply or session_restore killed at any point (here: a child process halted
 * at a named point, as SIGKILL would) leaves nothing stranded once the next call has settled its journal: side files
 * are with their sessions, the plan is released (nothing changed) or kept used (committed), an orphan backup says it
 * changed nothing, and restoring always returns side files to sessions that exist.
 */
class ApplyCrashTest {
    @TempDir
    Path tmp;

    Path home;
    StewardPaths paths;
    Path sessionsDir;
    List<String> sideFiles = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        home = TestHomes.copyFixture(tmp);
        paths = StewardPaths.of(home);
        sessionsDir = Files.createDirectories(home.resolve("sessions"));
        // side files for every session the apply below deletes (rule A at HIGH, rule B approved)
        for (Plan.PlanItem it : audit().items()) {
            if (!it.executable()
                    || !it.action().equals("delete")
                    || !List.of("A", "B").contains(it.rule())) continue;
            for (String n : List.of(it.session_id() + ".json", "request_dump_" + it.session_id() + "_1.json")) {
                Files.writeString(sessionsDir.resolve(n), "{\"id\":\"" + it.session_id() + "\"}");
                sideFiles.add(n);
            }
        }
        assertTrue(sideFiles.size() > 10, "the fixture has sessions to delete: " + sideFiles.size());
    }

    Plan audit() {
        return new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .plan();
    }

    int child(String crashpoint, String... args) throws Exception {
        return sessionsMain(home, crashpoint, args);
    }

    /** Runs {@link SessionsMain} {@code <home> args…} in a child JVM halted at {@code crashpoint}; its exit status. */
    static int sessionsMain(Path home, String crashpoint, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dsteward.crashpoint=" + crashpoint,
                "-cp",
                System.getProperty("java.class.path"),
                SessionsMain.class.getName(),
                home.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return p.exitValue();
    }

    List<String> filesIn(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) return List.of();
        try (var s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    /** What steward_status says about interrupted applies and restores (read-only). */
    static List<String> interrupted(StewardPaths paths) {
        return new StatusEngine(paths, TestHomes.CLOCK)
                .status().warnings().stream()
                        .filter(w -> w.contains("an apply or restore was interrupted"))
                        .toList();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "apply.claimed",
                "apply.backup-written",
                "apply.prepared",
                "apply.moved-one",
                "apply.moved",
                "apply.before-commit"
            })
    void applyKilledBeforeCommitChangedNothingAndTheNextCallPutsEverythingBack(String point) throws Exception {
        List<String> before = TestHomes.dump(paths.stateDb());
        List<String> filesBefore = filesIn(sessionsDir);
        Plan plan = audit();
        assertEquals(137, child(point, "apply", plan.plan_id(), "B"), "the child halted at " + point);
        assertEquals(before, TestHomes.dump(paths.stateDb()), "SQLite rolled the transaction back");
        assertEquals(1, interrupted(paths).size(), "steward_status says an apply waits to be settled");
        AuditEngine.Outcome a = new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20));
        assertTrue(a.text().contains("⚠ an apply or restore was interrupted"), "the audit says so: " + a.text());
        assertTrue(
                a.result().housekeeping().warnings().stream().anyMatch(w -> w.contains("interrupted")),
                a.result().housekeeping().warnings().toString());
        assertEquals(1, interrupted(paths).size(), "an audit only reads: it settles nothing");

        ApplyJournal.Recovery rec = new ApplyJournal(paths, TestHomes.CLOCK).recover();
        assertEquals(List.of(), interrupted(paths), "settled: status no longer says so");
        assertFalse(
                new AuditEngine(paths, TestHomes.CLOCK)
                        .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                        .text()
                        .contains("interrupted"),
                "settled: the audit no longer says so");
        assertEquals(1, rec.notices().size(), rec.notices().toString());
        assertTrue(
                rec.notices().get(0).contains("interrupted before it changed anything")
                        && rec.notices().get(0).contains("applied again"),
                rec.notices().get(0));
        assertEquals(filesBefore, filesIn(sessionsDir), "every side file is back with its session");
        assertEquals(List.of(), filesIn(paths.stateDir().resolve("journal")), "journal settled, lock file gone");
        for (String b : filesIn(paths.stateDir().resolve("backups/sessions"))) {
            if (!b.endsWith(".jsonl")) continue;
            String id = b.substring(0, b.length() - 6);
            StewardError e =
                    assertThrows(StewardError.class, () -> new RestoreEngine(paths, TestHomes.CLOCK).restore(id, null));
            assertTrue(
                    e.getMessage().contains("interrupted before it changed anything; nothing to restore"),
                    e.getMessage());
        }
        assertTrue(
                new ApplyJournal(paths, TestHomes.CLOCK).recover().notices().isEmpty(), "settling twice does nothing");

        // the same plan can be applied now, with every side file going into its backup
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of("B", "approve"), Map.of(), false, null));
        assertEquals(sideFiles.size(), r.backup().side_files());
        for (String f : sideFiles) assertFalse(Files.exists(sessionsDir.resolve(f)));
    }

    @Test
    void aMixedApplyKilledBeforeTheHermesCommitKeepsItsMovedClaudeCodePartRestorable() throws Exception {
        Path claude = ClaudeTestHomes.install(tmp, false);
        StewardPaths both = StewardPaths.of(home, claude);
        String current = TestHomes.manifest().get("current_session_id").asString();
        Map<String, String> claudeBefore = ClaudeTestHomes.tree(claude);
        List<String> before = TestHomes.dump(paths.stateDb());
        Plan plan = new AuditEngine(both, TestHomes.CLOCK)
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 20))
                .plan();
        assertEquals(
                137,
                child(
                        "apply.before-commit",
                        "apply-both",
                        claude.toString(),
                        ClaudeTestHomes.CALLER_CWD.toString(),
                        plan.plan_id(),
                        current));
        assertEquals(before, TestHomes.dump(paths.stateDb()), "SQLite rolled the Hermes part back");
        assertNotEquals(claudeBefore, ClaudeTestHomes.tree(claude), "the Claude Code part had moved before");
        ApplyJournal.Recovery rec = new ApplyJournal(both, TestHomes.CLOCK).recover();
        assertEquals(1, rec.notices().size(), rec.notices().toString());
        String notice = rec.notices().get(0);
        assertTrue(notice.contains("Claude Code") && notice.contains("session_restore"), notice);
        String backup = notice.replaceAll(".*backup (b_[0-9TZ_a-f]+).*", "$1");
        assertTrue(SessionBackup.isBackupId(backup), notice);
        assertFalse(
                Files.exists(new SessionBackup(both.stateDir()).file(backup)),
                "the Hermes part, which changed nothing, is not offered");
        RestoreEngine.Result rr = new RestoreEngine(both, TestHomes.CLOCK).restore(backup, null);
        assertFalse(rr.restored().isEmpty());
        assertEquals(claudeBefore, ClaudeTestHomes.tree(claude), "every Claude Code file back, byte for byte");
        assertEquals(before, TestHomes.dump(paths.stateDb()));
    }

    @Test
    void applyKilledAfterCommitIsCompletedAndItsBackupRestoresEverything() throws Exception {
        List<String> before = TestHomes.logicalDump(paths.stateDb());
        List<String> filesBefore = filesIn(sessionsDir);
        Plan plan = audit();
        assertEquals(137, child("apply.committed", "apply", plan.plan_id(), "B"));
        ApplyJournal.Recovery rec = new ApplyJournal(paths, TestHomes.CLOCK).recover();
        assertEquals(1, rec.notices().size());
        String notice = rec.notices().get(0);
        assertTrue(
                notice.contains("interrupted after it committed") && notice.contains("session_restore undoes it"),
                notice);
        String backup = notice.replaceAll(".*Its backup is (b_\\S+) .*", "$1");
        assertTrue(SessionBackup.isBackupId(backup), notice);
        StewardError used = assertThrows(
                StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .apply(new ApplyRequest(
                                plan.plan_id(), Map.of(), Map.of("B", "approve"), Map.of(), false, null)));
        assertTrue(used.getMessage().contains("already used"), used.getMessage());
        for (String f : sideFiles) assertFalse(Files.exists(sessionsDir.resolve(f)), f + " is in the backup");

        RestoreEngine.Result rr = new RestoreEngine(paths, TestHomes.CLOCK).restore(backup, null);
        assertEquals(sideFiles.size(), rr.side_files_restored());
        assertEquals(before, TestHomes.logicalDump(paths.stateDb()));
        assertEquals(filesBefore, filesIn(sessionsDir));
    }

    @Test
    void restoreKilledAfterCommitHasItsFilesReturnedByTheNextCall() throws Exception {
        List<String> filesBefore = filesIn(sessionsDir);
        Plan plan = audit();
        ApplyResult applied = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of("B", "approve"), Map.of(), false, null));
        assertEquals(137, child("restore.committed", "restore", applied.backup().backup_id()));
        for (String f : sideFiles) assertFalse(Files.exists(sessionsDir.resolve(f)), "killed before the files moved");
        ApplyJournal.Recovery rec = new ApplyJournal(paths, TestHomes.CLOCK).recover();
        assertTrue(
                rec.notices().get(0).contains("side files are back with their sessions"),
                rec.notices().toString());
        assertEquals(filesBefore, filesIn(sessionsDir));
    }

    @Test
    void restoreReturnsSideFilesToSessionsThatExistAgain() throws Exception {
        List<String> filesBefore = filesIn(sessionsDir);
        Plan plan = audit();
        ApplyResult applied = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of("B", "approve"), Map.of(), false, null));
        String b = applied.backup().backup_id();
        new RestoreEngine(paths, TestHomes.CLOCK).restore(b, null);
        // files stranded in the backup while their sessions are in state.db (what a kill left before the journal
        // existed)
        Path filesDir = new SessionBackup(paths.stateDir()).filesDir(b);
        for (String f : sideFiles) Files.move(sessionsDir.resolve(f), filesDir.resolve(f));
        RestoreEngine.Result again = new RestoreEngine(paths, TestHomes.CLOCK).restore(b, null);
        assertTrue(again.restored().isEmpty());
        // deleted sessions exist again; the machine sessions rule M ended are active again since the first restore
        assertTrue(
                again.skipped().stream()
                        .allMatch(s -> s.reason().equals("exists again")
                                || s.reason().equals("changed since apply (no longer ended by housekeeping)")),
                again.skipped().toString());
        assertEquals(sideFiles.size(), again.side_files_restored());
        assertEquals(filesBefore, filesIn(sessionsDir));
    }
}
