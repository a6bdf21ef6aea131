package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.claude.ClaudeHome;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.Sqlite;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;

/** Topic groups in a whole audit of the fixture, and their renames through session_apply and session_restore. */
class TopicGroupsAuditTest {
    @TempDir
    Path tmp;

    Path home;
    StewardPaths paths;

    AuditEngine.Outcome audit(String mode) throws Exception {
        if (home == null) {
            home = TestHomes.copyFixture(tmp);
            paths = StewardPaths.of(home);
        }
        return new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, mode, "en", 20));
    }

    static AuditResult.TopicGroup group(AuditResult r, String label) {
        return r.topic_groups().items().stream()
                .filter(g -> g.label().equals(label))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no group " + label + " in " + r.topic_groups()));
    }

    String title(String id) throws Exception {
        try (Connection c = Sqlite.openReadOnly(home.resolve("state.db"));
                PreparedStatement ps = c.prepareStatement("SELECT title FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    @Test
    void groupsAreReportedAndRuleELinksToThem() throws Exception {
        AuditEngine.Outcome o = audit("interactive");
        AuditResult r = o.result();
        assertTrue(r.topic_groups().count() >= 3, r.topic_groups().toString());
        AuditResult.TopicGroup cc = group(r, "Claude Code");
        assertEquals("title_prefix", cc.advice().kind());
        assertTrue(
                cc.advice().why().contains("share /home/u with other topics"),
                cc.advice().why());
        List<AuditResult.Item> eItems = r.groups().confirm().stream()
                .filter(g -> g.rule().equals("E"))
                .flatMap(g -> g.items().stream())
                .toList();
        assertFalse(eItems.isEmpty());
        int linked = 0;
        for (AuditResult.Item e : eItems) {
            if (e.cluster_id() == null) continue;
            linked++;
            AuditResult.TopicGroup g = r.topic_groups().items().stream()
                    .filter(x -> x.cluster_id().equals(e.cluster_id()))
                    .findFirst()
                    .orElseThrow();
            assertTrue(g.session_ids().contains(e.session_id()));
            assertTrue(e.reason().endsWith("(see topic group " + g.cluster_id() + ")"), e.reason());
        }
        assertTrue(linked >= 2, "the repeated 'Claude Code' sessions link to their group");
        assertTrue(o.text().contains("=== Topic groups (" + r.topic_groups().count() + ") ==="), o.text());
        // every rename is a rule G plan item: LOW, executable only when approved
        for (AuditResult.Rename rn : cc.advice().renames()) {
            Plan.PlanItem it = o.plan().item(rn.item_id());
            assertNotNull(it);
            assertEquals(
                    List.of("G", "rename", "LOW", cc.cluster_id(), rn.to()),
                    List.of(it.rule(), it.action(), it.confidence(), it.topic(), it.new_title()));
            assertTrue(it.executable());
        }
        assertTrue(
                r.groups().info().items().stream().noneMatch(i -> i.rule().equals("G")),
                "renames are listed with their group, not as LOW items");
    }

    @Test
    void aGroupIdApprovesItsRenamesOnlyAndRestoreTakesThemBack() throws Exception {
        AuditEngine.Outcome o = audit("interactive");
        AuditResult.TopicGroup cc = group(o.result(), "Claude Code");
        AuditResult.TopicGroup other = o.result().topic_groups().items().stream()
                .filter(g -> !g.cluster_id().equals(cc.cluster_id())
                        && !g.advice().renames().isEmpty())
                .findFirst()
                .orElseThrow();
        ApplyResult nothing = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of(), Map.of(), true, null));
        assertTrue(nothing.executed().stream().noneMatch(d -> d.rule().equals("G")), "silence is not approval");
        assertTrue(nothing.skipped().stream()
                .anyMatch(s -> s.rule().equals("G") && s.reason().equals("not approved (LOW)")));

        ApplyResult a = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(
                        o.result().plan_id(), Map.of(cc.cluster_id(), "approve"), Map.of(), Map.of(), false, null));
        List<ApplyResult.Done> renames =
                a.executed().stream().filter(d -> d.rule().equals("G")).toList();
        assertEquals(cc.advice().renames().size(), renames.size());
        for (AuditResult.Rename rn : cc.advice().renames()) assertEquals(rn.to(), title(rn.session_id()));
        for (AuditResult.Rename rn : other.advice().renames())
            assertEquals(rn.from(), title(rn.session_id()), "another group is not renamed");
        assertNotNull(a.backup());
        assertTrue(
                a.learning().summary().stream().noneMatch(l -> l.contains(" G=")),
                "renames of a topic group teach nothing: " + a.learning().summary());

        new RestoreEngine(paths, TestHomes.CLOCK).restore(a.backup().backup_id(), null);
        for (AuditResult.Rename rn : cc.advice().renames())
            assertEquals(rn.from(), title(rn.session_id()), "restore reverts the rename");
    }

    @Test
    void theUsersOwnTitleWinsAndRuleGApprovesEveryGroup() throws Exception {
        AuditEngine.Outcome o = audit("interactive");
        AuditResult.TopicGroup cc = group(o.result(), "Claude Code");
        AuditResult.Rename first = cc.advice().renames().get(0);
        ApplyResult a = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(
                        o.result().plan_id(),
                        Map.of(),
                        Map.of("G", "approve"),
                        Map.of(first.session_id(), "My own title"),
                        true,
                        null));
        // every proposed rename runs once; the session the user titled gets the user's title (through its own item,
        // rule E here)
        List<String> proposed = o.result().topic_groups().items().stream()
                .flatMap(g -> g.advice().renames().stream())
                .map(AuditResult.Rename::session_id)
                .sorted()
                .toList();
        List<String> renamed = a.executed().stream()
                .filter(d -> d.action().equals("rename"))
                .map(ApplyResult.Done::session_id)
                .sorted()
                .toList();
        assertEquals(proposed, renamed);
        assertEquals(
                "My own title",
                a.executed().stream()
                        .filter(d -> d.session_id().equals(first.session_id()))
                        .findFirst()
                        .orElseThrow()
                        .new_title());
        assertTrue(a.skipped().stream()
                .anyMatch(sk -> sk.session_id().equals(first.session_id())
                        && sk.reason().equals("renamed by another item of this plan")));
        StewardError e = assertThrows(
                StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .apply(new ApplyRequest(
                                o.result().plan_id(), Map.of("g99", "approve"), Map.of(), Map.of(), true, null)));
        assertTrue(e.getMessage().contains("g99"), e.getMessage());
    }

    @Test
    void headlessNeverRenames() throws Exception {
        AuditEngine.Outcome o = audit("headless");
        assertTrue(o.plan().items().stream().filter(i -> i.rule().equals("G")).noneMatch(Plan.PlanItem::executable));
        ApplyResult a = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of("G", "approve"), Map.of(), true, null));
        assertTrue(a.executed().stream().noneMatch(d -> d.rule().equals("G")));
    }

    /** One Claude Code session of a generated home: a prompt, an answer and (when titled) an ai-title entry; live = modified an hour ago. */
    record CcSession(String id, String cwd, String title, String prompt, boolean live) {}

    static final String K1 = "0a000000-0000-4000-8000-000000000001",
            K2 = "0a000000-0000-4000-8000-000000000002",
            K3 = "0a000000-0000-4000-8000-000000000003",
            O1 = "0a000000-0000-4000-8000-000000000004",
            O2 = "0a000000-0000-4000-8000-000000000005",
            T1 = "0b000000-0000-4000-8000-000000000001",
            T2 = "0b000000-0000-4000-8000-000000000002",
            R1 = "0c000000-0000-4000-8000-000000000001",
            R2 = "0c000000-0000-4000-8000-000000000002",
            G1 = "0d000000-0000-4000-8000-000000000001";

    /**
     * Four topics: "Kafka consumer" (3 sessions, 2 live) shares /home/dev/shop with two other topics; "Thesis citations" has
     * /home/dev/thesis to itself; "Rate limiter" ran in /home/dev/api and /home/dev/api-v2; a garden one-off.
     */
    static List<CcSession> ccHome() {
        return List.of(
                new CcSession(
                        K1,
                        "/home/dev/shop",
                        "Kafka consumer lag",
                        "Kafka consumer lag grows after the deploy, why?",
                        true),
                new CcSession(
                        K2,
                        "/home/dev/shop",
                        "Kafka consumer rebalancing",
                        "The Kafka consumer keeps rebalancing every minute",
                        true),
                new CcSession(
                        K3,
                        "/home/dev/shop",
                        "Kafka consumer offsets",
                        "Reset the Kafka consumer offsets for the orders topic",
                        false),
                new CcSession(
                        O1, "/home/dev/shop", "Invoice PDF layout", "Make the invoice PDF fit on one page", false),
                new CcSession(
                        O2,
                        "/home/dev/shop",
                        "Newsletter signup form",
                        "Add a newsletter signup form to the footer",
                        false),
                new CcSession(
                        T1,
                        "/home/dev/thesis",
                        "Thesis citations in Zotero",
                        "Export the thesis citations from Zotero",
                        false),
                new CcSession(
                        T2,
                        "/home/dev/thesis",
                        "Thesis citations format",
                        "Which citation format does the thesis template need?",
                        false),
                new CcSession(
                        R1,
                        "/home/dev/api",
                        "Rate limiter with Redis",
                        "Build a rate limiter on Redis for the API",
                        false),
                new CcSession(
                        R2, "/home/dev/api-v2", "Rate limiter tests", "Write tests for the Redis rate limiter", false),
                new CcSession(G1, "/home/dev/misc", null, "When should I water the tomatoes?", false));
    }

    static Path writeClaudeHome(Path root, List<CcSession> sessions) throws Exception {
        Path home = root.resolve("claude-home");
        double now = TestHomes.NOW.getEpochSecond();
        for (CcSession c : sessions) {
            Path dir = home.resolve("projects").resolve(ClaudeHome.encodeCwd(c.cwd()));
            Files.createDirectories(dir);
            double at = c.live() ? now - 3600 : now - 5 * 86400;
            String ts = Instant.ofEpochSecond((long) at - 120).toString();
            StringBuilder sb = new StringBuilder();
            sb.append("{\"parentUuid\":null,\"isSidechain\":false,\"cwd\":\"")
                    .append(c.cwd())
                    .append("\",\"sessionId\":\"")
                    .append(c.id())
                    .append("\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"")
                    .append(c.prompt())
                    .append("\"},\"uuid\":\"u1-")
                    .append(c.id())
                    .append("\",\"timestamp\":\"")
                    .append(ts)
                    .append("\"}\n");
            sb.append("{\"parentUuid\":\"u1-")
                    .append(c.id())
                    .append("\",\"isSidechain\":false,\"cwd\":\"")
                    .append(c.cwd())
                    .append("\",\"sessionId\":\"")
                    .append(c.id())
                    .append("\",\"message\":{\"id\":\"msg_")
                    .append(c.id().substring(0, 8))
                    .append(
                            "\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Done.\"}]},")
                    .append("\"type\":\"assistant\",\"uuid\":\"a1-")
                    .append(c.id())
                    .append("\",\"timestamp\":\"")
                    .append(ts)
                    .append("\"}\n");
            if (c.title() != null) {
                sb.append("{\"type\":\"ai-title\",\"aiTitle\":\"")
                        .append(c.title())
                        .append("\",\"sessionId\":\"")
                        .append(c.id())
                        .append("\"}\n");
            }
            Path f = dir.resolve(c.id() + ".jsonl");
            Files.writeString(f, sb.toString());
            Files.setLastModifiedTime(f, FileTime.fromMillis((long) (at * 1000)));
        }
        return home;
    }

    @Test
    void claudeCodeSessionsAreGroupedByTopicWithAdviceThatFitsClaudeCode() throws Exception {
        Path claude = writeClaudeHome(tmp, ccHome());
        Map<String, String> before = ClaudeTestHomes.tree(claude);
        StewardPaths only = ClaudeTestHomes.claudeOnly(tmp, claude);
        AuditEngine.Outcome o = new AuditEngine(only, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(Path.of("/home/dev/elsewhere"))
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20, "claude", 0));
        AuditResult r = o.result();
        assertEquals(10, r.topic_groups().considered());
        // newest first: the Kafka group holds the two live sessions; the others ended at the same time (ids in order
        // found)
        assertEquals(
                List.of("c1", "c2", "c3"),
                r.topic_groups().items().stream()
                        .map(AuditResult.TopicGroup::cluster_id)
                        .toList());
        assertEquals(3, r.topic_groups().count());
        AuditResult.TopicGroup kafka = group(r, "Kafka consumer");
        assertEquals("claude", kafka.store());
        assertEquals("c1", kafka.cluster_id());
        assertEquals(Set.of(K1, K2, K3), Set.copyOf(kafka.session_ids()));
        // 3 of the project's 5 sessions (< 75 %): /resume in /home/dev/shop lists other topics too, so a title prefix
        assertEquals("title_prefix", kafka.advice().kind());
        assertEquals("[Kafka consumer]", kafka.advice().prefix());
        assertTrue(
                kafka.advice()
                        .why()
                        .startsWith(
                                "Claude Code groups sessions only by working directory, and these share /home/dev/shop with other topics"),
                kafka.advice().why());
        assertTrue(
                kafka.advice().why().endsWith("so set it with /rename [Kafka consumer] … in each session"),
                kafka.advice().why());
        assertEquals(
                Set.of(
                        new AuditResult.Rename(null, K1, "Kafka consumer lag", "[Kafka consumer] lag"),
                        new AuditResult.Rename(null, K2, "Kafka consumer rebalancing", "[Kafka consumer] rebalancing"),
                        new AuditResult.Rename(null, K3, "Kafka consumer offsets", "[Kafka consumer] offsets")),
                Set.copyOf(kafka.advice().renames()));
        AuditResult.TopicGroup thesis = group(r, "Thesis citations");
        assertEquals(Set.of(T1, T2), Set.copyOf(thesis.session_ids()));
        assertEquals("claude_project", thesis.advice().kind());
        assertEquals("/home/dev/thesis", thesis.advice().project_path());
        assertEquals(2, thesis.advice().gathers());
        assertEquals(List.of(), thesis.advice().gathers_others());
        assertEquals(List.of(), thesis.advice().renames());
        AuditResult.TopicGroup limiter = group(r, "Rate limiter");
        assertEquals(Set.of(R1, R2), Set.copyOf(limiter.session_ids()));
        assertEquals("title_prefix", limiter.advice().kind());
        assertTrue(
                limiter.advice().why().startsWith("these sessions ran in 2 working directories"),
                limiter.advice().why());
        // rule E asks "consolidated yet?" of the two live Kafka sessions and links to their group, as for Hermes
        List<AuditResult.Item> e = r.groups().confirm().stream()
                .filter(g -> g.rule().equals("E"))
                .flatMap(g -> g.items().stream())
                .toList();
        assertEquals(
                Set.of(K1, K2), e.stream().map(AuditResult.Item::session_id).collect(Collectors.toSet()));
        for (AuditResult.Item i : e) {
            assertEquals("c1", i.cluster_id());
            assertTrue(i.reason().endsWith("(see topic group c1)"), i.reason());
        }
        // no rename is a plan item: Steward does not write Claude Code titles, and a group id is no decision
        assertTrue(o.plan().items().stream().noneMatch(i -> i.rule().equals("G")));
        StewardError err = assertThrows(
                StewardError.class,
                () -> new ApplyEngine(only, TestHomes.CLOCK)
                        .apply(new ApplyRequest(r.plan_id(), Map.of("c1", "approve"), Map.of(), Map.of(), true, null)));
        assertTrue(err.getMessage().contains("c1"), err.getMessage());
        assertTrue(
                o.text()
                        .contains(
                                "  c1 “Kafka consumer” (3) → title prefix [Kafka consumer] (set with /rename in Claude Code)\n"),
                o.text());
        assertTrue(
                o.text()
                        .contains(
                                "“Thesis citations” (2) → already one Claude Code project: /home/dev/thesis (2 sessions)"),
                o.text());
        assertTrue(o.text().contains("Steward never renames Claude Code sessions"), o.text());
        assertFalse(o.text().contains("Renames run only if approved"), o.text());
        String zh = new AuditEngine(only, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(Path.of("/home/dev/elsewhere"))
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "zh", 20, "claude", 0))
                .text();
        assertTrue(zh.contains("“Thesis citations”（2 条）→ 已是 Claude Code 项目 /home/dev/thesis（共 2 条）"), zh);
        assertTrue(zh.contains("标题前缀 [Kafka consumer]（在 Claude Code 中用 /rename 设置）"), zh);
        assertEquals(before, ClaudeTestHomes.tree(claude), "grouping reads the transcripts only");
    }

    @Test
    void bothHomesAreGroupedEachInItsOwnClusters() throws Exception {
        home = TestHomes.copyFixture(tmp);
        Path claude = writeClaudeHome(tmp, ccHome());
        AuditEngine engine = new AuditEngine(StewardPaths.of(home, claude), TestHomes.CLOCK, Preferences.empty())
                .callerCwd(Path.of("/home/dev/elsewhere"));
        AuditResult r = engine.audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, null, 0))
                .result();
        Set<String> claudeIds = new HashSet<>();
        for (CcSession c : ccHome()) claudeIds.add(c.id());
        List<AuditResult.TopicGroup> cc = r.topic_groups().items().stream()
                .filter(g -> g.store().equals("claude"))
                .toList();
        assertEquals(3, cc.size());
        for (AuditResult.TopicGroup g : r.topic_groups().items()) {
            boolean claudeGroup = g.store().equals("claude");
            assertEquals(claudeGroup, g.cluster_id().startsWith("c"), g.cluster_id());
            assertTrue(g.session_ids().stream().allMatch(id -> claudeIds.contains(id) == claudeGroup), g.toString());
        }
        assertTrue(r.topic_groups().items().stream()
                .anyMatch(g -> g.store().equals("hermes") && g.label().equals("Claude Code")));
        // the groups are one list, newest activity first
        List<String> newest = r.topic_groups().items().stream()
                .map(AuditResult.TopicGroup::newest_activity)
                .toList();
        List<String> sorted = new ArrayList<>(newest);
        sorted.sort(Comparator.reverseOrder());
        assertEquals(sorted, newest);
    }

    @Test
    void theClaudeCodeFixtureGetsNoInventedGroup() throws Exception {
        // fixtures/claude-home: its titles share no more than one word ("Postgres vacuum tuning" / "Postgres index
        // bloat", rule E),
        // which does not reach the clusterer's threshold: no group is invented
        Path claude = ClaudeTestHomes.install(tmp, false);
        AuditResult r = new AuditEngine(ClaudeTestHomes.claudeOnly(tmp, claude), TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, "claude", 0))
                .result();
        assertEquals(17, r.topic_groups().considered()); // 18 sessions of their own, less the compaction continuation
        assertEquals(0, r.topic_groups().count());
        assertEquals(null, r.topic_groups().warning());
    }
}
