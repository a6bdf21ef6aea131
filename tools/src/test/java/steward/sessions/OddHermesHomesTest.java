package steward.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/**
 * Hermes homes Steward had not seen, found by probing the real jar with odd but possible data: a state.db whose rows
 * Hermes' own code wrote in ways the fixture does not show (in-place compaction, branch children, a schema without a
 * later column, a timestamp a foreign tool wrote as text). Each is reproduced on a copy of fixtures/hermes-home.
 */
class OddHermesHomesTest {
    static final String CURRENT = "20260810_071500_a6a3a4";
    static final double DAY = 86400.0;

    @TempDir
    Path tmp;

    StewardPaths paths;
    Path db;
    final double now = TestHomes.NOW.getEpochSecond();

    @BeforeEach
    void setUp() throws Exception {
        paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        db = paths.stateDb();
    }

    AuditEngine.Outcome audit() {
        return new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(CURRENT, TestHomes.NOW, "interactive", "en", 500));
    }

    ApplyResult applySilently(Plan plan) {
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of(), Map.of(), false, CURRENT, Map.of()));
    }

    static Plan.PlanItem item(Plan p, String sessionId) {
        return p.items().stream()
                .filter(i -> i.session_id().equals(sessionId))
                .findFirst()
                .orElse(null);
    }

    void sql(String... statements) throws Exception {
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            for (String s : statements) st.execute(s);
        }
    }

    /**
     * What Hermes' {@code archive_and_compact} leaves: the session's turns kept on disk as {@code active = 0,
     * compacted = 1} (session_search still finds them) and {@code message_count} set to the live (compacted) count.
     */
    void compactInPlace(String id, int keptLive) throws Exception {
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                try (Statement st = x.createStatement()) {
                    st.executeUpdate("UPDATE messages SET active = 0, compacted = 1 WHERE session_id = '" + id
                            + "' AND active = 1");
                }
                double ts;
                try (PreparedStatement q =
                        x.prepareStatement("SELECT MAX(timestamp) FROM messages WHERE session_id = ?")) {
                    q.setString(1, id);
                    try (ResultSet rs = q.executeQuery()) {
                        rs.next();
                        ts = rs.getDouble(1);
                    }
                }
                try (PreparedStatement ins = x.prepareStatement(
                        "INSERT INTO messages (session_id, role, content, timestamp, active) VALUES (?, ?, ?, ?, 1)")) {
                    for (int i = 0; i < keptLive; i++) {
                        ins.setString(1, id);
                        ins.setString(2, i % 2 == 0 ? "user" : "assistant");
                        ins.setString(3, "summary " + i);
                        ins.setDouble(4, ts);
                        ins.executeUpdate();
                    }
                }
                try (PreparedStatement up = x.prepareStatement("UPDATE sessions SET message_count = ? WHERE id = ?")) {
                    up.setInt(1, keptLive);
                    up.setString(2, id);
                    up.executeUpdate();
                }
                return null;
            });
        }
    }

    // A session compacted in place holds far more messages than its message_count says: the rules that delete
    // without asking because a session is small must count what is on disk.
    @Test
    void aSessionCompactedInPlaceIsNotDeletedUnaskedAsSmall() throws Exception {
        String chat = "20260803_100000_0dd001", sub = "20260803_110000_0dd002", empty = "20260808_100000_0dd003";
        HermesRows.into(db)
                .chat(chat, "cli", null, true, 40, now - 7 * DAY)
                .subagent(sub, CURRENT, "Research quantum ledgers", true, 30, now - 6 * DAY)
                .chat(empty, "cli", null, false, 12, now - 2 * DAY)
                .write();
        compactInPlace(chat, 2);
        compactInPlace(sub, 1);
        compactInPlace(empty, 0);
        Plan p = audit().plan();

        Plan.PlanItem c = item(p, chat);
        assertEquals("B/long", c.condition(), "42 messages on disk, 40 of them found by Hermes' search: asked");
        assertFalse(c.automatic());
        Plan.PlanItem s = item(p, sub);
        assertTrue(s == null || !s.automatic(), "a titled subagent with 31 messages is no shell: " + s);
        Plan.PlanItem e = item(p, empty);
        assertTrue(e == null || !"delete".equals(e.action()), "12 archived messages are not 'no messages': " + e);

        ApplyResult r = applySilently(p);
        List<String> left = ids();
        assertTrue(left.containsAll(List.of(chat, sub, empty)), "nobody approved deleting them: " + r.executed());

        // the user approves deleting the compacted chat: apply's re-read sees it as the audit did (not "changed")
        Plan p2 = audit().plan();
        ApplyResult approved = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(
                        p2.plan_id(),
                        Map.of(item(p2, chat).item_id(), "approve"),
                        Map.of(),
                        Map.of(),
                        false,
                        CURRENT,
                        Map.of()));
        assertFalse(ids().contains(chat), "approved and unchanged since the audit: " + approved.skipped());
    }

    // Hermes' own delete orphans the children it keeps (parent_session_id → NULL); a child left pointing at a deleted
    // session makes Hermes' next upsert of it (resume, every token count) fail with "FOREIGN KEY constraint failed".
    @Test
    void deletingAParentNeverLeavesAKeptChildPointingAtIt() throws Exception {
        String parent = "20260801_100000_0dd010", branch = "20260801_120000_0dd011";
        HermesRows.into(db)
                .chat(parent, "cli", null, true, 3, now - 9 * DAY)
                .chat(branch, "cli", null, true, 25, now - 8 * DAY)
                .write();
        sql(
                "UPDATE sessions SET end_reason = 'branched' WHERE id = '" + parent + "'",
                "UPDATE sessions SET parent_session_id = '" + parent + "', model_config = '{\"_branched_from\": \""
                        + parent + "\"}' WHERE id = '" + branch + "'");
        List<String> before = TestHomes.logicalDump(db);
        Plan p = audit().plan();
        assertTrue(item(p, parent).automatic(), "the untitled 3-message parent goes by rule B");
        assertFalse(item(p, branch).automatic(), "the 25-message branch is asked about");

        ApplyResult r = applySilently(p);
        assertFalse(ids().contains(parent));
        assertTrue(ids().contains(branch));
        assertEquals(List.of(), foreignKeyViolations(), "no session points at a deleted one");
        assertNull(parentOf(branch), "orphaned as Hermes' own delete does");

        new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), null);
        assertEquals(parent, parentOf(branch), "the restore links the branch to its parent again");
        assertEquals(before, TestHomes.logicalDump(db));
    }

    // Undoing one automatic deletion of a subagent whose parent went too: the child comes back without a parent (as
    // Hermes' import brings it), and is linked to it again when the parent is restored.
    @Test
    void aChildRestoredWithoutItsParentIsLinkedWhenTheParentComesBack() throws Exception {
        String parent = "20260801_100000_0dd030", child = "20260801_101000_0dd031";
        HermesRows.into(db)
                .chat(parent, "cli", null, true, 3, now - 9 * DAY)
                .subagent(child, parent, null, true, 2, now - 9 * DAY)
                .write();
        List<String> before = TestHomes.logicalDump(db);
        Plan p = audit().plan();
        assertTrue(item(p, parent).automatic() && item(p, child).automatic());
        ApplyResult r = applySilently(p);
        assertFalse(ids().contains(parent) || ids().contains(child));
        String backup = r.backup().backup_id();

        new RestoreEngine(paths, TestHomes.CLOCK).restore(backup, List.of(child));
        assertTrue(ids().contains(child));
        assertNull(parentOf(child), "its parent is still deleted");
        assertEquals(List.of(), foreignKeyViolations());

        new RestoreEngine(paths, TestHomes.CLOCK).restore(backup, List.of(parent));
        assertEquals(parent, parentOf(child));
        new RestoreEngine(paths, TestHomes.CLOCK).restore(backup, null); // the fixture's own automatic deletions
        assertEquals(before, TestHomes.logicalDump(db));
    }

    // A state.db without the archived column (the audit reads it as optional) must also be applied and restored.
    @Test
    void aStateDbWithoutTheArchivedColumnIsAppliedAndRestored() throws Exception {
        sql("ALTER TABLE sessions DROP COLUMN archived");
        List<String> before = TestHomes.logicalDump(db);
        Plan p = audit().plan();
        ApplyResult r = applySilently(p);
        assertTrue(r.executed_count() > 0);
        assertNotNull(r.backup());
        new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), null);
        assertEquals(before, TestHomes.logicalDump(db));
    }

    // SQLite orders any text above every number: one message time written as text (by a foreign tool) made MAX() return
    // it, the last activity fell back to the start, and a telegram thread active 30 minutes ago was ended as idle.
    @Test
    void aTextTimestampDoesNotHideRecentActivity() throws Exception {
        String tg = "20260805_100000_0dd020";
        HermesRows.into(db).chat(tg, "telegram", null, false, 20, now - 1800).write();
        sql(
                "UPDATE sessions SET started_at = " + (now - 5 * DAY) + " WHERE id = '" + tg + "'",
                "UPDATE messages SET timestamp = '2026-08-05 10:00:00' WHERE id = "
                        + "(SELECT MIN(id) FROM messages WHERE session_id = '" + tg + "')");
        Plan.PlanItem t = item(audit().plan(), tg);
        assertTrue(t == null || !"mark_ended".equals(t.action()), "active 30 minutes ago: " + t);
    }

    // A rename is written as Hermes' own set_session_title would store it: its sanitize_title removes zero-width and
    // bidi-override characters and collapses whitespace runs, so a title Steward wrote raw could not be found again by
    // the title a user types (and could reorder how it is displayed).
    @Test
    void aRenameIsStoredAsHermesWouldStoreIt() throws Exception {
        String nameless = null;
        for (var s : TestHomes.manifest().get("sessions"))
            if (s.get("kind").asString().equals("C_untitled"))
                nameless = s.get("id").asString();
        Plan p = audit().plan();
        assertNotNull(item(p, nameless));
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(
                        p.plan_id(),
                        Map.of(),
                        Map.of(),
                        Map.of(nameless, "\u202eevil\u200b  title\t\u2066x\u2069 "),
                        false,
                        CURRENT,
                        Map.of()));
        assertTrue(r.executed().stream().anyMatch(d -> d.action().equals("rename")));
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement ps = c.prepareStatement("SELECT title FROM sessions WHERE id = ?")) {
            ps.setString(1, nameless);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("evil title x", rs.getString(1));
            }
        }
        Plan p2 = audit().plan();
        String other = p2.items().stream()
                .filter(i -> i.action().equals("delete") || i.action().equals("mark_ended"))
                .findFirst()
                .orElseThrow()
                .session_id();
        var e = org.junit.jupiter.api.Assertions.assertThrows(
                steward.StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .apply(new ApplyRequest(
                                p2.plan_id(),
                                Map.of(),
                                Map.of(),
                                Map.of(other, "\u200b\u200b"),
                                false,
                                CURRENT,
                                Map.of())));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
    }

    List<String> ids() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id FROM sessions")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    String parentOf(String id) throws Exception {
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement ps = c.prepareStatement("SELECT parent_session_id FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    List<String> foreignKeyViolations() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA foreign_key_check(sessions)")) {
            while (rs.next()) out.add(rs.getString(1) + " rowid " + rs.getLong(2) + " → " + rs.getString(3));
        }
        return out;
    }
}
