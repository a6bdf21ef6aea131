package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The verdict of every session of fixtures/hermes-home, by the manifest's {@code kind}, at 2026-08-10T12:00:00Z. */
class FixtureVerdictTest {
    static final String YOUNG_SHELL = "20260809_101500_06ec41";

    @TempDir
    Path tmp;

    static Map<String, AuditResult.Item> all(AuditResult r) {
        Map<String, AuditResult.Item> m = new HashMap<>();
        r.groups().auto().items().forEach(i -> m.put(i.session_id(), i));
        r.groups().confirm().forEach(g -> g.items().forEach(i -> m.put(i.session_id(), i)));
        r.groups().info().items().forEach(i -> m.put(i.session_id(), i));
        r.groups().waiting().items().forEach(i -> m.put(i.session_id(), i));
        r.groups().collapsed().forEach(g -> g.items().forEach(i -> m.put(i.session_id(), i)));
        r.groups().not_asked().items().forEach(i -> m.put(i.session_id(), i));
        r.groups().retained().items().forEach(i -> m.put(i.session_id(), i));
        return m;
    }

    @Test
    void everyKindGetsItsVerdict() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        JsonNode manifest = TestHomes.manifest();
        AuditEngine engine = new AuditEngine(StewardPaths.of(home), TestHomes.CLOCK, Preferences.empty());
        AuditResult r = engine.audit(new AuditRequest(
                        manifest.get("current_session_id").asString(), TestHomes.NOW, "interactive", "en", 500))
                .result();
        Map<String, AuditResult.Item> items = all(r);
        assertEquals(manifest.get("sessions").size(), items.size(), "every session is listed once");
        Map<String, String> expected = Map.ofEntries(
                Map.entry("current", "retain"),
                Map.entry("fresh_active", "retain"),
                Map.entry("ended_titled", "retain"),
                Map.entry("chain_tip", "retain"),
                Map.entry("chain_root", "retain"),
                Map.entry("A_shell", "delete HIGH"),
                Map.entry("A_untitled_long", "delete HIGH"),
                Map.entry("B_high", "delete HIGH"),
                // the fixture's active subagents were last active 2 to 5 days before now: one-shot runs left open, so
                // rule M
                // (subagent idle > 24 h) ends them; rule C keeps the younger ones (see ActiveSubagentRuleTest)
                Map.entry("B_medium", "delete MEDIUM"),
                Map.entry("C_untitled", "mark_ended HIGH"),
                Map.entry("C_titled", "mark_ended HIGH"),
                Map.entry("D_archived", "mark_ended MEDIUM"),
                Map.entry("D_stale", "mark_ended LOW"),
                Map.entry("E_dup", "review MEDIUM"));
        for (JsonNode s : manifest.get("sessions")) {
            String id = s.get("id").asString();
            String kind = s.get("kind").asString();
            AuditResult.Item it = items.get(id);
            assertNotNull(it, id);
            String want = kind.equals("hostile")
                    ? (s.get("active").asBoolean() ? "mark_ended LOW" : "retain")
                    : expected.get(kind);
            if (id.equals(YOUNG_SHELL)) want = "retain"; // rule K: a shell younger than keep-days (3) waits

            String got = it.action().equals("retain") ? "retain" : it.action() + " " + it.confidence();
            assertEquals(want, got, kind + " " + id + " (" + it.rule() + ": " + it.reason() + ")");
            if (kind.startsWith("C_")) assertEquals("M/subagent", it.condition(), id);
        }
        assertEquals(
                "S",
                items.get("20260804_073200_c08a58").rule(),
                "chain root kept by the safety guard (live descendant)");
        // the one A shell last active 1.07 days before now (2026-08-09T10:17:00Z) is kept by K until three days after
        // that
        assertEquals("K", items.get(YOUNG_SHELL).rule());
        assertTrue(
                items.get(YOUNG_SHELL).reason().contains("eligible for deletion from 2026-08-12 10:17 UTC"),
                items.get(YOUNG_SHELL).reason());
        assertEquals(new AuditResult.Retention(3, "default", 1, 0, "2026-08-12T10:17:00Z", List.of()), r.retention());
        assertEquals("argument", r.current().found_by());
    }

    @Test
    void currentSessionIsInferredAndHeadlessExecutesOnlyRuleA() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        JsonNode manifest = TestHomes.manifest();
        AuditEngine engine = new AuditEngine(StewardPaths.of(home), TestHomes.CLOCK, Preferences.empty());
        AuditEngine.Outcome o = engine.audit(new AuditRequest(null, TestHomes.NOW, "headless", "zh", 5));
        assertEquals(
                manifest.get("current_session_id").asString(),
                o.result().current().session_id());
        assertEquals("newest_active_tui_cli", o.result().current().found_by());
        for (Plan.PlanItem i : o.plan().items()) {
            assertEquals(i.rule().equals("A") && !i.action().equals("review"), i.executable(), i.item_id());
        }
        assertTrue(o.result().groups().auto().items().stream()
                .allMatch(i -> i.rule().equals("A")));
        assertTrue(o.result().groups().auto().left_out() > 0, "lists are capped and say how many were left out");
        assertTrue(o.text().contains("会话审计报告"), o.text());
        assertFalse(o.text().contains("关闭"), "never the word 'close'");
        assertTrue(
                Files.isRegularFile(home.resolve("steward/plans/" + o.result().plan_id() + ".json")));
    }

    @Test
    void titledActiveSessionsAreNeverHigh() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        AuditEngine engine = new AuditEngine(StewardPaths.of(home), TestHomes.CLOCK, Preferences.empty());
        AuditEngine.Outcome o = engine.audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500));
        for (AuditResult.Item i : all(o.result()).values()) {
            AuditResult.Evidence e = i.evidence();
            if (e.ended_at() == null
                    && e.title() != null
                    && !"subagent".equals(e.source())
                    && !i.action().equals("retain")) {
                assertFalse(i.confidence().equals("HIGH"), i.session_id());
            }
        }
        List<AuditResult.TopicOut> topics = o.result().repeated_topics();
        assertEquals("claude code", topics.get(0).topic());
        assertEquals(3, topics.get(0).count());
        assertTrue(o.text().contains("Session audit report — 2026-08-10"), o.text());
    }
}
