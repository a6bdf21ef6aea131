package steward.learning;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
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
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/** The learning loop (steward.learning) wired into real audit → apply runs on a copy of the fixture. */
class HousekeepingLearningTest {
    static final String CURRENT = "20260810_071500_a6a3a4";

    @TempDir
    Path tmp;

    StewardPaths paths;

    @BeforeEach
    void setUp() throws Exception {
        paths = StewardPaths.of(TestHomes.copyFixture(tmp));
    }

    /** A fresh engine every time: what was learned must come from the file (restart-safety). */
    AuditEngine.Outcome audit() {
        return new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(CURRENT, TestHomes.NOW, "interactive", "en", 500));
    }

    ApplyResult apply(Plan plan, Map<String, String> items, Map<String, String> rules) {
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), items, rules, null, false, CURRENT));
    }

    ApplyResult apply(
            Plan plan, Map<String, String> items, Map<String, String> rules, Map<String, String> keepReasons) {
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), items, rules, null, false, CURRENT, keepReasons));
    }

    PreferenceStore store() {
        return new PreferenceStore(paths.stateDir(), TestHomes.CLOCK);
    }

    PreferenceAdmin admin() {
        return new PreferenceAdmin(store(), TestHomes.CLOCK);
    }

    PreferenceData data() {
        return store().read().data();
    }

    /** The level a rule condition runs at now, as rule F sees it. */
    Level level(String rule, String condition, Level base) {
        return store().read().view().adjust(rule, condition, base).level();
    }

    static List<Plan.PlanItem> items(Plan p, String condition) {
        List<Plan.PlanItem> out = new ArrayList<>();
        for (Plan.PlanItem i : p.items()) if (condition.equals(i.condition()) && i.cascade_of() == null) out.add(i);
        return out;
    }

    @Test
    void mediumApprovedTwiceOverTwoRunsIsPromotedToHigh() {
        Plan p1 = audit().plan();
        assertEquals("MEDIUM", items(p1, "B/long").get(0).confidence());
        apply(p1, Map.of(items(p1, "B/long").get(0).item_id(), "approve"), Map.of());
        Plan p2 = audit().plan();
        assertTrue(
                items(p2, "B/long").stream().allMatch(i -> i.confidence().equals("MEDIUM")),
                "one approval is not enough");
        ApplyResult r2 = apply(p2, Map.of(items(p2, "B/long").get(0).item_id(), "approve"), Map.of());
        assertTrue(
                r2.learning().summary().get(0).contains("B/long promoted to HIGH"),
                r2.learning().summary().toString());
        assertTrue(r2.learning().summary().size() <= 3);
        Plan p3 = audit().plan();
        assertFalse(items(p3, "B/long").isEmpty());
        assertEquals(Level.HIGH, level("B", "long", Level.MEDIUM));
        // the promotion runs what the user was never asked about; a session asked about before and left unanswered
        // stays a question (silence is never approval)
        for (Plan.PlanItem i : items(p3, "B/long")) {
            boolean waited = data().waiting.stream().anyMatch(w -> w.session_id.equals(i.session_id()));
            assertEquals(waited ? "MEDIUM" : "HIGH", i.confidence(), i.toString());
            assertTrue(i.reason().contains(waited ? "not answered yet: still asked" : "you approved 2"), i.reason());
        }
    }

    @Test
    void twoApprovalsInOneRunAreNotEnough() {
        Plan p1 = audit().plan();
        List<Plan.PlanItem> b = items(p1, "B/long");
        apply(p1, Map.of(b.get(0).item_id(), "approve", b.get(1).item_id(), "approve"), Map.of());
        List<Plan.PlanItem> after = items(audit().plan(), "B/long");
        assertFalse(after.isEmpty(), "the fixture has B/long sessions left to ask about");
        assertTrue(after.stream().allMatch(i -> i.confidence().equals("MEDIUM")), "HIGH needs at least 2 runs");
    }

    @Test
    void twoApprovalsInOneRunAndThenSilenceAreNoPromotion() {
        Plan p1 = audit().plan();
        List<Plan.PlanItem> b = items(p1, "B/long");
        apply(p1, Map.of(b.get(0).item_id(), "approve", b.get(1).item_id(), "approve"), Map.of());
        Plan p2 = audit().plan();
        assertFalse(items(p2, "B/long").isEmpty(), "the other long chats are still asked about");
        ApplyResult silent = apply(p2, Map.of(), Map.of()); // the user answers nothing this time
        assertFalse(
                silent.learning().summary().get(0).contains("promoted"),
                silent.learning().summary().toString());
        assertEquals(Level.MEDIUM, level("B", "long", Level.MEDIUM), "an unanswered run is no second approval");
        assertTrue(items(audit().plan(), "B/long").stream()
                .allMatch(i -> i.confidence().equals("MEDIUM")));
    }

    @Test
    void vetoedHighIsLoweredAtOnceAndTheKeptSessionIsNotProposedAgain() {
        Plan p1 = audit().plan();
        Plan.PlanItem kept = items(p1, "B/short").get(0);
        apply(p1, Map.of(kept.item_id(), "reject"), Map.of());
        AuditEngine.Outcome o2 = audit();
        assertNull(o2.plan().item(kept.item_id()), "a session the user kept is not proposed again");
        assertTrue(o2.result().groups().retained().items().stream()
                .anyMatch(i ->
                        i.session_id().equals(kept.session_id()) && i.rule().equals("F")));
        // the fixture's other B.short sessions were deleted by run 1 (HIGH); restore one to see the lowered level
        assertTrue(items(o2.plan(), "B/short").isEmpty());
        assertEquals(Level.MEDIUM, level("B", "short", Level.HIGH), "HIGH needs no veto ever");
        assertEquals(1, data().rule_level.get("B/short").vetoes);
    }

    /** A finished subagent shell arrives, as Hermes would write it (4 days old: past rule K's keep-days). */
    void addShell(String id) throws Exception {
        try (Connection c = Sqlite.openReadWrite(paths.stateDb())) {
            Sqlite.immediate(c, x -> {
                try (var ps = x.prepareStatement(
                        "INSERT INTO sessions (id, source, model_config, parent_session_id, started_at, ended_at, "
                                + "end_reason, message_count) VALUES (?, 'subagent', ?, '20260702_112900_0becd7', 1786000000, 1786000100, 'completed', 0)")) {
                    ps.setString(1, id);
                    ps.setString(2, "{\"_delegate_from\": \"20260702_112900_0becd7\"}");
                    ps.executeUpdate();
                }
                return null;
            });
        }
    }

    @Test
    void highConditionNeverRunsAutomaticallyAfterAVeto() throws Exception {
        Plan p1 = audit().plan();
        List<Plan.PlanItem> shells = items(p1, "A/shell");
        assertTrue(shells.stream().allMatch(i -> i.confidence().equals("HIGH")));
        apply(p1, Map.of(shells.get(0).item_id(), "reject"), Map.of()); // the user keeps one; the others run
        addShell("20260810_110000_aaaaaa");
        Plan p2 = audit().plan();
        // the new shell, and the fixture's subagents rule M ended in the first run (now finished shells themselves)
        List<Plan.PlanItem> again = items(p2, "A/shell");
        assertEquals(
                List.of("20260810_110000_aaaaaa"),
                again.stream()
                        .filter(i -> !p1.items().stream()
                                .anyMatch(o -> o.session_id().equals(i.session_id())
                                        && o.key().equals("M/subagent")))
                        .map(Plan.PlanItem::session_id)
                        .toList());
        again = again.stream()
                .filter(i -> i.session_id().equals("20260810_110000_aaaaaa"))
                .toList();
        assertEquals("MEDIUM", again.get(0).confidence(), "after one veto, A.shell is asked, not run");
        assertTrue(
                again.get(0).reason().contains("you kept one like this before"),
                again.get(0).reason());
        apply(p2, Map.of(again.get(0).item_id(), "reject"), Map.of());
        addShell("20260810_110500_bbbbbb");
        Plan p3 = audit().plan();
        assertTrue(items(p3, "A/shell").stream().anyMatch(i -> i.session_id().equals("20260810_110500_bbbbbb")));
        assertTrue(items(p3, "A/shell").stream()
                .allMatch(i -> i.confidence().equals("MEDIUM") && i.reason().contains("you kept similar ones before")));
    }

    @Test
    void contradictionsTwiceLockAtLowUntilTrusted() {
        Plan p1 = audit().plan();
        apply(p1, Map.of(items(p1, "B/long").get(0).item_id(), "approve"), Map.of());
        Plan p2 = audit().plan();
        apply(p2, Map.of(items(p2, "B/long").get(0).item_id(), "reject"), Map.of());
        Plan p3 = audit().plan();
        ApplyResult r3 = apply(p3, Map.of(items(p3, "B/long").get(0).item_id(), "approve"), Map.of());
        assertTrue(
                r3.learning().summary().get(0).contains("B/long locked at LOW"),
                r3.learning().summary().toString());
        Plan p4 = audit().plan();
        List<Plan.PlanItem> last = items(p4, "B/long");
        assertEquals(1, last.size());
        assertEquals("LOW", last.get(0).confidence());
        // no further learning while locked
        apply(p4, Map.of(last.get(0).item_id(), "reject"), Map.of());
        PreferenceData.RuleState locked = data().rule_level.get("B/long");
        assertTrue(locked.locked);
        assertEquals(1, locked.vetoes, "no further learning while locked");
        admin().trust("B");
        PreferenceData.RuleState b = data().rule_level.get("B/long");
        assertFalse(b.locked);
        assertEquals(Level.MEDIUM, level("B", "long", Level.MEDIUM), "trusted: back to its own confidence");
        assertTrue(data().changes.stream().anyMatch(c -> c.action.equals("trust")));
    }

    @Test
    void consistentChoicesNeverLock() {
        for (int run = 0; run < 3; run++) {
            Plan p = audit().plan();
            List<Plan.PlanItem> b = items(p, "B/long");
            if (b.isEmpty()) break;
            apply(p, Map.of(b.get(0).item_id(), "reject"), Map.of());
        }
        assertFalse(data().rule_level.values().stream().anyMatch(r -> r.locked));
    }

    @Test
    void thresholdGrowsWhenIgnoredOrKeptAndStaysWithinBounds() {
        assertEquals(3, audit().result().threshold());
        Plan p1 = audit().plan();
        apply(p1, Map.of(), Map.of()); // D warnings ignored
        assertEquals(4, audit().result().threshold());
        Plan p2 = audit().plan();
        String stale = items(p2, "D/stale").get(0).item_id();
        apply(p2, Map.of(stale, "reject"), Map.of(), Map.of(stale, "want_kept"));
        assertEquals(4.5, data().active_threshold, "rejected 'mark ended' because they want it kept: +0.5");
        assertEquals(4.5, audit().result().threshold());
        for (int i = 0; i < 6; i++) apply(audit().plan(), Map.of(), Map.of());
        assertEquals(6.0, data().active_threshold);
        assertThrows(StewardError.class, () -> admin().setThreshold(7.0));
        assertThrows(StewardError.class, () -> admin().setThreshold(1.0));
        admin().setThreshold(2.0);
        assertEquals(2, audit().result().threshold());
        admin().resetThreshold();
        assertEquals(3.0, data().active_threshold);
    }

    @Test
    void consolidatedTopicIsNotRaisedAgain() {
        AuditEngine.Outcome o = audit();
        assertFalse(o.result().repeated_topics().isEmpty());
        apply(o.plan(), Map.of(), Map.of("E", "approve"));
        AuditEngine.Outcome o2 = audit();
        assertTrue(o2.result().repeated_topics().isEmpty());
        assertTrue(items(o2.plan(), "E").isEmpty());
        assertEquals("claude code", data().topic_level.consolidated.get(0).topic);
    }

    @Test
    void resetAndForget() {
        Plan p1 = audit().plan();
        Plan.PlanItem kept = items(p1, "B/long").get(0);
        apply(p1, Map.of(kept.item_id(), "reject"), Map.of());
        assertEquals(1, data().session_level.retain.size());
        assertNull(audit().plan().item(kept.item_id()), "kept: not proposed again");
        admin().forgetSession(kept.session_id());
        assertNotNull(audit().plan().item(kept.item_id()), "forgotten: proposed again");
        assertThrows(StewardError.class, () -> admin().forgetSession("nope"));
        assertTrue(
                data().rule_level.keySet().stream().anyMatch(k -> k.startsWith("B")), "the veto was recorded under B");
        admin().resetRule("B");
        assertTrue(data().rule_level.keySet().stream().noneMatch(k -> k.startsWith("B")));
        admin().resetAll();
        assertTrue(data().rule_level.isEmpty());
        assertTrue(data().changes.size() >= 3, "every change is logged");
    }

    @Test
    void corruptStoreIsReportedAndLeftAsItWas() throws Exception {
        Files.createDirectories(paths.stateDir());
        Path f = paths.stateDir().resolve("preferences.json");
        byte[] garbage = "{\"version\": 1, \"rule_level\": [oops".getBytes();
        Files.write(f, garbage);
        AuditEngine.Outcome o = audit();
        assertEquals("corrupt", o.result().learning().status());
        assertTrue(o.text().contains("learning paused"));
        ApplyResult r = apply(o.plan(), Map.of(), Map.of());
        assertTrue(r.executed_count() > 0, "housekeeping still works");
        assertEquals("paused", r.learning().status());
        assertFalse(store().read().usable());
        assertThrows(StewardError.class, () -> admin().setThreshold(4.0));
        assertArrayEquals(garbage, Files.readAllBytes(f), "reported, never silently rewritten");
    }

    /** Valid JSON, but not a store learning wrote: a hand edit or a damaged file. */
    static final List<String> DAMAGED = List.of(
            "{\"session_level\": {\"retain\": [null]}}",
            "{\"session_level\": {\"rejected\": [{\"id\": \"20260623_111200_394533\"}]}}",
            "{\"session_level\": {\"rejected\": [{\"id\": \"x\", \"date\": \"yesterday\"}]}}",
            "{\"session_level\": {\"delete\": [{\"title\": \"no id\"}]}}",
            "{\"rule_level\": {\"B/long\": null}}",
            "{\"rule_level\": {\"B/short\": {\"level\": \"HIGH\", \"vetoes\": -2}}}",
            "{\"topic_level\": {\"consolidated\": [{\"date\": \"2026-08-01\"}]}}",
            "{\"waiting\": [null]}",
            "{\"waiting\": [{\"session_id\": \"20260623_111200_394533\", \"key\": \"B/long\", \"later_until\": \"soon\"}]}");

    @Test
    void aDamagedStoreIsReportedAndNoAutomaticActionComesFromIt() throws Exception {
        java.util.Set<String> baseline = autoIds(audit().result());
        Files.createDirectories(paths.stateDir());
        Path f = paths.stateDir().resolve("preferences.json");
        for (String doc : DAMAGED) {
            Files.writeString(f, doc);
            AuditEngine.Outcome o = audit();
            assertEquals("corrupt", o.result().learning().status(), doc);
            assertTrue(o.text().contains("learning paused"), doc);
            assertEquals(baseline, autoIds(o.result()), "what runs automatically is what the rules alone run: " + doc);
        }
        // the apply still runs and reports (its undo lines included); learning pauses and the file stays as it was
        ApplyResult r = apply(audit().plan(), Map.of(), Map.of());
        assertEquals(baseline.size(), r.automatic_count());
        assertEquals("paused", r.learning().status());
        assertEquals(DAMAGED.get(DAMAGED.size() - 1), Files.readString(f));
    }

    @Test
    void aHighLevelTheUsersApprovalsDidNotReachNeverRunsAutomatically() throws Exception {
        java.util.Set<String> baseline = autoIds(audit().result());
        Files.createDirectories(paths.stateDir());
        Path f = paths.stateDir().resolve("preferences.json");
        for (String state : List.of(
                // edited by hand: HIGH, never approved
                "{\"level\": \"HIGH\"}",
                // written before approvals were counted per run: 2 approvals, maybe both in one run
                "{\"rule\": \"B\", \"condition\": \"long\", \"base_level\": \"MEDIUM\", \"level\": \"HIGH\", "
                        + "\"approvals\": 2, \"runs\": 2}",
                // its own level edited too
                "{\"base_level\": \"HIGH\", \"level\": \"HIGH\", \"approvals\": 1, \"approval_runs\": 1}")) {
            Files.writeString(f, "{\"version\": 1, \"rule_level\": {\"B/long\": " + state + "}}");
            AuditEngine.Outcome o = audit();
            assertEquals("ok", o.result().learning().status());
            assertEquals(baseline, autoIds(o.result()), state);
            assertTrue(
                    items(o.plan(), "B/long").stream()
                            .allMatch(i -> i.confidence().equals("MEDIUM")),
                    state);
        }
        // approved in two runs: then it runs automatically
        Files.writeString(
                f,
                "{\"version\": 1, \"rule_level\": {\"B/long\": {\"rule\": \"B\", \"condition\": \"long\", "
                        + "\"base_level\": \"MEDIUM\", \"level\": \"HIGH\", \"approvals\": 2, \"approval_runs\": 2, "
                        + "\"runs\": 2}}}");
        assertTrue(items(audit().plan(), "B/long").stream()
                .allMatch(i -> i.confidence().equals("HIGH")));
    }

    static java.util.Set<String> autoIds(steward.sessions.audit.AuditResult r) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        r.groups().auto().items().forEach(i -> out.add(i.session_id()));
        return out;
    }

    @Test
    void storeIsBackedUpBeforeEachWrite() throws Exception {
        apply(audit().plan(), Map.of(), Map.of());
        apply(audit().plan(), Map.of(), Map.of());
        Path backups = paths.stateDir().resolve("backups").resolve("preferences");
        try (var s = Files.list(backups)) {
            assertTrue(s.count() >= 1);
        }
        assertEquals(2, data().run_count);
    }
}
