package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.sessions.HermesRows;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyEngineAccess;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.rules.RuleFixtures;
import steward.sessions.store.SessionRow;
import steward.testing.TestHomes;

/**
 * The report stays short: one counted line per decision group, whatever the number of sessions; every planned item stays
 * reachable in structuredContent; a group id answers exactly the items its line counted.
 */
class GroupedReportTest {
    @TempDir
    Path tmp;

    static AuditEngine.Outcome audit(Path home) {
        return new AuditEngine(StewardPaths.of(home), TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", AuditRequest.DEFAULT_MAX_ITEMS));
    }

    /** Every plan item is in exactly one decision group (rule G's renames in their topic group), listed by id while it fits. */
    static void everyItemReachable(AuditEngine.Outcome o) {
        Map<String, Integer> seen = new HashMap<>();
        int counted = 0;
        for (AuditResult.DecisionGroup g : o.result().decision_groups()) {
            counted += g.count();
            assertEquals(g.count(), g.item_ids().size() + g.left_out(), g.toString());
            for (String id : g.item_ids()) seen.merge(id, 1, Integer::sum);
        }
        Set<String> renames = new HashSet<>();
        for (AuditResult.TopicGroup t : o.result().topic_groups().items())
            t.advice().renames().forEach(r -> renames.add(r.item_id()));
        int planned = 0;
        for (Plan.PlanItem it : o.plan().items()) {
            if (it.rule().equals("G")) {
                assertTrue(renames.contains(it.item_id()), it.item_id());
                continue;
            }
            planned++;
            boolean listed = seen.getOrDefault(it.item_id(), 0) == 1;
            // past IDS_PER_GROUP a group counts the rest (the plan file lists them): only a group of its own kind may
            boolean inCount = o.result().decision_groups().stream()
                    .anyMatch(g -> g.left_out() > 0
                            && g.rule().equals(it.rule())
                            && Objects.equals(g.condition(), it.condition())
                            && g.action().equals(it.action()));
            assertTrue(listed || inCount, "item " + it.item_id() + " is in no decision group");
        }
        assertEquals(planned, counted, "every item counted once");
    }

    @Test
    void theFixtureReportFitsInThreeThousandCharactersAndLosesNoItem() throws Exception {
        AuditEngine.Outcome o = audit(TestHomes.copyFixture(tmp));
        String text = o.text();
        System.out.println("fixture report: " + text.length() + " characters, "
                + o.plan().items().size() + " plan items");
        assertTrue(text.length() <= 3000, text.length() + " characters:\n" + text);
        everyItemReachable(o);
        assertTrue(
                o.result().decision_groups().stream().allMatch(g -> g.left_out() == 0),
                "the fixture's groups list every item");
        // no repeated phrases
        assertFalse(text.contains("mark as ended? → mark as ended?"), text);
        assertFalse(text.contains("(1 messages)"), text);
        assertFalse(text.contains("delete or name it? → delete or name it?"), text);
        List<String> lines =
                text.lines().filter(l -> !l.isBlank() && !l.startsWith("═")).toList();
        assertEquals(lines.size(), new HashSet<>(lines).size(), "no line twice:\n" + text);
        // each answerable group shows its id and count; a group answer can be given for it
        for (AuditResult.DecisionGroup g : o.result().decision_groups()) {
            if (g.group_id() == null) continue;
            assertTrue(
                    text.contains(g.group_id() + " " + (g.condition() == null ? g.rule() : g.condition()) + " "),
                    g.group_id() + "\n" + text);
            for (String id : g.item_ids())
                assertEquals(g.group_id(), o.plan().item(id).group(), id);
        }
    }

    @Test
    void aHomeOfThousandsIsAnsweredInOneScreenAndAGroupAnswerCoversExactlyItsCount() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path db = home.resolve("state.db");
        double now = RuleFixtures.NOW;
        HermesRows rows = HermesRows.into(db);
        int n = 0;
        // cron jobs that ended untitled (HIGH), long untitled gateway threads (MEDIUM, more than a group lists), idle
        // titled
        // chats (LOW), finished subagent shells
        for (int i = 0; i < 1800; i++, n++)
            rows.chat(String.format("cron_%05d", i), "cron", null, true, 2, now - 86400 * (1 + i % 40) - i);
        for (int i = 0; i < 400; i++, n++)
            rows.chat(
                    String.format("tg_%05d", i),
                    i % 4 == 0 ? "discord" : "telegram",
                    null,
                    true,
                    12,
                    now - 86400 * (2 + i % 30) - i);
        for (int i = 0; i < 300; i++, n++)
            rows.chat(String.format("cli_%05d", i), "cli", "project " + i, false, 6, now - 86400 * (5 + i % 20) - i);
        for (int i = 0; i < 600; i++, n++)
            rows.subagent(String.format("sub_%05d", i), "cron_00000", null, true, 1, now - 86400 * (4 + i % 10) - i);
        rows.write();
        long t0 = System.nanoTime();
        AuditEngine.Outcome o = audit(home);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        String text = o.text();
        System.out.println(
                "grouped report: " + (n + 62) + " sessions, " + o.plan().items().size() + " plan items, "
                        + o.result().decision_groups().size() + " groups, " + text.length() + " characters (audit " + ms
                        + " ms)");
        if (Boolean.getBoolean("report.print")) System.out.println(text);
        assertTrue(text.length() <= 4000, text.length() + " characters:\n" + text);
        assertTrue(
                o.plan().items().size() > 3000,
                "thousands of items: " + o.plan().items().size());
        everyItemReachable(o);
        assertTrue(o.result().questions().asked() <= QuestionPlan.CAP);
        // the 400 long gateway threads (B/long@gateway: learned apart from cli chats) are one question (split by
        // source: more than a group lists), not 10 by name and
        // the rest unasked
        List<AuditResult.DecisionGroup> tg = o.result().decision_groups().stream()
                .filter(g ->
                        "B/long@gateway".equals(g.condition()) && g.section().equals("ask"))
                .toList();
        assertTrue(
                tg.stream().map(AuditResult.DecisionGroup::source).toList().containsAll(List.of("telegram", "discord")),
                text);
        AuditResult.DecisionGroup telegram = tg.stream()
                .filter(g -> g.source().equals("telegram"))
                .findFirst()
                .orElseThrow();
        assertEquals(300, telegram.count());
        assertTrue(
                text.contains(
                        telegram.group_id() + " B/long@gateway Ended and untitled sessions · 300 (telegram) → delete?"),
                text);
        assertEquals(0, o.result().questions().not_asked(), "nothing left over for later runs");

        // approving the telegram group deletes exactly those 300 (and what runs automatically), not the discord ones
        ApplyResult r = new ApplyEngine(StewardPaths.of(home), TestHomes.CLOCK)
                .apply(new ApplyRequest(
                        o.plan().plan_id(), Map.of(telegram.group_id(), "approve"), Map.of(), Map.of(), false, null));
        for (String id : telegram.item_ids()) assertFalse(HermesRows.exists(db, id), id);
        for (int i = 0; i < 400; i += 4)
            assertTrue(HermesRows.exists(db, String.format("tg_%05d", i)), "discord thread kept");
        int gateway = 0;
        for (int i = 0; i < 400; i++) if (!HermesRows.exists(db, String.format("tg_%05d", i))) gateway++;
        assertTrue(r.executed_count() >= 300, "executed " + r.executed_count());
        assertEquals(300, gateway, "exactly the telegram group's count");
        for (int i = 0; i < 300; i++)
            assertTrue(HermesRows.exists(db, String.format("cli_%05d", i)), "LOW idle chats are not touched");
    }

    @Test
    void onlyQuestionsShownAndAutomaticItemsGetAGroupIdAndAChildFollowsItsParent() {
        Map<String, Plan.PlanItem> items = CascadeTest.plan(Preferences.empty());
        List<SessionRow> rows = RuleFixtures.rows(CascadeTest.ROWS);
        Map<String, SessionRow> byId = new HashMap<>();
        for (SessionRow s : rows) byId.put(s.id(), s);
        // one waiting and one over the cap: no group answer may decide them
        Plan.PlanItem waiting = items.get("p_kept");
        items.put("p_kept", waiting.withQuestion("waiting"));
        DecisionGroups.Result g = DecisionGroups.build(items, it -> byId.get(it.session_id()), Preferences.empty());
        assertNull(g.items().get("p_kept").group(), "a waiting question has no group id");
        assertNull(g.items().get("lint").group(), "a child going along with its parent is answered through it");
        assertNotNull(g.items().get("p_titled").group());
        AuditResult.DecisionGroup titled = g.groups().stream()
                .filter(x -> x.item_ids().contains("p_titled"))
                .findFirst()
                .orElseThrow();
        // a deletion that takes subagents along is in its condition's group, which counts them (they are not its items:
        // they go only with their parent); only one that would take along a session the user kept is asked by name
        assertFalse(titled.named(), titled.toString());
        assertFalse(titled.item_ids().contains("lint"), "the child going along is not counted in the line: " + titled);
        int along = 0;
        for (String id : titled.item_ids()) {
            List<String> held = g.items().get(id).held_by();
            along += held == null ? 0 : held.size();
        }
        assertTrue(
                along >= 1 && titled.takes_along() == along, "takes_along counts what its deletions take: " + titled);
        Map<String, Plan.PlanItem> keptItems = CascadeTest.plan(CascadeTest.keptK());
        AuditResult.DecisionGroup keptGroup =
                DecisionGroups.build(keptItems, it -> byId.get(it.session_id()), CascadeTest.keptK()).groups().stream()
                        .filter(x -> x.item_ids().contains("p_kept"))
                        .findFirst()
                        .orElseThrow();
        assertTrue(
                keptGroup.named() && keptGroup.count() == 1 && keptGroup.takes_along() == 1,
                "a deletion that would take a session the user kept along is asked by name: " + keptGroup);
        AuditResult.DecisionGroup shells = g.groups().stream()
                .filter(x -> x.item_ids().contains("shell1"))
                .findFirst()
                .orElseThrow();
        assertEquals("auto", shells.section());
        assertNotNull(shells.group_id());
        for (AuditResult.DecisionGroup x : g.groups()) {
            assertEquals(
                    x.group_id() != null,
                    x.section().equals("auto") || x.section().equals("ask"),
                    x.toString());
        }
    }

    @Test
    void aGroupApprovalOfTheParentNeverOutranksTheChild() {
        // p_titled's deletion would take the titled subagent lint along: asked by name, in a group of its own
        Map<String, Plan.PlanItem> items = CascadeTest.plan(Preferences.empty());
        List<SessionRow> rows = RuleFixtures.rows(CascadeTest.ROWS);
        Map<String, SessionRow> byId = new HashMap<>();
        for (SessionRow s : rows) byId.put(s.id(), s);
        Map<String, Plan.PlanItem> grouped = DecisionGroups.build(
                        items, it -> byId.get(it.session_id()), Preferences.empty())
                .items();
        String parentGroup = grouped.get("p_titled").group();
        Plan plan = new Plan(
                "p_test",
                "2026-08-10T12:00:00Z",
                RuleFixtures.NOW,
                RuleFixtures.NOW + 86400,
                "db",
                "key",
                "interactive",
                "en",
                "cur",
                "argument",
                3,
                List.copyOf(grouped.values()),
                "",
                null);
        var decided = ApplyEngineAccess.decide(rows, plan, Map.of(parentGroup, "approve", "lint", "reject"));
        assertFalse(decided.contains("p_titled"), "the child's own rejection keeps its parent: " + decided);
        assertFalse(decided.contains("lint"));
        decided = ApplyEngineAccess.decide(rows, plan, Map.of(parentGroup, "approve"));
        assertTrue(
                decided.contains("p_titled") && decided.contains("lint"),
                "the child goes with its approved parent: " + decided);
    }
}
