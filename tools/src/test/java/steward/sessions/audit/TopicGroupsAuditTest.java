package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.StewardError;
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
        return new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty()).audit(new AuditRequest(null, TestHomes.NOW, mode, "en", 20));
    }

    static AuditResult.TopicGroup group(AuditResult r, String label) {
        return r.topic_groups().items().stream().filter(g -> g.label().equals(label)).findFirst()
                .orElseThrow(() -> new AssertionError("no group " + label + " in " + r.topic_groups()));
    }

    String title(String id) throws Exception {
        try (Connection c = Sqlite.openReadOnly(home.resolve("state.db")); PreparedStatement ps = c.prepareStatement("SELECT title FROM sessions WHERE id = ?")) {
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
        assertTrue(cc.advice().why().contains("share /home/u with other topics"), cc.advice().why());
        List<AuditResult.Item> eItems = r.groups().confirm().stream().filter(g -> g.rule().equals("E")).flatMap(g -> g.items().stream()).toList();
        assertFalse(eItems.isEmpty());
        int linked = 0;
        for (AuditResult.Item e : eItems) {
            if (e.cluster_id() == null) continue;
            linked++;
            AuditResult.TopicGroup g = r.topic_groups().items().stream().filter(x -> x.cluster_id().equals(e.cluster_id())).findFirst().orElseThrow();
            assertTrue(g.session_ids().contains(e.session_id()));
            assertTrue(e.reason().endsWith("(see topic group " + g.cluster_id() + ")"), e.reason());
        }
        assertTrue(linked >= 2, "the repeated 'Claude Code' sessions link to their group");
        assertTrue(o.text().contains("=== Topic groups (" + r.topic_groups().count() + ") ==="), o.text());
        // every rename is a rule G plan item: LOW, executable only when approved
        for (AuditResult.Rename rn : cc.advice().renames()) {
            Plan.PlanItem it = o.plan().item(rn.item_id());
            assertNotNull(it);
            assertEquals(List.of("G", "rename", "LOW", cc.cluster_id(), rn.to()), List.of(it.rule(), it.action(), it.confidence(), it.topic(), it.new_title()));
            assertTrue(it.executable());
        }
        assertTrue(r.groups().info().items().stream().noneMatch(i -> i.rule().equals("G")), "renames are listed with their group, not as LOW items");
    }

    @Test
    void aGroupIdApprovesItsRenamesOnlyAndRestoreTakesThemBack() throws Exception {
        AuditEngine.Outcome o = audit("interactive");
        AuditResult.TopicGroup cc = group(o.result(), "Claude Code");
        AuditResult.TopicGroup other = o.result().topic_groups().items().stream().filter(g -> !g.cluster_id().equals(cc.cluster_id())
                && !g.advice().renames().isEmpty()).findFirst().orElseThrow();
        ApplyResult nothing = new ApplyEngine(paths, TestHomes.CLOCK).apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of(), Map.of(), true, null));
        assertTrue(nothing.executed().stream().noneMatch(d -> d.rule().equals("G")), "silence is not approval");
        assertTrue(nothing.skipped().stream().anyMatch(s -> s.rule().equals("G") && s.reason().equals("not approved (LOW)")));

        ApplyResult a = new ApplyEngine(paths, TestHomes.CLOCK).apply(new ApplyRequest(o.result().plan_id(), Map.of(cc.cluster_id(), "approve"),
                Map.of(), Map.of(), false, null));
        List<ApplyResult.Done> renames = a.executed().stream().filter(d -> d.rule().equals("G")).toList();
        assertEquals(cc.advice().renames().size(), renames.size());
        for (AuditResult.Rename rn : cc.advice().renames()) assertEquals(rn.to(), title(rn.session_id()));
        for (AuditResult.Rename rn : other.advice().renames()) assertEquals(rn.from(), title(rn.session_id()), "another group is not renamed");
        assertNotNull(a.backup());
        assertTrue(a.learning().summary().stream().noneMatch(l -> l.contains(" G=")), "renames of a topic group teach nothing: " + a.learning().summary());

        new RestoreEngine(paths, TestHomes.CLOCK).restore(a.backup().backup_id(), List.of());
        for (AuditResult.Rename rn : cc.advice().renames()) assertEquals(rn.from(), title(rn.session_id()), "restore reverts the rename");
    }

    @Test
    void theUsersOwnTitleWinsAndRuleGApprovesEveryGroup() throws Exception {
        AuditEngine.Outcome o = audit("interactive");
        AuditResult.TopicGroup cc = group(o.result(), "Claude Code");
        AuditResult.Rename first = cc.advice().renames().get(0);
        ApplyResult a = new ApplyEngine(paths, TestHomes.CLOCK).apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of("G", "approve"),
                Map.of(first.session_id(), "My own title"), true, null));
        // every proposed rename runs once; the session the user titled gets the user's title (through its own item, rule E here)
        List<String> proposed = o.result().topic_groups().items().stream().flatMap(g -> g.advice().renames().stream())
                .map(AuditResult.Rename::session_id).sorted().toList();
        List<String> renamed = a.executed().stream().filter(d -> d.action().equals("rename")).map(ApplyResult.Done::session_id).sorted().toList();
        assertEquals(proposed, renamed);
        assertEquals("My own title", a.executed().stream().filter(d -> d.session_id().equals(first.session_id())).findFirst().orElseThrow().new_title());
        assertTrue(a.skipped().stream().anyMatch(sk -> sk.session_id().equals(first.session_id()) && sk.reason().equals("renamed by another item of this plan")));
        StewardError e = assertThrows(StewardError.class, () -> new ApplyEngine(paths, TestHomes.CLOCK).apply(new ApplyRequest(
                o.result().plan_id(), Map.of("g99", "approve"), Map.of(), Map.of(), true, null)));
        assertTrue(e.getMessage().contains("g99"), e.getMessage());
    }

    @Test
    void headlessNeverRenames() throws Exception {
        AuditEngine.Outcome o = audit("headless");
        assertTrue(o.plan().items().stream().filter(i -> i.rule().equals("G")).noneMatch(Plan.PlanItem::executable));
        ApplyResult a = new ApplyEngine(paths, TestHomes.CLOCK).apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of("G", "approve"),
                Map.of(), true, null));
        assertTrue(a.executed().stream().noneMatch(d -> d.rule().equals("G")));
    }

    @Test
    void groupingCoversTheHermesHomeOnlyAndSaysSoForAClaudeCodeAudit() throws Exception {
        home = TestHomes.copyFixture(tmp);
        Path claude = ClaudeTestHomes.install(tmp, false);
        StewardPaths both = StewardPaths.of(home, claude);
        AuditEngine engine = new AuditEngine(both, TestHomes.CLOCK, Preferences.empty()).callerCwd(ClaudeTestHomes.CALLER_CWD);
        AuditResult r = engine.audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, null, 0)).result();
        assertTrue(r.topic_groups().count() > 0, "the Hermes fixture's groups are still found");
        java.util.Set<String> claudeIds = new java.util.HashSet<>();
        for (AuditResult.StoreOut so : r.stores()) assertTrue(so.store().equals("hermes") || so.store().equals("claude"));
        FixtureVerdictTest.all(r).values().stream().filter(i -> i.store().equals("claude")).forEach(i -> {
            claudeIds.add(i.session_id());
            assertEquals(null, i.cluster_id(), i.session_id());
        });
        assertTrue(!claudeIds.isEmpty());
        for (AuditResult.TopicGroup g : r.topic_groups().items()) {
            assertTrue(g.session_ids().stream().noneMatch(claudeIds::contains), g.cluster_id());
        }
        AuditResult onlyClaude = engine.audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, "claude", 0)).result();
        assertEquals(0, onlyClaude.topic_groups().count());
        assertEquals("topic grouping covers the Hermes home only", onlyClaude.topic_groups().warning());
    }
}
