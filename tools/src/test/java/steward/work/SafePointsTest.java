package steward.work;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.recall.RecallEngine;
import steward.recall.SyncReport;
import steward.retention.Retention;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.backup.RestoreEngine;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/**
 * Where each long engine call may stop when its caller gives up, cancelling at every progress report in turn: before
 * its last safe point it stops with {@link Work.Cancelled} and has written nothing (Hermes' state.db, Steward's plans,
 * backups and index as they were); after it, the call runs to its end. Progress only increases.
 */
class SafePointsTest {
    @TempDir
    Path tmp;

    static long files(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    static void increasing(CancelAt w) {
        for (int i = 1; i < w.values.size(); i++)
            assertTrue(w.values.get(i) > w.values.get(i - 1), "progress only increases: " + w.values);
    }

    AuditRequest request() {
        return new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20);
    }

    @Test
    void anAuditStopsBeforeItsPlanIsSaved() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        List<String> db = TestHomes.dump(paths.stateDb());
        CancelAt all = CancelAt.never();
        new AuditEngine(paths, TestHomes.CLOCK).audit(request(), all);
        increasing(all);
        assertEquals(
                List.of("listing sessions", "classifying 62 sessions", "building the report"),
                all.messages.subList(0, 3));
        long plans = files(paths.stateDir().resolve("plans"));
        assertEquals(1, plans);
        for (int n = 1; n <= 3; n++) {
            CancelAt w = new CancelAt(n);
            assertThrows(Work.Cancelled.class, () -> new AuditEngine(paths, TestHomes.CLOCK).audit(request(), w));
            assertEquals(
                    plans, files(paths.stateDir().resolve("plans")), "cancelled at report " + n + ": no plan saved");
        }
        CancelAt late = new CancelAt(4); // "saving plan": past the last safe point
        new AuditEngine(paths, TestHomes.CLOCK).audit(request(), late);
        assertEquals(plans + 1, files(paths.stateDir().resolve("plans")));
        assertEquals(db, TestHomes.dump(paths.stateDb()));
    }

    @Test
    void anApplyStopsOnlyBeforeItsTransactionAndLeavesThePlanUsable() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        List<String> db = TestHomes.dump(paths.stateDb());
        List<String> logical = TestHomes.logicalDump(paths.stateDb());
        String plan =
                new AuditEngine(paths, TestHomes.CLOCK).audit(request()).plan().plan_id();
        ApplyRequest req = new ApplyRequest(plan, Map.of(), Map.of(), Map.of(), false, null);
        assertThrows(Work.Cancelled.class, () -> new ApplyEngine(paths, TestHomes.CLOCK).apply(req, new CancelAt(1)));
        assertEquals(db, TestHomes.dump(paths.stateDb()), "nothing deleted");
        assertEquals(0, files(paths.stateDir().resolve("backups")), "no backup");

        CancelAt inTransaction = new CancelAt(2); // the first backup report: the transaction has begun
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK).apply(req, inTransaction);
        assertTrue(inTransaction.cancelled(), "the caller had given up");
        assertTrue(r.executed_count() > 0, "the plan was still usable, and a running transaction finishes");
        increasing(inTransaction);
        assertTrue(inTransaction.messages.contains("verifying"), inTransaction.messages.toString());

        List<String> applied = TestHomes.dump(paths.stateDb());
        CancelAt restore = new CancelAt(1);
        assertThrows(
                Work.Cancelled.class,
                () -> new RestoreEngine(paths, TestHomes.CLOCK)
                        .restore(r.backup().backup_id(), null, null, restore));
        assertEquals(applied, TestHomes.dump(paths.stateDb()), "a cancelled restore put nothing back");
        RestoreEngine.Result back =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), null, null, new CancelAt(2));
        assertEquals(r.executed_count(), back.restored().size(), "past its safe point a restore runs to its end");
        assertEquals(
                logical,
                TestHomes.logicalDump(paths.stateDb()),
                "restored with new message row ids, as Hermes' import does");
    }

    @Test
    void anApplyOfBothHomesStopsBeforeEitherIsWrittenAndARestoreBeforeAnythingMovesBack() throws Exception {
        Path hermes = TestHomes.copyFixture(tmp);
        Path home = ClaudeTestHomes.install(tmp, false);
        StewardPaths paths = StewardPaths.of(hermes, home);
        String current = TestHomes.manifest().get("current_session_id").asString();
        String bHigh = null;
        for (JsonNode s : ClaudeTestHomes.manifest().get("sessions"))
            if (s.get("kind").asString().equals("B_high")) bHigh = s.get("id").asString();
        String claudeHigh = bHigh;
        List<String> db = TestHomes.dump(paths.stateDb());
        List<String> logical = TestHomes.logicalDump(paths.stateDb());
        Map<String, String> claude = ClaudeTestHomes.tree(home);
        String plan = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500))
                .plan()
                .plan_id();
        ApplyRequest req = new ApplyRequest(plan, Map.of(), Map.of(), Map.of(), false, current);

        CancelAt first = new CancelAt(1); // "checking plan": before the last safe point
        assertThrows(
                Work.Cancelled.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .callerCwd(ClaudeTestHomes.CALLER_CWD)
                        .apply(req, first));
        assertEquals(claude, ClaudeTestHomes.tree(home), "the Claude Code files stay in place");
        assertEquals(db, TestHomes.dump(paths.stateDb()), "nothing deleted from state.db");
        assertEquals(0, files(paths.stateDir().resolve("backups")), "no backup");

        CancelAt moving = new CancelAt(2); // the Claude Code files start moving: past the last safe point
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .apply(req, moving);
        assertTrue(moving.cancelled(), "the caller had given up");
        assertTrue(moving.messages.get(1).contains("Claude Code"), moving.messages.toString());
        assertTrue(moving.messages.contains("verifying"), "the Hermes part ran to its end too: " + moving.messages);
        increasing(moving);
        assertTrue(r.executed().stream().anyMatch(d -> d.session_id().equals(claudeHigh)), "the plan was still usable");
        assertTrue(r.executed().size() > 6, "Hermes items ran too");
        List<String> applied = TestHomes.dump(paths.stateDb());
        Map<String, String> claudeApplied = ClaudeTestHomes.tree(home);
        String bid = r.backup().backup_id();

        // an old backup that holds the only copy of both homes' sessions is kept by retention, whatever its age
        Clock later = Clock.offset(TestHomes.CLOCK, Duration.ofDays(40));
        Retention.Backup kept = new Retention(paths, later)
                .run(false).backups().stream()
                        .filter(b -> b.backup_id().equals(bid))
                        .findFirst()
                        .orElseThrow();
        assertTrue(kept.onlyCopy() && kept.only_copy_files() > 0, kept.toString());

        assertThrows(
                Work.Cancelled.class,
                () -> new RestoreEngine(paths, TestHomes.CLOCK).restore(bid, null, null, new CancelAt(1)));
        assertEquals(claudeApplied, ClaudeTestHomes.tree(home), "a cancelled restore moved no Claude Code file back");
        assertEquals(applied, TestHomes.dump(paths.stateDb()), "a cancelled restore put nothing back into state.db");
        CancelAt restoring = new CancelAt(2);
        new RestoreEngine(paths, TestHomes.CLOCK).restore(bid, null, null, restoring);
        increasing(restoring);
        assertEquals(claude, ClaudeTestHomes.tree(home));
        assertEquals(
                logical,
                TestHomes.logicalDump(paths.stateDb()),
                "restored with new message row ids, as Hermes' import does");
        Retention.Backup back = new Retention(paths, later)
                .run(false).backups().stream()
                        .filter(b -> b.backup_id().equals(bid))
                        .findFirst()
                        .orElseThrow();
        assertFalse(back.onlyCopy(), "everything is back: " + back);
        assertEquals("past retention", back.state());
    }

    @Test
    void aFirstIndexBuildStopsWhileReadingAndWritesNoIndex() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        Path recall = RecallEngine.recallDir(paths);
        try (RecallEngine e = new RecallEngine(paths, TestHomes.CLOCK, RecallEngine.Options.LEXICAL)) {
            CancelAt w = new CancelAt(1);
            assertThrows(Work.Cancelled.class, () -> e.sync(w));
            assertTrue(w.messages.get(0).startsWith("indexing "), w.messages.toString());
            try (Stream<Path> left =
                    Files.walk(recall)) { // (Lucene's empty write.lock may stay: a lock file, not index data)
                List<String> data = left.filter(Files::isRegularFile)
                        .map(p -> p.getFileName().toString())
                        .filter(n -> !n.equals("write.lock"))
                        .toList();
                assertEquals(List.of(), data, "no index written");
            }
            CancelAt all = CancelAt.never();
            SyncReport r = e.sync(all);
            assertTrue(r.built());
            increasing(all);
            assertFalse(all.messages.isEmpty());
            assertTrue(files(recall) > 0);
        }
    }
}
