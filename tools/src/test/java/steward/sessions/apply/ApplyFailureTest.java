package steward.sessions.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.retention.Retention;
import steward.sessions.HermesRows;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.backup.SessionBackup;
import steward.state.FileMoves;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;

/**
 * An apply whose Hermes transaction rolls back after its backup was written (a constraint error from the database, the
 * search-index check failing) leaves no trace: state.db, the side files and the Claude Code home as they were, byte for
 * byte, no backup for session_restore to offer, no journal, and the plan free to be applied again.
 */
class ApplyFailureTest {
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
        Plan plan = audit(paths, null);
        for (Plan.PlanItem it : plan.items()) {
            if (!it.executable() || !it.action().equals("delete")) continue;
            for (String n : List.of(it.session_id() + ".json", "request_dump_" + it.session_id() + "_1.json")) {
                Files.writeString(sessionsDir.resolve(n), "{\"id\":\"" + it.session_id() + "\", \"n\": \"" + n + "\"}");
                sideFiles.add(n);
            }
        }
        assertTrue(sideFiles.size() > 10, "the fixture has sessions to delete: " + sideFiles.size());
        Files.writeString(sessionsDir.resolve("unrelated.json"), "{}");
    }

    static Plan audit(StewardPaths paths, String current) {
        return new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500))
                .plan();
    }

    /** Makes the Hermes transaction fail after the backup is written, with a real SQLite error. */
    static void breakHermes(Path db, String how) throws Exception {
        switch (how) {
            // a constraint Hermes' schema does not have: every DELETE FROM sessions aborts
            case "constraint" ->
                HermesRows.sql(
                        db,
                        "CREATE TRIGGER test_refuse_delete BEFORE DELETE ON sessions "
                                + "BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END");
            // Hermes' FTS delete triggers gone: the deleted messages still match, the apply's check rolls back
            case "fts" -> {
                HermesRows.sql(db, "DROP TRIGGER messages_fts_delete");
                HermesRows.sql(db, "DROP TRIGGER messages_fts_trigram_delete");
            }
            default -> throw new IllegalArgumentException(how);
        }
    }

    static void repairHermes(Path db, String how) throws Exception {
        if (how.equals("constraint")) HermesRows.sql(db, "DROP TRIGGER test_refuse_delete");
        else {
            HermesRows.sql(
                    db,
                    "CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN "
                            + "DELETE FROM messages_fts WHERE rowid = old.id; END");
            HermesRows.sql(
                    db,
                    "CREATE TRIGGER messages_fts_trigram_delete AFTER DELETE ON messages BEGIN "
                            + "DELETE FROM messages_fts_trigram WHERE rowid = old.id; END");
        }
    }

    /** Every file under {@code dir} (relative path → SHA-256); empty when it does not exist. */
    static Map<String, String> tree(Path dir) throws Exception {
        Map<String, String> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                if (p.equals(dir)) continue;
                out.put(dir.relativize(p).toString(), Files.isRegularFile(p) ? FileMoves.sha256(p) : "dir");
            }
        }
        return out;
    }

    void assertNoTrace(Map<String, String> sidesBefore, List<String> dbBefore) throws Exception {
        assertEquals(dbBefore, TestHomes.dump(paths.stateDb()), "state.db unchanged");
        assertEquals(sidesBefore, tree(sessionsDir), "every side file back where it was, byte-identical");
        Path backups = paths.stateDir().resolve("backups/sessions");
        for (String f : tree(backups).keySet()) {
            if (!f.matches("b_[^.]+(\\.claude)?\\.jsonl")) continue;
            String id = f.substring(0, f.indexOf('.'));
            // what is left must not be offered as holding deleted sessions
            assertThrows(
                    StewardError.class,
                    () -> new RestoreEngine(paths, TestHomes.CLOCK).restore(id, null),
                    "session_restore offers " + f + ", a backup of an apply that changed nothing");
        }
        assertEquals(Map.of(), tree(backups), "no backup left behind");
        assertEquals(Map.of(), tree(paths.stateDir().resolve("journal")), "no journal left behind");
        assertTrue(new Retention(paths, TestHomes.CLOCK).run(false).backups().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"constraint", "fts"})
    void aRolledBackApplyLeavesNoBackupAndEverySideFileWhereItWas(String how) throws Exception {
        Plan plan = audit(paths, null);
        breakHermes(paths.stateDb(), how);
        List<String> dbBefore = TestHomes.dump(paths.stateDb());
        Map<String, String> sidesBefore = tree(sessionsDir);
        StewardError e = assertThrows(
                StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .apply(new ApplyRequest(
                                plan.plan_id(), Map.of(), Map.of("B", "approve"), Map.of(), false, null)));
        assertTrue(e.getMessage().startsWith("session_apply: "), e.getMessage());
        assertTrue(e.getMessage().contains("nothing was changed"), e.getMessage());
        assertTrue(
                e.getMessage().contains(how.equals("fts") ? "still matches in messages_fts" : "refused by a trigger"),
                e.getMessage());
        assertNoTrace(sidesBefore, dbBefore);

        // the plan was released: once Hermes' database is whole again it runs, its side files going into its backup
        repairHermes(paths.stateDb(), how);
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of("B", "approve"), Map.of(), false, null));
        assertEquals(sideFiles.size(), r.backup().side_files());
        for (String f : sideFiles) assertFalse(Files.exists(sessionsDir.resolve(f)), f);
    }

    @Test
    void aClaudeCodePartThatCannotAllGoBackKeepsItsBackupForSessionRestore() throws Exception {
        Path claude = ClaudeTestHomes.install(tmp, false);
        StewardPaths cp = ClaudeTestHomes.claudeOnly(tmp, claude);
        Plan plan = audit(cp, null);
        List<Plan.PlanItem> items = ApplyEngine.itemsOf(plan, "claude");
        ClaudeApplier applier = new ClaudeApplier(cp, TestHomes.CLOCK, plan, items, ClaudeTestHomes.CALLER_CWD);
        String backupId = SessionBackup.newId(TestHomes.NOW);
        ClaudeApplier.Part part =
                applier.execute(new ApplyRequest(plan.plan_id(), Map.of(), Map.of(), Map.of(), false, null), backupId);
        Path[] first = part.undo().moved().get(0);
        assertFalse(Files.exists(first[0]));
        // something takes the place of a moved session before the part is taken back
        Files.createDirectories(first[0].getParent());
        Files.writeString(first[0], "written meanwhile\n");
        assertFalse(applier.undo(part), "not everything could go back");
        assertTrue(Files.exists(first[1]), "the moved file stays in the backup");
        SessionBackup bk = new SessionBackup(cp.stateDir());
        assertTrue(Files.isRegularFile(bk.claudeFile(backupId)), "and the backup still names it");
        assertEquals(null, bk.interruptedReason(backupId), "session_restore offers it");
    }

    @ParameterizedTest
    @ValueSource(strings = {"constraint", "fts"})
    void aFailingHermesPartOfAMixedApplyLeavesNoBackupOfEitherHome(String how) throws Exception {
        Path claude = ClaudeTestHomes.install(tmp, false);
        paths = StewardPaths.of(home, claude);
        String current = TestHomes.manifest().get("current_session_id").asString();
        Plan plan = audit(paths, current);
        assertTrue(plan.items().stream().anyMatch(i -> i.storeName().equals("claude") && i.automatic()));
        breakHermes(paths.stateDb(), how);
        List<String> dbBefore = TestHomes.dump(paths.stateDb());
        Map<String, String> sidesBefore = tree(sessionsDir);
        Map<String, String> claudeBefore = tree(claude);
        StewardError e = assertThrows(
                StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .callerCwd(ClaudeTestHomes.CALLER_CWD)
                        .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of(), Map.of(), false, current)));
        assertTrue(e.getMessage().startsWith("session_apply: "), e.getMessage());
        assertTrue(e.getMessage().contains("nothing was changed"), e.getMessage());
        Map<String, String> claudeAfter = tree(claude);
        claudeAfter.keySet().removeIf(k -> k.startsWith("steward"));
        claudeBefore.keySet().removeIf(k -> k.startsWith("steward"));
        assertEquals(claudeBefore, claudeAfter, "the Claude Code home as it was, byte for byte");
        assertNoTrace(sidesBefore, dbBefore);
    }
}
