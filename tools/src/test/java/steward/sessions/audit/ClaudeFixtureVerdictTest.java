package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.claude.fixture.ClaudeHomeFixture;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The verdict of every session of fixtures/claude-home, as its manifest says, at 2026-08-10T12:00:00Z. */
class ClaudeFixtureVerdictTest {
    @TempDir
    Path tmp;

    AuditEngine.Outcome audit(StewardPaths paths, String store, String current) {
        return new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500, store, 0));
    }

    @Test
    void everySessionGetsTheVerdictOfTheManifest() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, true);
        JsonNode manifest = ClaudeTestHomes.manifest();
        AuditEngine.Outcome o = audit(ClaudeTestHomes.claudeOnly(tmp, home), null, null);
        Map<String, AuditResult.Item> items = FixtureVerdictTest.all(o.result());
        assertEquals(manifest.get("sessions").size(), items.size(), "every session is listed once: " + items.keySet());
        for (JsonNode s : manifest.get("sessions")) {
            String id = s.get("id").asString();
            AuditResult.Item it = items.get(id);
            assertNotNull(it, s.get("kind").asString() + " " + id);
            String got = it.action().equals("retain") ? "retain" : it.action() + " " + it.confidence();
            assertEquals(
                    s.get("expected").asString(),
                    got,
                    s.get("kind").asString() + " " + id + " (" + it.rule() + ": " + it.reason() + ")");
            assertEquals(s.get("rule").asString(), it.rule(), s.get("kind").asString() + " " + id + ": " + it.reason());
            assertEquals("claude", it.store());
            assertEquals(s.get("project").asString(), it.evidence().project());
            if (s.get("title").isString())
                assertEquals(s.get("title").asString(), it.evidence().title(), id);
            int want = s.get("messages").asInt();
            if (want >= 0 && it.evidence().message_count_exact())
                assertEquals(want, it.evidence().message_count(), id);
            else if (want >= 0)
                assertTrue(
                        Math.abs(want - it.evidence().message_count()) <= want / 5 + 1,
                        id + ": estimated " + it.evidence().message_count());
            if (it.evidence().title() == null
                    && !"subagent".equals(it.evidence().source()))
                assertTrue(it.evidence().message_count_exact(), id);
            assertEquals(s.get("live").asBoolean(), it.evidence().ended_at() == null, id);
        }
        AuditResult r = o.result();
        assertEquals(manifest.get("current_session_id").asString(), r.current().session_id());
        assertEquals("newest_live_in_cwd", r.current().found_by());
        assertEquals(1, r.stores().size());
        AuditResult.StoreOut so = r.stores().get(0);
        assertEquals("claude", so.store());
        assertEquals(24.0, so.idle_hours());
        assertTrue(
                so.warnings().stream()
                        .anyMatch(
                                w -> w.contains("-home-dev-notes/sessions-index.json") && w.contains("left as it is")),
                so.warnings().toString());
        assertTrue(
                so.projects().stream()
                        .anyMatch(p -> p.project().equals("-home-dev-webapp")
                                && "/home/dev/webapp".equals(p.cwd())
                                && p.live() == 4
                                && p.subagents() == 2),
                so.projects().toString());
        assertFalse(
                items.get(manifest.get("generated")
                                .get(0)
                                .get("path")
                                .asString()
                                .replaceAll(".*/|\\.jsonl", ""))
                        .evidence()
                        .message_count_exact(),
                "the 10 MB transcript's count is an estimate");
        // the report counts Claude Code items by project, named by their working directory
        assertTrue(o.text().contains("Claude Code — " + home.resolve("projects")), o.text());
        assertTrue(o.text().contains("/home/dev/webapp"), o.text());
        assertTrue(o.text().contains("/home/dev/api"), o.text());
        assertTrue(
                o.result().decision_groups().stream().anyMatch(g -> g.sources().containsKey("-home-dev-webapp")),
                o.result().decision_groups().toString());
    }

    @Test
    void anArgumentNamesTheCurrentSessionAndWithoutACallerProjectThereIsNone() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        JsonNode manifest = ClaudeTestHomes.manifest();
        String b5 = null;
        for (JsonNode s : manifest.get("sessions"))
            if (s.get("kind").asString().equals("continuation"))
                b5 = s.get("id").asString();
        AuditEngine.Outcome o = audit(ClaudeTestHomes.claudeOnly(tmp, home), "claude", b5);
        assertEquals("argument", o.result().current().found_by());
        // the former current session is now just a live session of a crowded project
        AuditResult.Item a1 = FixtureVerdictTest.all(o.result())
                .get(manifest.get("current_session_id").asString());
        assertEquals("D", a1.rule());
        AuditEngine.Outcome none = new AuditEngine(
                        ClaudeTestHomes.claudeOnly(tmp, home), TestHomes.CLOCK, Preferences.empty())
                .callerCwd(Path.of("/somewhere/else"))
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, "claude", 0));
        assertEquals("none", none.result().current().found_by());
    }

    @Test
    void theIdleTimeDecidesWhatIsLive() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        AuditEngine.Outcome o = new AuditEngine(
                        ClaudeTestHomes.claudeOnly(tmp, home), TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, "claude", 240));
        // ten days: everything but the oldest sessions is live, so nothing untitled is ended and rule B is silent
        assertTrue(FixtureVerdictTest.all(o.result()).values().stream()
                .noneMatch(i -> i.rule().equals("B") && i.evidence().ended_at() == null));
        assertEquals(240.0, o.result().stores().get(0).idle_hours());
        assertTrue(
                o.result().totals().active() > 15, "live " + o.result().totals().active());
    }

    @Test
    void bothHomesAreAuditedByDefaultAndReportedPerStore() throws Exception {
        Path hermes = TestHomes.copyFixture(tmp);
        Path claude = ClaudeTestHomes.install(tmp, false);
        StewardPaths paths = StewardPaths.of(hermes, claude);
        assertEquals(
                hermes.resolve("steward"), paths.stateDir(), "with both homes the Hermes home keeps the state dir");
        AuditEngine.Outcome o = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500));
        AuditResult r = o.result();
        assertEquals(2, r.stores().size());
        assertEquals("hermes", r.stores().get(0).store());
        assertEquals("claude", r.stores().get(1).store());
        assertEquals(
                r.stores().get(0).totals().all() + r.stores().get(1).totals().all(),
                r.totals().all());
        assertEquals(
                TestHomes.manifest().get("sessions").size()
                        + ClaudeTestHomes.manifest().get("sessions").size()
                        - 1,
                FixtureVerdictTest.all(r).size(),
                "the 10 MB transcript was not installed");
        assertTrue(o.text().contains("Hermes — ") && o.text().contains("Claude Code — "), o.text());
        assertEquals(2, o.plan().storeRefs().size());
        // Hermes-only audits read exactly as before
        AuditEngine.Outcome h = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, "hermes", 0));
        assertFalse(h.text().contains("Hermes — "), h.text());
        assertEquals(1, h.result().stores().size());
    }

    @Test
    void theCommittedFixtureIsWhatTheGeneratorWrites() throws Exception {
        Path out = tmp.resolve("generated");
        ClaudeHomeFixture.generate(out, false);
        Map<String, String> committed = ClaudeTestHomes.tree(ClaudeTestHomes.fixture());
        Map<String, String> fresh = ClaudeTestHomes.tree(out);
        Set<String> differ = new TreeSet<>(committed.keySet());
        differ.addAll(fresh.keySet());
        differ.removeIf(k -> Objects.equals(committed.get(k), fresh.get(k)));
        assertTrue(
                differ.isEmpty(),
                "fixtures/claude-home differs from its generator (run fixtures/generate-claude-home): " + differ);
    }
}
