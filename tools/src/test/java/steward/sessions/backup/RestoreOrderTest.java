package steward.sessions.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.sessions.HermesRows;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.testing.TestHomes;

/**
 * Review of 2026-12-04: a machine session marked ended (rule M) was deleted by the next apply (ended and untitled: rule
 * B); the first apply's undo line then failed with "changed since apply (no longer ended by housekeeping)" and did not
 * say where the session was. It now names the later backup to restore first; restoring in that order brings it back.
 */
class RestoreOrderTest {
    @TempDir
    Path tmp;

    @Test
    void undoingAnEndOfASessionDeletedSinceNamesTheBackupThatHoldsIt() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        Plan p1 = audit(paths);
        ApplyResult r1 = applyHigh(paths, p1);
        String ended = r1.executed().stream()
                .filter(d -> d.action().equals("mark_ended"))
                .map(ApplyResult.Done::session_id)
                .filter(id -> p1.items().stream()
                        .anyMatch(i -> i.session_id().equals(id)
                                && i.rule().equals("M")
                                && i.fingerprint().title() == null))
                .findFirst()
                .orElseThrow();
        Instant later = TestHomes.NOW.plusSeconds(3600);
        Clock c2 = Clock.fixed(later, ZoneOffset.UTC);
        Plan p2 = new AuditEngine(paths, c2)
                .audit(new AuditRequest(null, later, "interactive", "en", 20))
                .plan();
        Plan.PlanItem del = p2.items().stream()
                .filter(i -> i.session_id().equals(ended) && i.action().equals("delete"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the ended session is rule B's now"));
        ApplyResult r2 = new ApplyEngine(paths, c2)
                .apply(new ApplyRequest(
                        p2.plan_id(), Map.of(del.item_id(), "approve"), Map.of(), Map.of(), false, null));
        assertTrue(
                r2.executed().stream().anyMatch(d -> d.session_id().equals(ended)),
                r2.executed().toString());
        String b1 = r1.backup().backup_id(), b2 = r2.backup().backup_id();

        RestoreEngine.Result first = new RestoreEngine(paths, c2).restore(b1, List.of(ended));
        assertEquals(List.of(), first.restored());
        assertEquals(
                "deleted since by the apply of backup " + b2 + ": restore it from " + b2 + " first, then this",
                first.skipped().get(0).reason());
        assertEquals(
                List.of(ended),
                new RestoreEngine(paths, c2).restore(b2, List.of(ended)).restored());
        assertEquals(
                List.of(ended),
                new RestoreEngine(paths, c2).restore(b1, List.of(ended)).restored());
    }

    /**
     * Review of 2026-12-05: with Hermes' auto_prune on, sessions this apply ended were deleted by Hermes' next prune,
     * and restoring the apply skipped them ("no longer in state.db (deleted since)") although the backup held them
     * whole. Undoing the apply now brings them back as they were before it.
     */
    @Test
    void aSessionThisApplyEndedAndHermesDeletedSinceIsBroughtBackFromTheBackup() throws Exception {
        StewardPaths paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        Plan p1 = audit(paths);
        ApplyResult r1 = applyHigh(paths, p1);
        String ended = r1.executed().stream()
                .filter(d -> d.action().equals("mark_ended"))
                .map(ApplyResult.Done::session_id)
                .findFirst()
                .orElseThrow();
        Path db = paths.stateDb();
        int messages = count(db, "SELECT COUNT(*) FROM messages WHERE session_id = '" + ended + "'");
        assertTrue(messages > 0);
        // Hermes' prune_sessions: the session's messages, then the session, in one transaction
        HermesRows.sql(db, "DELETE FROM messages WHERE session_id = '" + ended + "'");
        HermesRows.sql(db, "DELETE FROM sessions WHERE id = '" + ended + "'");

        RestoreEngine.Result r =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r1.backup().backup_id(), null);
        assertTrue(r.restored().contains(ended), r.skipped().toString());
        assertTrue(HermesRows.exists(db, ended));
        assertEquals(messages, count(db, "SELECT COUNT(*) FROM messages WHERE session_id = '" + ended + "'"));
        assertEquals(
                1,
                count(db, "SELECT COUNT(*) FROM sessions WHERE id = '" + ended + "' AND ended_at IS NULL"),
                "as before the apply: active");
        assertTrue(
                r.checklist().stream()
                        .anyMatch(c ->
                                c.check().equals("brought_back") && c.detail().contains(ended)),
                r.checklist().toString());
        assertTrue(
                r.checklist().stream().anyMatch(c -> c.check().equals("fts_integrity") && c.ok()),
                "Hermes' search index holds the re-created messages");
    }

    /** The fixture's audit at its clock. */
    private static Plan audit(StewardPaths paths) {
        return new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .plan();
    }

    /** Its HIGH items, nothing answered. */
    private static ApplyResult applyHigh(StewardPaths paths, Plan p) {
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(p.plan_id(), Map.of(), Map.of(), Map.of(), false, null));
    }

    private static int count(Path db, String sql) throws Exception {
        try (var c = steward.sessions.store.Sqlite.openReadOnly(db);
                var st = c.createStatement();
                var rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
