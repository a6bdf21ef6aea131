package steward.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import steward.learning.PreferenceData;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;

/**
 * The learning loop on homes that change between runs (sessions inserted, resumed and removed as Hermes does, on a copy
 * of fixtures/hermes-home): what the user said is what runs, no more.
 */
class LearningTrustTest extends FixtureHomeRuns {
    /** Hermes deletes a session (its own auto-prune, or the user in Hermes): children orphaned, messages gone. */
    void hermesDeletes(String id) throws Exception {
        HermesRows.sql(db, "UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = '" + id + "'");
        HermesRows.sql(db, "DELETE FROM messages WHERE session_id = '" + id + "'");
        HermesRows.sql(db, "DELETE FROM sessions WHERE id = '" + id + "'");
    }

    static final String P = "20260810_091500_f20001", K = "20260810_092000_f20002";

    /**
     * A long untitled chat P whose titled subagent K the user keeps while approving P: P cannot go without K, so it is
     * remembered as "you asked to delete it" (rule F).
     */
    void deleteRequestedWithAKeptChild() throws Exception {
        HermesRows.into(db)
                .chat(P, "cli", null, true, 16, epoch() - 3 * 3600)
                .subagent(K, P, "Review notes", true, 6, epoch() - 4 * 3600)
                .write();
        Plan p1 = audit().plan();
        assertEquals(List.of(K), item(p1, P).held_by(), "P's deletion would take K along: asked");
        ApplyResult r1 = apply(p1, Map.of(P, "approve", K, "reject"));
        assertTrue(
                HermesRows.exists(db, P) && HermesRows.exists(db, K),
                r1.skipped().toString());
        assertTrue(prefs().session_level.delete.stream().anyMatch(m -> m.id.equals(P)), "delete asked for");
    }

    @Test
    void aDeleteRequestTheUserRejectedLaterNeverRunsAutomatically() throws Exception {
        deleteRequestedWithAKeptChild();
        later(1);
        Plan p2 = audit().plan();
        Plan.PlanItem asked = item(p2, P);
        assertEquals("F", asked.rule());
        assertNotEquals("HIGH", asked.confidence(), "still asked: it would take the kept K along");
        apply(p2, Map.of(P, "reject")); // the user changed their mind: keep P
        assertTrue(prefs().session_level.delete.stream().noneMatch(m -> m.id.equals(P)), "no longer asked for");
        assertTrue(prefs().session_level.retain.stream().anyMatch(m -> m.id.equals(P)), "kept");
        hermesDeletes(K); // K goes on its own: nothing holds P's deletion back any more
        later(1);
        AuditEngine.Outcome o3 = audit();
        assertFalse(auto(o3.result()).contains(P), "the user said keep it");
        apply(o3.plan(), Map.of());
        assertTrue(HermesRows.exists(db, P));
    }

    @Test
    void aDeleteRequestHoldsOnlyForTheSessionAsTheUserApprovedIt() throws Exception {
        String p = "20260810_091500_f80001", x = "20260810_092000_f80002";
        HermesRows.into(db)
                .chat(p, "cli", null, true, 16, epoch() - 3 * 3600)
                .subagent(x, p, null, true, 2, epoch() - 4 * 3600)
                .write();
        later(4); // x is past rule K's keep-days: a shell rule A deletes on its own
        Plan p1 = audit().plan();
        assertEquals("MEDIUM", item(p1, p).confidence());
        apply(p1, Map.of(p, "approve", x, "reject")); // delete p, but keep x: p cannot go without x
        assertTrue(HermesRows.exists(db, p));
        assertTrue(prefs().session_level.delete.stream().anyMatch(m -> m.id.equals(p)), "delete asked for");
        hermesDeletes(x);
        // the user resumes p (Hermes' reopen_session) from another terminal and talks on
        later(1);
        HermesRows.sql(
                db,
                "UPDATE sessions SET ended_at = NULL, end_reason = NULL, message_count = 17 WHERE id = '" + p + "'");
        HermesRows.sql(
                db,
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('" + p
                        + "', 'user', 'back to this', " + (epoch() - 600) + ")");
        AuditEngine.Outcome o2 = audit();
        assertFalse(
                auto(o2.result()).contains(p),
                "approved as an ended 16-message chat, not as the conversation it is now");
        Plan.PlanItem resumed = item(o2.plan(), p);
        assertTrue(resumed == null || !resumed.rule().equals("F"), String.valueOf(resumed));
        apply(o2.plan(), Map.of());
        assertTrue(HermesRows.exists(db, p));
        // it ends again: its own rule asks about it, as about any long untitled chat
        HermesRows.end(db, p, epoch() - 300, "cli_close");
        later(1);
        AuditEngine.Outcome o3 = audit();
        Plan.PlanItem ended = item(o3.plan(), p);
        assertNotNull(ended);
        assertEquals("B/long", ended.condition());
        assertEquals("MEDIUM", ended.confidence());
        assertFalse(auto(o3.result()).contains(p));
    }

    static PreferenceData.SessionMark request(PreferenceData d, String id) {
        return d.session_level.delete.stream()
                .filter(m -> m.id.equals(id))
                .findFirst()
                .orElse(null);
    }

    /**
     * A delete request whose session Hermes (or the user) deleted since can no longer act: the next run marks it stale,
     * the one after drops it with a record; the kept child it was held by stays kept, nothing else is deleted.
     */
    @Test
    void aDeleteRequestWhoseSessionIsGoneIsMarkedStaleThenDropped() throws Exception {
        deleteRequestedWithAKeptChild();
        assertEquals(null, request(prefs(), P).stale_since, "as seen: it holds");
        hermesDeletes(P);
        later(1);
        apply(audit().plan(), Map.of());
        PreferenceData.SessionMark m = request(prefs(), P);
        assertNotNull(m, "one run is not enough");
        assertEquals("gone", m.stale_reason);
        later(1);
        ApplyResult r = apply(audit().plan(), Map.of());
        assertEquals(null, request(prefs(), P), "dropped after two runs");
        assertTrue(
                prefs().changes.stream()
                        .anyMatch(c -> c.action.equals("stale_request") && c.detail.startsWith(P + " (gone")),
                prefs().changes.toString());
        assertTrue(HermesRows.exists(db, K), "the kept child is untouched");
        assertTrue(prefs().session_level.retain.stream().anyMatch(k -> k.id.equals(K)));
        assertTrue(r.executed() == null
                || r.executed().stream().noneMatch(e -> e.session_id().equals(K)));
    }

    /** Resumed since the user asked: the request is stale (it never acts on the conversation it is now), then dropped. */
    @Test
    void aDeleteRequestWhoseSessionWasResumedIsMarkedStaleThenDroppedAndNeverActs() throws Exception {
        deleteRequestedWithAKeptChild();
        later(1);
        HermesRows.sql(
                db,
                "UPDATE sessions SET ended_at = NULL, end_reason = NULL, message_count = 17 WHERE id = '" + P + "'");
        HermesRows.sql(
                db,
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('" + P
                        + "', 'user', 'back to this', " + (epoch() - 600) + ")");
        AuditEngine.Outcome o1 = audit();
        assertFalse(auto(o1.result()).contains(P));
        apply(o1.plan(), Map.of());
        assertEquals("changed", request(prefs(), P).stale_reason);
        later(1);
        apply(audit().plan(), Map.of());
        assertEquals(null, request(prefs(), P));
        assertTrue(HermesRows.exists(db, P) && HermesRows.exists(db, K));
    }

    @Test
    void restoringADeletionTheUserApprovedTakesTheApprovalBack() throws Exception {
        Plan p1 = audit().plan();
        apply(p1, Map.of(items(p1, "B/long").get(0).item_id(), "approve"));
        later(1);
        Plan p2 = audit().plan();
        Plan.PlanItem x = items(p2, "B/long").get(0);
        ApplyResult r2 = apply(p2, Map.of(x.item_id(), "approve"));
        assertTrue(
                r2.learning().summary().get(0).contains("B/long promoted to HIGH"),
                r2.learning().summary().toString());
        // the user takes back the deletion that made it automatic
        RestoreEngine.Result back = restore(r2, x.session_id());
        String said = String.join(" ", back.learning().summary());
        assertTrue(said.contains("B/long") && said.contains("MEDIUM"), said);
        later(1);
        String fresh = "20260812_090000_f40001";
        HermesRows.into(db).chat(fresh, "cli", null, true, 18, epoch() - 7200).write();
        AuditEngine.Outcome o3 = audit();
        assertEquals("MEDIUM", item(o3.plan(), fresh).confidence(), "not automatic again without a new approval");
        assertFalse(auto(o3.result()).contains(fresh));
        assertFalse(auto(o3.result()).contains(x.session_id()), "the restored session is kept");
        // a new approval, in a run of its own, promotes it again
        apply(o3.plan(), Map.of(fresh, "approve"));
        later(1);
        HermesRows.into(db)
                .chat("20260813_090000_f40002", "cli", null, true, 18, epoch() - 7200)
                .write();
        assertEquals("HIGH", item(audit().plan(), "20260813_090000_f40002").confidence());
    }

    /** A finished subagent shell of a titled parent, past rule K's keep-days: rule A deletes it automatically. */
    void shell(String id) throws Exception {
        HermesRows.into(db)
                .subagent(id, "20260702_112900_0becd7", null, true, 2, epoch() - 5 * DAY)
                .write();
    }

    @Test
    void restoringAnAutomaticDeletionTheUserAlsoApprovedIsAVetoOfItsCondition() throws Exception {
        String s1 = "20260805_100000_a50001", s2 = "20260805_100500_a50002";
        shell(s1);
        Plan p1 = audit().plan();
        assertTrue(item(p1, s1).automatic());
        ApplyResult r1 = apply(p1, Map.of(s1, "approve")); // "approve all": the agent relays it for every item
        assertFalse(HermesRows.exists(db, s1));
        RestoreEngine.Result back = restore(r1, s1);
        assertTrue(HermesRows.exists(db, s1));
        assertTrue(
                String.join(" ", back.learning().summary()).contains("A/shell"),
                back.learning().summary().toString());
        shell(s2);
        later(1);
        AuditEngine.Outcome o2 = audit();
        assertEquals("MEDIUM", item(o2.plan(), s2).confidence(), "restoring what would have run anyway is a veto");
        assertFalse(auto(o2.result()).contains(s2));
    }

    /**
     * The user approves B/long for cli chats in two runs: it runs automatically for cli chats from then on, and only for
     * them. A Telegram chat (gateway) and an untitled cron session of the same condition were never approved: they are
     * still asked, not deleted. Fails on the code before learning keys had families.
     */
    @Test
    void approvalsForCliSessionsNeverPromoteGatewayOrCronSessions() throws Exception {
        String c1 = "20260810_080000_c10001", c2 = "20260811_080000_c10002", c3 = "20260812_080000_c10003";
        String tg = "20260812_080500_c10004", cron = "20260812_081000_c10005";
        HermesRows.into(db).chat(c1, "cli", null, true, 18, epoch() - 7200).write();
        Plan p1 = audit().plan();
        assertEquals("B/long", item(p1, c1).key());
        apply(p1, Map.of(c1, "approve"));
        later(1);
        HermesRows.into(db).chat(c2, "cli", null, true, 18, epoch() - 7200).write();
        ApplyResult r2 = apply(audit().plan(), Map.of(c2, "approve"));
        assertTrue(
                r2.learning().summary().get(0).contains("B/long promoted to HIGH"),
                r2.learning().summary().toString());
        later(1);
        HermesRows.into(db)
                .chat(c3, "cli", null, true, 18, epoch() - 7200)
                .chat(tg, "telegram", null, true, 18, epoch() - 7200)
                .chat(cron, "cron", null, true, 18, epoch() - 7200)
                .write();
        AuditEngine.Outcome o3 = audit();
        assertTrue(auto(o3.result()).contains(c3), "approved for cli chats: runs there");
        for (String id : List.of(tg, cron)) {
            Plan.PlanItem it = item(o3.plan(), id);
            assertNotNull(it, id);
            assertFalse(auto(o3.result()).contains(id), id + " (" + it.key() + ") was never approved");
            assertNotEquals("HIGH", it.confidence(), it.key());
        }
        assertEquals("B/long@gateway", item(o3.plan(), tg).key());
        apply(o3.plan(), Map.of());
        assertFalse(HermesRows.exists(db, c3));
        assertTrue(HermesRows.exists(db, tg) && HermesRows.exists(db, cron), "unanswered: kept");
    }
}
