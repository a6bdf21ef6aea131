package steward.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import steward.learning.PreferenceData;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.Plan;
import steward.sessions.store.Sqlite;

/**
 * An answer on a session's id acts on that session only: a compaction chain is decided as a whole only by its own id
 * ({@code c1}, …), shown on the chain's line with its members, and numbered titles without a parent link are no chain
 * at all. One answer on a chain is one approval for learning. A question that takes subagents along names the running
 * and titled ones on its line.
 */
class ChainAnswerTrustTest extends FixtureHomeRuns {
    static final String N1 = "20260701_020000_nt0001", N2 = "20260706_020000_nt0002", N3 = "20260711_020000_nt0003";

    /** A cron job's runs "cron: nightly", "… #2", "… #3": numbered by Hermes' title lineage, but no continuations. */
    @Test
    void approvingOneNumberedCronRunDeletesOnlyThatRun() throws Exception {
        HermesRows.into(db)
                .chat(N1, "cron", "cron: nightly", true, 3, epoch() - 30 * DAY)
                .chat(N2, "cron", "cron: nightly #2", true, 3, epoch() - 25 * DAY)
                .chat(N3, "cron", "cron: nightly #3", true, 3, epoch() - 20 * DAY)
                .write();
        Plan plan = audit().plan();
        for (String id : List.of(N1, N2, N3)) {
            assertEquals("T/cron", item(plan, id).key(), id);
            assertNull(item(plan, id).chain(), id + ": numbered titles alone are no chain");
        }
        ApplyResult r = apply(plan, Map.of(N1, "approve"));
        assertFalse(HermesRows.exists(db, N1));
        assertTrue(
                HermesRows.exists(db, N2) && HermesRows.exists(db, N3),
                r.executed().toString());
        List<ApplyResult.Done> ours = ours(r, List.of(N1, N2, N3));
        assertEquals(1, ours.size(), ours.toString());
        assertNull(ours.get(0).answered_by(), "its own id decided it");
    }

    static final String WB = "20260801_100000_wr0001", WD = "20260803_100000_wr0002";

    /** Two sessions the user named "Weekly report" and "Weekly report #2": ending one never ends the other. */
    @Test
    void markingOneNumberedSessionEndedNeverEndsItsNamesake() throws Exception {
        HermesRows.into(db)
                .chat(WB, "tui", "Weekly report", false, 10, epoch() - 9 * DAY)
                .chat(WD, "cli", "Weekly report #2", false, 10, epoch() - 7 * DAY)
                .write();
        Plan plan = audit().plan();
        Plan.PlanItem b = item(plan, WB), d = item(plan, WD);
        assertNotNull(b, "stale active sessions are asked about");
        assertNotNull(d);
        assertEquals("mark_ended", b.action(), b.toString());
        assertEquals("mark_ended", d.action(), d.toString());
        assertNull(b.chain());
        apply(plan, Map.of(WB, "approve"));
        assertTrue(ended(WB), "approved");
        assertFalse(ended(WD), "never approved: still active");
    }

    boolean ended(String id) throws Exception {
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement ps = c.prepareStatement("SELECT ended_at FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getObject(1) != null;
            }
        }
    }

    static final String A1 = "20260805_090000_ch0001", A2 = "20260805_120000_ch0002", A3 = "20260805_150000_ch0003";

    /** Three long chats Hermes continued after compressing each: one chain, asked at MEDIUM (B/long). */
    void chain() throws Exception {
        HermesRows.into(db)
                .chat(A1, "cli", null, true, 18, epoch() - 5 * DAY)
                .chat(A2, "cli", null, true, 18, epoch() - 4.9 * DAY)
                .chat(A3, "cli", null, true, 18, epoch() - 4.8 * DAY)
                .write();
        HermesRows.sql(db, "UPDATE sessions SET end_reason = 'compression' WHERE id IN ('" + A1 + "', '" + A2 + "')");
        HermesRows.sql(db, "UPDATE sessions SET parent_session_id = '" + A1 + "' WHERE id = '" + A2 + "'");
        HermesRows.sql(db, "UPDATE sessions SET parent_session_id = '" + A2 + "' WHERE id = '" + A3 + "'");
    }

    @Test
    void aChainIsDecidedByItsOwnIdNeverByItsOldestSessions() throws Exception {
        chain();
        AuditEngine.Outcome o = audit();
        String c = item(o.plan(), A1).chain();
        assertNotNull(c);
        assertFalse(List.of(A1, A2, A3).contains(c), "a chain's id is no session's id");
        for (String id : List.of(A2, A3)) assertEquals(c, item(o.plan(), id).chain(), id);
        assertEquals("B/long", item(o.plan(), A1).key());
        // the report shows the id as standing for the chain, with its members counted and named
        assertTrue(o.text().contains(c + " “—” ×3 (" + A1 + ", " + A2 + ", " + A3 + ") → delete"), o.text());

        // the oldest session's own id decides that session only: it cannot go without its chain, so nothing is deleted
        ApplyResult one = apply(o.plan(), Map.of(A1, "approve"));
        assertTrue(ours(one, List.of(A1, A2, A3)).isEmpty(), one.executed().toString());
        assertTrue(HermesRows.exists(db, A1) && HermesRows.exists(db, A2) && HermesRows.exists(db, A3));
        assertTrue(
                one.skipped().stream()
                        .anyMatch(s -> s.session_id().equals(A1) && s.reason().contains("answer " + c)),
                one.skipped().toString());
        int before = approvals("B/long");

        // the chain's id decides the whole chain: all three go, the result says which answer covered them and why
        later(0.01);
        Plan p2 = audit().plan();
        String c2 = item(p2, A1).chain();
        ApplyResult all = apply(p2, Map.of(c2, "approve"));
        assertFalse(HermesRows.exists(db, A1) || HermesRows.exists(db, A2) || HermesRows.exists(db, A3));
        List<ApplyResult.Done> ours = ours(all, List.of(A1, A2, A3));
        assertEquals(3, ours.size(), all.executed().toString());
        for (ApplyResult.Done x : ours) {
            assertEquals(c2, x.answered_by(), x.toString());
            assertEquals("chain", x.answered_as(), x.toString());
        }
        assertEquals(
                before + 1,
                approvals("B/long"),
                "one answer on the chain is one approval, not one per member: " + all.learning() + prefs().rule_level);
    }

    /**
     * Review of 2026-12-05: a chain's members were counted in their rules' lines (b2 in "B/long", b1 in "B/short"),
     * and approving the line that listed b2 deleted nothing ("answer c5 to decide the whole chain"). A chain is now
     * counted on a line of chains only, whose answer decides whole chains and teaches once per chain.
     */
    @Test
    void aChainIsCountedOnALineOfChainsWhoseAnswerDecidesItWhole() throws Exception {
        chain();
        HermesRows.sql(db, "UPDATE sessions SET message_count = 3 WHERE id = '" + A1 + "'"); // B/short + B/long
        AuditEngine.Outcome o = audit();
        String g = item(o.plan(), A1).group();
        assertNotNull(g, "the chain's line may be answered as a whole");
        for (String id : List.of(A2, A3)) assertEquals(g, item(o.plan(), id).group(), id + ": on the same line");
        var line = o.result().decision_groups().stream()
                .filter(d -> g.equals(d.group_id()))
                .findFirst()
                .orElseThrow();
        assertEquals("chain", line.condition());
        assertEquals(3, line.count(), "its members only: " + line);
        assertTrue(o.text().contains(g + " chain Compaction chains, each deleted whole"), o.text());
        int shortBefore = approvals("B/short"), longBefore = approvals("B/long");

        ApplyResult r = apply(o.plan(), Map.of(g, "approve"));
        assertFalse(HermesRows.exists(db, A1) || HermesRows.exists(db, A2) || HermesRows.exists(db, A3));
        assertEquals(3, ours(r, List.of(A1, A2, A3)).size(), r.executed().toString());
        assertEquals(
                1,
                approvals("B/short") - shortBefore + approvals("B/long") - longBefore,
                "one answer on one chain is one approval: " + prefs().rule_level);
    }

    static List<ApplyResult.Done> ours(ApplyResult r, List<String> ids) {
        return r.executed().stream().filter(x -> ids.contains(x.session_id())).toList();
    }

    int approvals(String key) {
        PreferenceData.RuleState s = prefs().rule_level.get(key);
        return s == null ? 0 : s.approvals;
    }

    static final String P = "20260803_080000_pa0001", RUN = "20260803_080100_pa0002", TIT = "20260803_080200_pa0003";

    /** A deletion that takes a running and a titled subagent along names both on its question line. */
    @Test
    void aQuestionLineNamesTheRunningAndTitledSubagentsItTakesAlong() throws Exception {
        HermesRows.into(db)
                .chat(P, "cli", null, true, 6, epoch() - 6 * DAY)
                .subagent(RUN, P, null, false, 3, epoch() - 600)
                .subagent(TIT, P, "Important subagent finding", true, 12, epoch() - 6 * DAY)
                .write();
        AuditEngine.Outcome o = audit();
        assertEquals(List.of(RUN, TIT), item(o.plan(), P).held_by());
        String line = lineOf(o.text(), P);
        assertTrue(line.contains("+2 subagents taken along"), line);
        assertTrue(line.contains("running: " + RUN), line);
        assertTrue(line.contains("titled: " + TIT + " “Important subagent finding”"), line);
    }

    static final String Q = "20260803_090000_pb0001", YOUNG = "20260803_090100_pb0002";

    /** An ended, untitled subagent is counted, not named: the line stays short. */
    @Test
    void anOrdinarySubagentTakenAlongIsCountedNotNamed() throws Exception {
        HermesRows.into(db)
                .chat(Q, "cli", null, true, 6, epoch() - 6 * DAY)
                .subagent(YOUNG, Q, null, true, 2, epoch() - 3600)
                .write();
        AuditEngine.Outcome o = audit();
        assertEquals(List.of(YOUNG), item(o.plan(), Q).held_by(), "rule K keeps the young subagent: Q is asked");
        String line = lineOf(o.text(), Q);
        assertTrue(line.endsWith("+1 subagent taken along"), line);
        assertFalse(line.contains(YOUNG), line);
    }

    static String lineOf(String text, String id) {
        return text.lines()
                .filter(l -> l.contains(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError(id + " not in\n" + text));
    }
}
