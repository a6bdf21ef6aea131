package steward.work;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.Work;
import steward.config.StewardPaths;
import steward.recall.RecallEngine;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.backup.RestoreEngine;
import steward.testing.TestHomes;

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
        for (int i = 1; i < w.values.size(); i++) assertTrue(w.values.get(i) > w.values.get(i - 1), "progress only increases: " + w.values);
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
        assertEquals(List.of("listing sessions", "classifying 62 sessions", "building the report"), all.messages.subList(0, 3));
        long plans = files(paths.stateDir().resolve("plans"));
        assertEquals(1, plans);
        for (int n = 1; n <= 3; n++) {
            CancelAt w = new CancelAt(n);
            assertThrows(Work.Cancelled.class, () -> new AuditEngine(paths, TestHomes.CLOCK).audit(request(), w));
            assertEquals(plans, files(paths.stateDir().resolve("plans")), "cancelled at report " + n + ": no plan saved");
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
        String plan = new AuditEngine(paths, TestHomes.CLOCK).audit(request()).plan().plan_id();
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
        assertThrows(Work.Cancelled.class, () -> new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), List.of(), restore));
        assertEquals(applied, TestHomes.dump(paths.stateDb()), "a cancelled restore put nothing back");
        RestoreEngine.Result back = new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), List.of(), new CancelAt(2));
        assertEquals(r.executed_count(), back.restored().size(), "past its safe point a restore runs to its end");
        assertEquals(db, TestHomes.dump(paths.stateDb()));
    }

    @Test
    void aFirstIndexBuildStopsWhileReadingAndWritesNoIndex() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        Path recall = RecallEngine.recallDir(paths);
        try (RecallEngine e = new RecallEngine(paths, TestHomes.CLOCK, RecallEngine.Options.LEXICAL)) {
            CancelAt w = new CancelAt(1);
            assertThrows(Work.Cancelled.class, () -> e.sync(w));
            assertTrue(w.messages.get(0).startsWith("reading "), w.messages.toString());
            assertEquals(0, files(recall), "no index written");
            CancelAt all = CancelAt.never();
            RecallEngine.SyncReport r = e.sync(all);
            assertTrue(r.built());
            increasing(all);
            assertFalse(all.messages.isEmpty());
            assertTrue(files(recall) > 0);
        }
    }
}
