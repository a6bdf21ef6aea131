package steward.sessions.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.learning.PreferenceStore;
import steward.learning.Preferences;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

class ApplyEngineTest {
    @TempDir
    Path tmp;

    Path home;
    StewardPaths paths;
    JsonNode manifest;
    String current;

    @BeforeEach
    void setUp() throws Exception {
        home = TestHomes.copyFixture(tmp);
        paths = StewardPaths.of(home);
        manifest = TestHomes.manifest();
        current = manifest.get("current_session_id").asString();
    }

    AuditEngine.Outcome audit(String mode) {
        return new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(current, TestHomes.NOW, mode, "en", 20));
    }

    ApplyEngine apply() {
        return new ApplyEngine(paths, TestHomes.CLOCK);
    }

    String idOfKind(String kind) {
        for (JsonNode s : manifest.get("sessions"))
            if (s.get("kind").asString().equals(kind)) return s.get("id").asString();
        throw new IllegalArgumentException(kind);
    }

    Set<String> sessionIds() throws Exception {
        Set<String> out = new HashSet<>();
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                PreparedStatement ps = c.prepareStatement("SELECT id FROM sessions");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    /**
     * Review of 2026-12-04: a rename to a title another session has (Hermes' titles are unique) showed ✓ in the dry run,
     * and the apply then refused it. The dry run refuses it the same way and changes nothing.
     */
    @Test
    void aDryRunRefusesARenameToATitleInUseAsTheApplyDoes() throws Exception {
        Plan plan = audit("interactive").plan();
        String nameless = idOfKind("C_untitled");
        String taken;
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT title FROM sessions WHERE title IS NOT NULL ORDER BY id LIMIT 1")) {
            rs.next();
            taken = rs.getString(1);
        }
        List<String> before = TestHomes.dump(paths.stateDb());
        for (boolean dry : new boolean[] {true, false}) {
            StewardError e = org.junit.jupiter.api.Assertions.assertThrows(
                    StewardError.class,
                    () -> apply().apply(new ApplyRequest(
                            plan.plan_id(), Map.of(), Map.of(), Map.of(nameless, taken), dry, null)));
            assertTrue(e.getMessage().contains("is already used by session"), e.getMessage());
        }
        assertEquals(before, TestHomes.dump(paths.stateDb()));
    }

    @Test
    void applyThenRestoreLeavesSessionsMessagesAndFtsIdentical() throws Exception {
        String shell = idOfKind("A_shell");
        Path sd = Files.createDirectories(home.resolve("sessions"));
        Files.writeString(sd.resolve(shell + ".json"), "{}");
        Files.writeString(sd.resolve("request_dump_" + shell + "_1.json"), "{}");
        List<String> before = TestHomes.dump(paths.stateDb());
        List<String> logicalBefore = TestHomes.logicalDump(paths.stateDb());
        Plan plan = audit("interactive").plan();
        String nameless = idOfKind("C_untitled");
        ApplyResult r = apply().apply(new ApplyRequest(
                plan.plan_id(),
                Map.of(),
                Map.of("B", "approve", "D", "approve"),
                Map.of(nameless, "Named subagent"),
                false,
                null));
        assertNotNull(r.backup());
        assertTrue(r.executed().stream().anyMatch(d -> d.action().equals("mark_ended")));
        assertTrue(r.executed().stream().anyMatch(d -> d.action().equals("rename")));
        assertTrue(r.fts_verified());
        assertFalse(sessionIds().contains(shell));
        assertFalse(Files.exists(sd.resolve(shell + ".json")), "side file moved into the backup");
        assertTrue(Files.size(Path.of(r.backup().path())) > 0);
        assertNotEquals(before, TestHomes.dump(paths.stateDb()));

        RestoreEngine.Result rr =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), null);
        var prefs =
                new PreferenceStore(paths.stateDir(), TestHomes.CLOCK).read().view();
        assertTrue(prefs.kept(shell), "restoring takes the deletion back: the session is kept from now on");
        assertEquals("ok", rr.learning().status());
        assertTrue(
                new AuditEngine(paths, TestHomes.CLOCK)
                                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500))
                                .result()
                                .groups()
                                .auto()
                                .items()
                                .stream()
                                .noneMatch(i -> rr.restored().contains(i.session_id())),
                "nothing restored runs automatically again");
        assertTrue(rr.skipped().isEmpty(), rr.skipped().toString());
        assertEquals(
                logicalBefore,
                TestHomes.logicalDump(paths.stateDb()),
                "sessions, messages and FTS are logically identical again");
        assertTrue(
                rr.checklist().stream().allMatch(RestoreEngine.Check::ok),
                rr.checklist().toString());
        assertTrue(Files.exists(sd.resolve(shell + ".json")));
        assertTrue(Files.exists(sd.resolve("request_dump_" + shell + "_1.json")));

        RestoreEngine.Result again = new RestoreEngine(paths).restore(r.backup().backup_id(), List.of(shell));
        assertEquals("exists again", again.skipped().get(0).reason());
    }

    @Test
    void itemChangedByAWriterBetweenAuditAndApplyIsSkipped() throws Exception {
        Plan plan = audit("interactive").plan();
        String victim = idOfKind("B_high");
        try (Connection c = Sqlite.openReadWrite(paths.stateDb())) {
            Sqlite.immediate(c, x -> {
                try (PreparedStatement ps = x.prepareStatement(
                        "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'still here', ?)")) {
                    ps.setString(1, victim);
                    ps.setDouble(2, 1786363190.0);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps =
                        x.prepareStatement("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?")) {
                    ps.setString(1, victim);
                    ps.executeUpdate();
                }
                return null;
            });
        }
        ApplyResult r = apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null));
        assertTrue(r.skipped().stream()
                .anyMatch(s -> s.session_id().equals(victim) && s.reason().equals("changed since audit")));
        assertTrue(sessionIds().contains(victim));
        assertTrue(r.executed_count() > 0);
    }

    @Test
    void backupFailureChangesNothing() throws Exception {
        Plan plan = audit("interactive").plan();
        List<String> before = TestHomes.dump(paths.stateDb());
        Files.writeString(paths.stateDir().resolve("backups"), "not a directory"); // the state dir cannot take a backup
        StewardError e = assertThrows(
                StewardError.class,
                () -> apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null)));
        assertTrue(e.getMessage().contains("backup failed"), e.getMessage());
        assertEquals(before, TestHomes.dump(paths.stateDb()));
        Files.delete(paths.stateDir().resolve("backups"));
        ApplyResult r = apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null));
        assertTrue(r.executed_count() > 0, "the plan was released and can be applied once the state dir is fixed");
    }

    @Test
    void headlessExecutesOnlyRuleA() throws Exception {
        Plan plan = audit("headless").plan();
        String medium = idOfKind("B_medium");
        assertThrows(
                StewardError.class,
                () -> apply().apply(new ApplyRequest(plan.plan_id(), null, Map.of("B", "approve"), null, false, null)),
                "nothing is asked in headless mode: a rule decision covers no question");
        ApplyResult r =
                apply().apply(new ApplyRequest(plan.plan_id(), Map.of(medium, "approve"), null, null, false, null));
        assertTrue(r.executed_count() > 0);
        assertTrue(sessionIds().contains(medium));
        assertTrue(
                r.executed().stream().allMatch(d -> d.rule().equals("A")),
                r.executed().toString());
        assertTrue(sessionIds().contains(idOfKind("B_high")));
        assertTrue(r.skipped().stream()
                .anyMatch(s -> s.rule().equals("B") && s.reason().startsWith("report only")));
    }

    @Test
    void currentAndTitledActiveSessionsAreNeverAutoExecuted() throws Exception {
        Plan plan = audit("interactive").plan();
        ApplyResult r = apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null));
        Set<String> ids = sessionIds();
        for (JsonNode s : manifest.get("sessions")) {
            boolean titledActive = s.get("active").asBoolean()
                    && !s.get("title").isNull()
                    && !s.get("source").asString().equals("subagent");
            if (titledActive || s.get("id").asString().equals(current))
                assertTrue(ids.contains(s.get("id").asString()), s.toString());
        }
        // only rule M's machine sessions (the fixture's subagents left active for days) are ended without being asked
        assertTrue(
                r.executed().stream()
                        .noneMatch(d ->
                                d.action().equals("mark_ended") && !d.rule().equals("M")),
                "mark_ended is never HIGH here");
        assertTrue(
                r.executed().stream()
                        .anyMatch(
                                d -> d.action().equals("mark_ended") && d.rule().equals("M")),
                r.executed().toString());
        assertTrue(r.skipped().stream().anyMatch(s -> s.reason().startsWith("not answered")));
    }

    @Test
    void badInputIsRefusedAndChangesNothing() throws Exception {
        Plan plan = audit("interactive").plan();
        List<String> before = TestHomes.dump(paths.stateDb());
        String ended = idOfKind("ended_titled");
        String nameless = idOfKind("C_untitled");
        List<ApplyRequest> bad = List.of(
                new ApplyRequest("p_nothex", null, null, null, false, null),
                new ApplyRequest("p_0000000000000000", null, null, null, false, null),
                new ApplyRequest(plan.plan_id(), Map.of(ended, "approve"), null, null, false, null),
                new ApplyRequest(plan.plan_id(), Map.of("nope", "approve"), null, null, false, null),
                new ApplyRequest(plan.plan_id(), null, Map.of("Z", "approve"), null, false, null),
                new ApplyRequest(plan.plan_id(), Map.of(nameless, "maybe"), null, null, false, null),
                new ApplyRequest(
                        plan.plan_id(), null, null, Map.of(nameless, "O'Brien; DROP TABLE sessions;--"), false, null),
                new ApplyRequest(plan.plan_id(), null, null, Map.of(nameless, "   "), false, null),
                new ApplyRequest(plan.plan_id(), null, null, Map.of(current, "Mine"), false, null));
        for (ApplyRequest req : bad) {
            assertThrows(StewardError.class, () -> apply().apply(req), req.toString());
            assertEquals(before, TestHomes.dump(paths.stateDb()), req.toString());
        }
        // expired
        ApplyEngine late = new ApplyEngine(paths, Clock.offset(TestHomes.CLOCK, Duration.ofHours(25)));
        StewardError ex = assertThrows(
                StewardError.class, () -> late.apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null)));
        assertTrue(ex.getMessage().contains("expired"), ex.getMessage());
        // foreign database: a plan made for another copy
        Path other = TestHomes.copyFixture(tmp.resolve("other"));
        Plan foreign = new AuditEngine(StewardPaths.of(other), TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 20))
                .plan();
        Files.copy(
                other.resolve("steward/plans/" + foreign.plan_id() + ".json"),
                paths.stateDir().resolve("plans/" + foreign.plan_id() + ".json"));
        ex = assertThrows(
                StewardError.class,
                () -> apply().apply(new ApplyRequest(foreign.plan_id(), null, null, null, false, null)));
        assertTrue(ex.getMessage().contains("another database"), ex.getMessage());
        assertEquals(before, TestHomes.dump(paths.stateDb()));
        // dry run changes nothing and does not use the plan; the real apply does, once
        ApplyResult dry = apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, true, null));
        assertTrue(dry.dry_run() && dry.executed_count() > 0 && dry.backup() == null);
        assertEquals(before, TestHomes.dump(paths.stateDb()));
        apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null));
        ex = assertThrows(
                StewardError.class,
                () -> apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null)));
        assertTrue(ex.getMessage().contains("already used"), ex.getMessage());
    }

    /** The report's group ids: one answer for exactly the items a line counted; the trust rules hold. */
    @Test
    void aGroupAnswerCoversExactlyItsLineAndNothingElse() throws Exception {
        AuditEngine.Outcome o = audit("interactive");
        Plan plan = o.plan();
        var groups = o.result().decision_groups();
        var shells = groups.stream()
                .filter(g -> g.section().equals("auto") && "A/shell".equals(g.condition()))
                .findFirst()
                .orElseThrow();
        var stale = groups.stream()
                .filter(g -> g.section().equals("ask") && "D/stale".equals(g.condition()))
                .findFirst()
                .orElseThrow();
        // an unknown group id is refused like an unknown item
        assertThrows(
                StewardError.class,
                () -> apply().apply(
                                new ApplyRequest(plan.plan_id(), Map.of("q99", "approve"), null, null, true, null)));
        // silence is never approval: without an answer the LOW question does nothing, the automatic group runs
        ApplyResult silent = apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, true, null));
        Set<String> ran = new HashSet<>();
        silent.executed().forEach(d -> ran.add(d.item_id()));
        assertTrue(ran.containsAll(shells.item_ids()));
        assertTrue(stale.item_ids().stream().noneMatch(ran::contains));
        // rejecting the automatic group keeps all of it; approving the D/stale line marks exactly its items, one of
        // them kept by id
        String keptById = stale.item_ids().get(0);
        ApplyResult r = apply().apply(new ApplyRequest(
                plan.plan_id(),
                Map.of(shells.group_id(), "reject", stale.group_id(), "approve", keptById, "reject"),
                null,
                null,
                true,
                null));
        Set<String> done = new HashSet<>();
        r.executed().forEach(d -> done.add(d.item_id()));
        assertTrue(shells.item_ids().stream().noneMatch(done::contains), "a rejected automatic group runs nothing");
        for (String id : stale.item_ids())
            assertEquals(!id.equals(keptById), done.contains(id), id + ": an item's own answer outranks its group's");
        // nothing outside the line: every session rule D marked is one the line counted (rule M's own automatic group
        // of machine sessions, not rejected here, ends the rest)
        for (ApplyResult.Done d : r.executed()) {
            if (d.action().equals("mark_ended")) {
                assertTrue(stale.item_ids().contains(d.item_id()) || d.rule().equals("M"), d.toString());
                if (d.rule().equals("M"))
                    assertTrue(
                            groups.stream()
                                    .anyMatch(g -> g.section().equals("auto")
                                            && g.item_ids().contains(d.item_id())),
                            d.toString());
            }
        }
        assertEquals(stale.count(), stale.item_ids().size());
    }

    @Test
    void databaseLockedPastTheRetryBudgetIsAClearErrorAndChangesNothing() throws Exception {
        Plan plan = audit("interactive").plan();
        List<String> before = TestHomes.dump(paths.stateDb());
        try (Connection hermes = Sqlite.openReadWrite(paths.stateDb());
                Statement st = hermes.createStatement()) {
            st.execute("BEGIN IMMEDIATE"); // another writer holds the lock for the whole attempt
            StewardError e = assertThrows(
                    StewardError.class,
                    () -> apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null)));
            assertTrue(e.getMessage().contains("locked"), e.getMessage());
            st.execute("ROLLBACK");
        }
        assertEquals(before, TestHomes.dump(paths.stateDb()));
        assertTrue(
                apply().apply(new ApplyRequest(plan.plan_id(), null, null, null, false, null))
                                .executed_count()
                        > 0,
                "the plan was released and works once the lock is gone");
    }

    @Test
    void hostileTitleIsJustATitle() throws Exception {
        Plan plan = audit("interactive").plan();
        String nameless = idOfKind("C_untitled");
        String hostileActive = "20260803_110500_85b9c0";
        String title = "Robert'); DROP TABLE sessions;-- 100%_x";
        ApplyResult r = apply().apply(new ApplyRequest(
                plan.plan_id(), Map.of(hostileActive, "approve"), null, Map.of(nameless, title), false, null));
        assertTrue(r.executed().stream()
                .anyMatch(
                        d -> d.session_id().equals(hostileActive) && d.action().equals("mark_ended")));
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                PreparedStatement ps = c.prepareStatement("SELECT title FROM sessions WHERE id = ?")) {
            ps.setString(1, nameless);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(title, rs.getString(1));
            }
        }
        assertTrue(
                sessionIds().contains("20260803_070000_ee241c"), "the sessions table and the O'Brien session survive");
    }
}
