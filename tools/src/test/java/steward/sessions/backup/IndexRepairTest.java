package steward.sessions.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.store.FtsIndex;
import steward.testing.TestHomes;

class IndexRepairTest {
    @TempDir
    Path tmp;

    Plan audit(StewardPaths paths) {
        return new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .plan();
    }

    @Test
    void consistentIndexIsLeftAloneUnlessForced() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        List<String> before = TestHomes.dump(paths.stateDb());
        IndexRepair.Result r = new IndexRepair(paths, TestHomes.CLOCK).run(false);
        assertFalse(r.rebuilt());
        assertNull(r.backup_path());
        assertEquals(before, TestHomes.dump(paths.stateDb()));
        assertFalse(
                Files.exists(paths.stateDir().resolve("backups/state-db")), "nothing written when nothing is to do");
        IndexRepair.Result forced = new IndexRepair(paths, TestHomes.CLOCK).run(true);
        assertTrue(forced.rebuilt());
        assertTrue(forced.after().ok());
        assertEquals(before, TestHomes.dump(paths.stateDb()), "a rebuild of a consistent index indexes the same rows");
    }

    @Test
    void damagedIndexBlocksApplyAndRestoreUntilTheBackedUpRebuild() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        Plan first = audit(paths);
        ApplyResult applied = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(first.plan_id(), Map.of(), Map.of(), Map.of(), false, null));
        TestHomes.damageFts(paths.stateDb());
        List<String> damaged = TestHomes.dump(paths.stateDb());

        Plan plan = audit(paths);
        StewardError e = assertThrows(
                StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of(), Map.of(), false, null)));
        assertTrue(
                e.getMessage().contains("search index is inconsistent")
                        && e.getMessage().contains("nothing was changed"),
                e.getMessage());
        assertTrue(
                Files.isRegularFile(paths.stateDir().resolve("plans/" + plan.plan_id() + ".json")),
                "the plan was not used");
        StewardError r = assertThrows(
                StewardError.class,
                () -> new RestoreEngine(paths, TestHomes.CLOCK)
                        .restore(applied.backup().backup_id(), null));
        assertTrue(r.getMessage().startsWith("session_restore: Hermes' search index is inconsistent"), r.getMessage());
        assertEquals(damaged, TestHomes.dump(paths.stateDb()), "neither call changed a row");

        IndexRepair.Result fixed = new IndexRepair(paths, TestHomes.CLOCK).run(false);
        assertTrue(fixed.rebuilt());
        assertFalse(fixed.before().ok());
        assertTrue(fixed.after().ok(), fixed.after().summary());
        Path backup = Path.of(fixed.backup_path());
        assertTrue(backup.startsWith(paths.stateDir().resolve("backups/state-db")));
        assertFalse(FtsIndex.check(backup).ok(), "the backup is the database as it was, damage included");

        RestoreEngine.Result rr = new RestoreEngine(paths, TestHomes.CLOCK)
                .restore(applied.backup().backup_id(), null);
        assertTrue(rr.checklist().get(0).ok());
    }

    @Test
    void missingDatabaseIsAClearError() {
        StewardPaths paths = StewardPaths.of(tmp.resolve("nohome"));
        StewardError e = assertThrows(StewardError.class, () -> new IndexRepair(paths, TestHomes.CLOCK).run(true));
        assertTrue(e.getMessage().startsWith("repair-index: no state.db at "), e.getMessage());
    }
}
