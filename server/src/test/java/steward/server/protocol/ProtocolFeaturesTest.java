package steward.server.protocol;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.claude.fixture.ClaudeHomeFixture;
import steward.config.StewardPaths;
import steward.server.tools.ToolContext;
import steward.sessions.inspect.InspectEngine;
import steward.sessions.inspect.SessionSources;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;

class ProtocolFeaturesTest {
    static ToolContext ctx(Path home) {
        return new ToolContext(
                StewardPaths.of(home), Clock.fixed(Instant.parse("2026-11-30T00:00:00Z"), ZoneOffset.UTC), Work.NONE);
    }

    static Path fixture(Path tmp) throws Exception {
        return TestHomes.copyFixture(tmp);
    }

    @Test
    void cancellationReachesTheRunningRequestOnlyInItsSession() {
        Cancellations c = new Cancellations();
        AtomicBoolean a = c.register("s1", "7");
        AtomicBoolean b = c.register("s2", "7");
        assertTrue(c.cancel("s1", "7"));
        assertTrue(a.get());
        assertFalse(b.get());
        c.finished("s1", "7");
        c.finished("s2", "7");
        assertEquals(0, c.size());
    }

    @Test
    void aCancellationThatOvertakesItsRequestIsNotLost() {
        Cancellations c = new Cancellations();
        assertFalse(c.cancel("s", "9"), "not running yet");
        assertTrue(c.register("s", "9").get());
        c.finished("s", "9");
        assertFalse(c.register("s", "9").get(), "a later request with the same id starts fresh");
    }

    @Test
    void workReadsTheFlagAndStopsAtCheckpoints() {
        AtomicBoolean flag = new AtomicBoolean();
        ExchangeWork w = new ExchangeWork(null, null, flag);
        w.checkpoint("before");
        w.progress(1, 2, "no token: nothing sent, no failure");
        flag.set(true);
        Work.Cancelled e = assertThrows(Work.Cancelled.class, () -> w.checkpoint("item 3"));
        assertTrue(e.getMessage().contains("item 3"));
    }

    @Test
    void completionsFilterByPrefixAndSayHowManyMatched() {
        var r = StewardPrompts.complete(List.of("en", "zh"), "Z");
        assertEquals(List.of("zh"), r.completion().values());
        assertEquals(1, r.completion().total());
        assertFalse(r.completion().hasMore());
        List<String> many = IntStream.range(0, 150).mapToObj(i -> "s" + i).toList();
        var capped = StewardPrompts.complete(many, "s");
        assertEquals(100, capped.completion().values().size());
        assertEquals(150, capped.completion().total());
        assertTrue(capped.completion().hasMore());
        assertTrue(StewardPrompts.complete(List.of("memory", "user"), "x")
                .completion()
                .values()
                .isEmpty());
    }

    @Test
    void sessionIdsAreCompletedMostRecentFirst(@TempDir Path tmp) throws Exception {
        List<String> ids = StewardPrompts.sessionIds(ctx(fixture(tmp)));
        assertEquals(62, ids.size());
        assertTrue(StewardPrompts.sessionIds(ctx(tmp.resolve("no-home"))).isEmpty());
    }

    @Test
    void housekeepingPromptFollowsTheLanguageAndRefusesUnknownValues() {
        String zh = text(StewardPrompts.housekeeping(Map.of("locale", "zh")));
        assertTrue(zh.contains("简体中文") && zh.contains("session_audit") && zh.contains("session_apply"));
        String en = text(StewardPrompts.housekeeping(Map.of()));
        assertTrue(en.contains("English") && en.contains("interactive"));
        assertThrows(McpError.class, () -> StewardPrompts.housekeeping(Map.of("locale", "fr")));
    }

    @Test
    void rememberPromptNeedsAFactAndNamesTheTarget() {
        String user = text(StewardPrompts.remember(Map.of("fact", "Prefers metric units", "target", "user")));
        assertTrue(
                user.contains("USER.md") && user.contains("Prefers metric units") && user.contains("memory_precheck"));
        assertFalse(user.contains("[base]"), "tags are for MEMORY.md only");
        assertTrue(text(StewardPrompts.remember(Map.of("fact", "x"))).contains("[base]"));
        assertThrows(McpError.class, () -> StewardPrompts.remember(Map.of()));
        assertThrows(McpError.class, () -> StewardPrompts.remember(Map.of("fact", "x", "target", "disk")));
    }

    static String text(McpSchema.GetPromptResult r) {
        return ((McpSchema.TextContent) r.messages().get(0).content()).text();
    }

    @Test
    void auditResourceShowsTheNewestReadablePlan(@TempDir Path tmp) throws Exception {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        ToolContext c = ctx(home);
        assertTrue(StewardResources.auditText(c).startsWith("No audit yet"));
        Path plans = c.paths().stateDir().resolve("plans");
        Files.createDirectories(plans);
        Files.writeString(plans.resolve("old.json"), "{\"plan_id\":\"p-old\",\"report_text\":\"old report\"}");
        Files.setLastModifiedTime(plans.resolve("old.json"), FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        Files.writeString(plans.resolve("new.json"), "{\"plan_id\":\"p-new\",\"report_text\":\"new report\"}");
        Files.setLastModifiedTime(plans.resolve("new.json"), FileTime.from(Instant.parse("2026-02-01T00:00:00Z")));
        Files.writeString(plans.resolve("torn.json"), "{\"plan_id\":\"p-torn\",\"report_te");
        Files.setLastModifiedTime(plans.resolve("torn.json"), FileTime.from(Instant.parse("2026-03-01T00:00:00Z")));
        String t = StewardResources.auditText(c);
        assertTrue(t.startsWith("new report") && t.contains("p-new"), t);
    }

    @Test
    void sessionResourceShowsTitleStatusCountsAndEdges(@TempDir Path tmp) throws Exception {
        ToolContext c = ctx(fixture(tmp));
        String id = StewardPrompts.sessionIds(c).get(0);
        String t = StewardResources.sessionText(c, id);
        assertTrue(t.startsWith("# "), t);
        assertTrue(t.contains("Session " + id) && t.contains("Messages: ") && t.contains("## First messages"), t);
        try (var src = SessionSources.open(c.paths())) {
            String summary =
                    InspectEngine.inspect(src, InspectEngine.Request.of(id)).text();
            assertTrue(t.contains(summary), "the resource shows session_inspect's summary:\n" + t);
        }
        McpError e = assertThrows(McpError.class, () -> StewardResources.sessionText(c, "no-such-session"));
        assertTrue(e.getMessage().contains("no such session"), e.getMessage());
    }

    @Test
    void sessionResourceShowsAClaudeCodeSessionAsSessionInspectDoes(@TempDir Path tmp) throws Exception {
        Path hermes = fixture(tmp);
        Path claude = ClaudeTestHomes.install(tmp, false);
        ToolContext c = new ToolContext(
                StewardPaths.of(hermes, claude), Clock.fixed(ClaudeHomeFixture.NOW, ZoneOffset.UTC), Work.NONE);
        String id =
                "37675f34-b941-36c6-ac2b-02e6ad25bf26"; // "Deploy script fixes": 2 prompts, 8 answers, 5 tool results
        String t = StewardResources.sessionText(c, id);
        assertTrue(t.startsWith("# Deploy script fixes\n\n"), t);
        try (var src =
                SessionSources.open(c.paths(), null, List.of(id), c.clock().millis() / 1000.0)) {
            assertEquals("claude_code", src.store());
            String summary =
                    InspectEngine.inspect(src, InspectEngine.Request.of(id)).text();
            assertTrue(t.contains(summary), "the resource shows session_inspect's summary:\n" + t);
        }
        // the 10 prompts and answers: the first 3, 4 left out, the last 3 (tool output is counted in the summary, not
        // shown)
        assertTrue(t.contains("## First messages\n\n**user** · 2026-08-06T09:56:30Z\n"), t);
        assertTrue(t.contains("\n… 4 message(s) left out …\n"), t);
        assertTrue(t.contains("## Last messages\n"), t);
        assertEquals(6, t.split("\n\\*\\*(user|assistant)\\*\\* · ", -1).length - 1, t);
        // a project-level agent file is shown as the subagent it is
        String agent = StewardResources.sessionText(c, "agent-7d3e9a1c");
        assertTrue(agent.startsWith("# (untitled session)\n\n"), agent);
        assertTrue(agent.contains("dc412e7b-431d-3d2d-8d4f-4585bbc7ea74/agent-7d3e9a1c"), agent);
        McpError e = assertThrows(McpError.class, () -> StewardResources.sessionText(c, "no-such-session"));
        assertTrue(e.getMessage().contains("no such session"), e.getMessage());
    }

    @Test
    void watcherReportsChangesWhoeverMadeThem(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("memories");
        List<String> changed = new CopyOnWriteArrayList<>();
        try (MemoryWatcher w = new MemoryWatcher(dir, 20)) {
            w.addListener(changed::add);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("USER.md"), "Name: Ada");
            await().atMost(Duration.ofSeconds(5)).until(() -> changed.contains("USER.md"));
            Thread.sleep(100);
            assertEquals(List.of("USER.md"), changed, "one change, one notification; MEMORY.md untouched");
            Files.writeString(dir.resolve("notes.txt"), "not watched");
            Files.setLastModifiedTime(dir.resolve("USER.md"), FileTime.from(Instant.now()));
            Thread.sleep(150);
            assertEquals(1, changed.size(), "same bytes, other files: no notification");
        }
    }
}
