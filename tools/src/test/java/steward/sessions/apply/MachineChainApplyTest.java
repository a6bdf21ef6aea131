package steward.sessions.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.sessions.HermesRows;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/** Apply and restore of rule M's "mark as ended" of a machine session, and of a compaction chain deleted as a whole. */
class MachineChainApplyTest {
    static final String CRON = "20260810_060000_cron01", C1 = "20260720_090000_chain1", C2 = "20260721_090000_chain2";

    @TempDir
    Path tmp;

    StewardPaths paths;
    String current;

    @BeforeEach
    void setUp() throws Exception {
        paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        current = TestHomes.manifest().get("current_session_id").asString();
        double now = TestHomes.NOW.getEpochSecond();
        // a cron run that never got ended_at (last message 6 h ago), and a two-session compaction chain from three
        // weeks ago
        HermesRows.into(paths.stateDb())
                .chat(CRON, "cron", "Morning digest", false, 6, now - 6 * 3600)
                .chat(C1, "cli", null, true, 3, now - 21 * 86400)
                .chat(C2, "cli", null, true, 4, now - 20 * 86400)
                .write();
        HermesRows.sql(paths.stateDb(), "UPDATE sessions SET end_reason = 'compression' WHERE id = '" + C1 + "'");
        HermesRows.sql(paths.stateDb(), "UPDATE sessions SET parent_session_id = '" + C1 + "' WHERE id = '" + C2 + "'");
    }

    Plan audit() {
        return new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 20))
                .plan();
    }

    ApplyResult apply(Plan plan, Map<String, String> items) {
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), items, Map.of(), Map.of(), false, null));
    }

    Object[] row(String id) throws Exception {
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                PreparedStatement ps = c.prepareStatement("SELECT ended_at, end_reason FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Object[] {rs.getObject(1), rs.getString(2)} : null;
            }
        }
    }

    @Test
    void aMachineSessionEndedByRuleMIsActiveAgainAfterRestore() throws Exception {
        Plan plan = audit();
        Plan.PlanItem m = plan.item(CRON);
        assertEquals("M/cron", m.key());
        assertEquals("mark_ended", m.action());
        assertTrue(m.automatic(), "HIGH although titled: the cap does not hold a cron run");
        ApplyResult r = apply(plan, Map.of(C1, "reject"));
        assertTrue(
                r.executed().stream()
                        .anyMatch(d -> d.session_id().equals(CRON) && d.action().equals("mark_ended")),
                r.executed().toString());
        assertEquals("housekeeping", row(CRON)[1]);
        RestoreEngine.Result rr =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), List.of(CRON));
        assertEquals(List.of(CRON), rr.restored());
        assertNull(row(CRON)[0], "active again");
        assertNull(row(CRON)[1]);
    }

    @Test
    void aChainIsDeletedOnlyAsAWholeAndRestoredAsAWhole() throws Exception {
        List<String> before = TestHomes.logicalDump(paths.stateDb());
        Plan plan = audit();
        String chain = plan.item(C1).chain();
        assertEquals("c1", chain, "the chain's own id, no session's");
        assertEquals(chain, plan.item(C2).chain());
        assertTrue(
                plan.item(C1).automatic() && plan.item(C2).automatic(),
                "both members are B/short: the chain goes at HIGH");
        // rejecting the chain (by its own id) keeps both
        ApplyResult kept = apply(plan, Map.of(chain, "reject"));
        assertTrue(
                kept.skipped().stream()
                        .anyMatch(s -> s.session_id().equals(C2) && s.reason().equals("rejected")),
                kept.skipped().toString());
        assertTrue(HermesRows.exists(paths.stateDb(), C1) && HermesRows.exists(paths.stateDb(), C2));
        new RestoreEngine(paths, TestHomes.CLOCK).restore(kept.backup().backup_id(), null);
        assertEquals(before, TestHomes.logicalDump(paths.stateDb()));

        // rejecting one member alone keeps the other too: a chain is never cut
        ApplyResult cut = apply(audit(), Map.of(C2, "reject"));
        assertTrue(
                cut.skipped().stream()
                        .anyMatch(s -> s.session_id().equals(C1)
                                && s.reason().startsWith("deleted only together with its compaction chain")),
                cut.skipped().toString());
        assertTrue(HermesRows.exists(paths.stateDb(), C1) && HermesRows.exists(paths.stateDb(), C2));
        new RestoreEngine(paths, TestHomes.CLOCK).restore(cut.backup().backup_id(), null);

        ApplyResult gone = apply(audit(), Map.of());
        assertFalse(HermesRows.exists(paths.stateDb(), C1));
        assertFalse(HermesRows.exists(paths.stateDb(), C2));
        RestoreEngine.Result rr =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(gone.backup().backup_id(), List.of(C1, C2));
        assertEquals(List.of(C1, C2), rr.restored().stream().sorted().toList());
        assertTrue(HermesRows.exists(paths.stateDb(), C1) && HermesRows.exists(paths.stateDb(), C2));
        new RestoreEngine(paths, TestHomes.CLOCK).restore(gone.backup().backup_id(), null);
        assertEquals(
                before, TestHomes.logicalDump(paths.stateDb()), "sessions, messages, parent link and FTS as before");
    }
}
