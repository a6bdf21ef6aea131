package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.claude.ClaudeHome;
import steward.claude.fixture.ClaudeHomeFixture;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** Recall over a Claude Code home: what is indexed, URIs, incremental reads, scopes, a home with only Claude Code. */
class ClaudeRecallTest {
    @TempDir
    Path tmp;

    static final String DEPLOY = "37675f34-b941-36c6-ac2b-02e6ad25bf26",
            FLAKY = "a86ba002-4211-3f0c-b8d5-696cd518c419",
            SIDECHAINS = "dc412e7b-431d-3d2d-8d4f-4585bbc7ea74";

    Path home;

    StewardPaths claudeOnly() throws IOException {
        home = ClaudeTestHomes.install(tmp, false);
        return ClaudeTestHomes.claudeOnly(tmp, home);
    }

    static RecallEngine engine(StewardPaths paths) {
        return new RecallEngine(paths, RecallTestHomes.CLOCK, RecallEngine.Options.LEXICAL);
    }

    static RecallEngine.Query q(String text, int k, String... scopes) {
        return new RecallEngine.Query(text, k, scopes.length == 0 ? null : Set.of(scopes), null, null, null);
    }

    static List<RecallItem> hits(RecallEngine e, String text, String... scopes) {
        return e.search(q(text, 50, scopes)).hits().stream()
                .map(RecallEngine.Hit::item)
                .toList();
    }

    /** Every URI in the index (read with Lucene directly). */
    static Set<String> uris(StewardPaths paths) throws IOException {
        Set<String> out = new TreeSet<>();
        try (FSDirectory d = FSDirectory.open(RecallEngine.recallDir(paths).resolve("index"));
                DirectoryReader r = DirectoryReader.open(d)) {
            for (LeafReaderContext ctx : r.leaves()) {
                BinaryDocValues uri = ctx.reader().getBinaryDocValues(RecallIndex.F_URI);
                Bits live = ctx.reader().getLiveDocs();
                if (uri == null) continue;
                for (int doc = uri.nextDoc(); doc != BinaryDocValues.NO_MORE_DOCS; doc = uri.nextDoc()) {
                    if (live == null || live.get(doc)) out.add(uri.binaryValue().utf8ToString());
                }
            }
        }
        return out;
    }

    /** The uuid of the event of a transcript whose text content is {@code text}. */
    static String eventUuid(Path transcript, String text) throws IOException {
        for (String line : Files.readAllLines(transcript)) {
            JsonNode n;
            try {
                n = Json.MAPPER.readTree(line);
            } catch (RuntimeException e) {
                continue;
            }
            if (n.path("message").path("content").isString()
                    && n.path("message").path("content").asString().equals(text))
                return n.get("uuid").asString();
            for (JsonNode b : n.path("message").path("content"))
                if (text.equals(b.path("text").asString(null)))
                    return n.get("uuid").asString();
        }
        throw new AssertionError("no event says " + text);
    }

    Path transcript(String project, String uuid) {
        return home.resolve("projects").resolve(project).resolve(uuid + ".jsonl");
    }

    static String userEvent(String session, String uuid, String text, String ts) {
        return "{\"parentUuid\":null,\"isSidechain\":false,\"type\":\"user\",\"sessionId\":\"" + session
                + "\",\"uuid\":\"" + uuid + "\",\"timestamp\":\"" + ts
                + "\",\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}\n";
    }

    static String assistantEvent(String session, String uuid, String text, String ts) {
        return "{\"parentUuid\":null,\"isSidechain\":false,\"type\":\"assistant\",\"sessionId\":\"" + session
                + "\",\"uuid\":\"" + uuid
                + "\",\"timestamp\":\"" + ts
                + "\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":"
                + "\"secret musings about zanzibar\"},{\"type\":\"text\",\"text\":\"" + text
                + "\"},{\"type\":\"tool_use\",\"name\":\"Bash\","
                + "\"input\":{\"command\":\"grep quokka\"}}]}}\n";
    }

    static void append(Path f, String s) throws IOException {
        Files.writeString(f, s, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        Files.setLastModifiedTime(
                f, FileTime.fromMillis(Files.getLastModifiedTime(f).toMillis() + 2000));
    }

    @Test
    void indexesWhatTheUserAndTheAssistantSaidButNoToolOutputThinkingToolInputsOrSidechains() throws Exception {
        try (RecallEngine e = engine(claudeOnly())) {
            List<RecallItem> fix = hits(e, "deploy script fails on staging", RecallItem.CLAUDE_SESSION);
            Path deploy = transcript("-home-dev-infra", DEPLOY);
            String said = "Fix the deploy script: it fails on staging.";
            assertEquals(
                    "steward://claude/session/" + DEPLOY + "/event/" + eventUuid(deploy, said),
                    fix.get(0).uri());
            assertEquals(said, fix.get(0).text());
            assertEquals(DEPLOY, fix.get(0).sessionId());
            assertEquals("Deploy script fixes", fix.get(0).title());
            assertTrue(
                    hits(e, "STAGE set").stream().anyMatch(it -> it.text().equals("The script needs STAGE set.")),
                    "assistant text");
            // tool output ("migrate.sh: STAGE is not set"), tool inputs ("--dry-run"), thinking and sidechain turns are
            // not indexed
            for (String absent : List.of(
                    "migrate",
                    "smoke passed 12",
                    "dry run",
                    "Let me think about things",
                    "rate limit middleware codebase")) {
                for (RecallItem it : hits(e, absent, RecallItem.CLAUDE_SESSION)) {
                    assertFalse(
                            it.text().contains("migrate.sh")
                                    || it.text().contains("12 passed")
                                    || it.text().contains("--dry-run")
                                    || it.text().contains("think about")
                                    || it.text().contains("middleware"),
                            absent + " found " + it.text());
                }
            }
            assertTrue(
                    Files.readString(transcript("-home-dev-api", SIDECHAINS))
                            .contains("Found it in middleware/limit.js"),
                    "the fixture has sidechains");
        }
    }

    @Test
    void indexesClaudeMdFilesAndAutoMemoryWithDocumentedUris() throws Exception {
        StewardPaths paths = claudeOnly();
        // a project whose working directory holds CLAUDE.md files (the fixture's workspace/webapp)
        Path cwd =
                home.resolve(ClaudeHomeFixture.MEMORY_PROJECT).toAbsolutePath().normalize();
        String project = ClaudeHome.encodeCwd(cwd.toString());
        Path dir = Files.createDirectories(home.resolve("projects").resolve(project));
        Files.writeString(
                dir.resolve("11111111-2222-3333-4444-555555555555.jsonl"),
                "{\"type\":\"user\",\"cwd\":" + Json.MAPPER.writeValueAsString(cwd.toString())
                        + ",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"hello there\"}}\n");
        try (RecallEngine e = engine(paths)) {
            assertEquals(
                    "steward://claude/memory/-home-dev-webapp/memory/test-database.md",
                    hits(e, "postgres container port 5433", RecallItem.CLAUDE_MEMORY)
                            .get(0)
                            .uri());
            assertEquals(
                    "steward://claude/memory/user/memory/personal/editor.md",
                    hits(e, "Neovim LazyVim", RecallItem.CLAUDE_MEMORY).get(0).uri());
            assertEquals(
                    "steward://claude/memory/user/rules/git.md/"
                            + Identity.id("- Write commit messages in the imperative mood."),
                    hits(e, "commit messages imperative mood", RecallItem.CLAUDE_MEMORY)
                            .get(0)
                            .uri());
            assertEquals(
                    "steward://claude/memory/user/CLAUDE.md/"
                            + Identity.id("- Prefer ripgrep (rg) over grep for code searches."),
                    hits(e, "ripgrep code searches", RecallItem.CLAUDE_MEMORY)
                            .get(0)
                            .uri());
            assertEquals(
                    "steward://claude/memory/" + project + "/CLAUDE.md/"
                            + Identity.id("- Never commit directly to main; open a pull request."),
                    hits(e, "never commit directly to main pull request", RecallItem.CLAUDE_MEMORY)
                            .get(0)
                            .uri());
            // index lines without a topic file are entries; lines pointing to an indexed topic file are not repeated
            assertTrue(hits(e, "resource-17 paginated cursor", RecallItem.CLAUDE_MEMORY)
                    .get(0)
                    .uri()
                    .startsWith("steward://claude/memory/-home-dev-api/memory/MEMORY.md/"));
            for (RecallItem it : hits(e, "pnpm lockfile npm", RecallItem.CLAUDE_MEMORY))
                assertFalse(it.uri().contains("MEMORY.md"), it.uri());
            for (String uri : uris(paths)) {
                RecallItem it = e.resolve(uri);
                assertNotNull(it, uri);
                assertEquals(uri, it.uri());
            }
            assertThrows(StewardError.class, () -> e.resolve("steward://claude/session/x"));
            assertNull(e.resolve("steward://claude/session/00000000-0000-0000-0000-000000000000/event/e1"));
        }
    }

    @Test
    void urisAreStableAcrossReindexAndMalformedLinesAreSkipped() throws Exception {
        StewardPaths paths = claudeOnly();
        Set<String> first;
        try (RecallEngine e = engine(paths)) {
            e.sync();
            first = uris(paths);
            assertTrue(
                    first.stream()
                                    .filter(u -> u.startsWith("steward://claude/session/" + FLAKY + "/"))
                                    .count()
                            >= 14,
                    "the session with malformed lines and a truncated tail is indexed");
        }
        StewardPaths again = paths.withStateDir(tmp.resolve("other-state"));
        try (RecallEngine e = engine(again)) {
            e.sync();
            assertEquals(first, uris(again));
        }
        try (RecallEngine e = engine(paths)) {
            assertTrue(
                    e.reconcile(steward.Work.NONE).written() == 0,
                    "a thorough pass over unchanged files writes nothing");
            assertEquals(first, uris(paths));
        }
    }

    @Test
    void oneUnreadableFileIsLeftOutAndReportedTheRestOfTheHomeIsSearched() throws Exception {
        StewardPaths paths = claudeOnly();
        // a topic file saved in Latin-1 (a transcript Claude Code wrote as root after `sudo claude` fails the same way)
        Path bad = home.resolve("projects/-home-dev-webapp/memory/test-database.md");
        byte[] good = Files.readAllBytes(bad);
        Files.write(bad, "---\nname: Caf\u00e9\n---\n\nThe caf\u00e9 menu.\n".getBytes(StandardCharsets.ISO_8859_1));
        try (RecallEngine e = engine(paths)) {
            RecallService s = new RecallService(e);
            RecallService.SearchOutput out = s.search(new RecallService.SearchRequest(
                    "What did we do about the deploy script on staging?", 5, null, null, null, null));
            assertFalse(out.items().isEmpty(), out.index().warnings().toString());
            assertTrue(
                    out.items().get(0).uri().startsWith("steward://claude/session/" + DEPLOY + "/event/"),
                    out.items().toString());
            assertTrue(
                    out.index().warnings().stream().anyMatch(w -> w.contains("test-database.md")),
                    out.index().warnings().toString());
            assertFalse(
                    hits(e, "stale session cookie redirect loop", RecallItem.CLAUDE_MEMORY)
                            .isEmpty(),
                    "the other memory files are indexed");
            ClaudeRecall src = e.claudeSource();
            long full = src.fullReads;
            e.sync();
            assertEquals(
                    full, src.fullReads, "the next sync reads only the file it could not read, not the home again");
            Files.write(bad, good);
            Files.setLastModifiedTime(bad, FileTime.fromMillis(System.currentTimeMillis() + 5000));
            SyncReport fixed = e.sync();
            assertTrue(fixed.errors().isEmpty(), fixed.errors().toString());
            assertFalse(hits(e, "postgres container port 5433", RecallItem.CLAUDE_MEMORY)
                    .isEmpty());
        }
    }

    @Test
    void anAppendedTranscriptIsReadFromWhereItWasLeftAndAnUnchangedOneIsNotReadAgain() throws Exception {
        StewardPaths paths = claudeOnly();
        try (RecallEngine e = engine(paths)) {
            e.sync();
            ClaudeRecall src = e.claudeSource();
            long full = src.fullReads, tail = src.tailReads;
            assertTrue(full > 20);
            SyncReport nothing = e.sync();
            assertFalse(nothing.changed());
            assertEquals(full, src.fullReads, "nothing changed: nothing read");
            Path f = transcript("-home-dev-infra", DEPLOY);
            append(
                    f,
                    userEvent(DEPLOY, "new-u-1", "Where do the quokka backups live?", "2026-08-08T10:00:00Z")
                            + assistantEvent(
                                    DEPLOY,
                                    "new-a-1",
                                    "The quokka backups live on the NAS under /vol/quokka.",
                                    "2026-08-08T10:00:05Z"));
            e.sync();
            assertEquals(full, src.fullReads, "no file read whole");
            assertEquals(tail + 1, src.tailReads, "one file read from its indexed end");
            List<RecallItem> got = hits(e, "quokka backups NAS", RecallItem.CLAUDE_SESSION);
            assertEquals(
                    "steward://claude/session/" + DEPLOY + "/event/new-a-1",
                    got.get(0).uri());
            assertEquals("Deploy script fixes", got.get(0).title(), "the session's title, kept from the first read");
            assertTrue(hits(e, "zanzibar musings").isEmpty(), "thinking of the appended turn");
            assertTrue(uris(paths).contains("steward://claude/session/" + DEPLOY + "/event/new-u-1"));
            // the truncated last line of a transcript, completed by its writer, is read then
            Path flaky = transcript("-home-dev-webapp", FLAKY);
            String raw = Files.readString(flaky);
            assertFalse(raw.endsWith("\n"));
            append(
                    flaky,
                    "age\":{\"role\":\"assistant\",\"content\":\"The flaky wombat test waits for the socket now.\"},\"uuid\":\"done-1\"}\n");
            e.sync();
            assertEquals(full, src.fullReads);
            assertEquals(
                    "steward://claude/session/" + FLAKY + "/event/done-1",
                    hits(e, "flaky wombat socket", RecallItem.CLAUDE_SESSION)
                            .get(0)
                            .uri());
            // a new title entry: the file is read again so every item carries it
            append(
                    f,
                    "{\"type\":\"custom-title\",\"customTitle\":\"Quokka storage\",\"sessionId\":\"" + DEPLOY
                            + "\"}\n");
            e.sync();
            assertEquals(full + 1, src.fullReads);
            assertEquals(
                    "Quokka storage",
                    hits(e, "deploy script fails on staging", RecallItem.CLAUDE_SESSION)
                            .get(0)
                            .title());
            // a rewritten file (its indexed bytes changed) is read whole; a removed one leaves the index
            Files.writeString(
                    f,
                    userEvent(DEPLOY, "only-1", "A completely rewritten platypus transcript.", "2026-08-09T10:00:00Z"));
            e.sync();
            assertEquals(full + 2, src.fullReads);
            assertFalse(uris(paths).contains("steward://claude/session/" + DEPLOY + "/event/new-a-1"));
            assertEquals(
                    1,
                    hits(e, "rewritten platypus transcript", RecallItem.CLAUDE_SESSION)
                            .size());
            Files.delete(f);
            e.sync();
            assertTrue(uris(paths).stream().noneMatch(u -> u.contains(DEPLOY)));
        }
    }

    @Test
    void scopesSelectAHomeAndBothHomesAreServedTogether() throws Exception {
        Path hermes = TestHomes.copyFixture(tmp);
        home = ClaudeTestHomes.install(tmp, false);
        StewardPaths both = StewardPaths.of(hermes, home).withStateDir(tmp.resolve("state"));
        try (RecallEngine e = engine(both)) {
            e.sync();
            var counts = e.counts();
            for (String k : RecallItem.KINDS)
                assertTrue(
                        counts.get(k) > 0 || k.equals(RecallItem.LOG) || k.equals(RecallItem.SKILL), k + " " + counts);
            assertTrue(
                    counts.get(RecallItem.SESSION) > 0 && counts.get(RecallItem.CLAUDE_SESSION) > 0, counts.toString());
            for (RecallItem it : hits(e, "login redirect tests", RecallItem.CLAUDE_SESSION))
                assertEquals(RecallItem.CLAUDE_SESSION, it.source());
            for (RecallItem it : hits(e, "login redirect tests", RecallItem.SESSION)) {
                assertEquals(RecallItem.SESSION, it.source());
                assertFalse(it.uri().startsWith("steward://claude/"));
            }
            for (RecallItem it : hits(e, "pnpm postgres", RecallItem.MEMORY))
                assertEquals(RecallItem.MEMORY, it.source());
            assertEquals(
                    Set.of(RecallItem.CLAUDE_SESSION, RecallItem.CLAUDE_MEMORY),
                    RecallService.scopes(List.of(RecallItem.CLAUDE_SESSION, RecallItem.CLAUDE_MEMORY), "t"));
        }
    }

    @Test
    void aHomeWithOnlyClaudeCodeServesSearchInjectAndFeedback() throws Exception {
        StewardPaths paths = claudeOnly();
        assertFalse(Files.exists(paths.hermesHome()));
        paths.requireHome("recall_search");
        RecallService s = new RecallService(engine(paths));
        RecallService.SearchOutput out = s.search(new RecallService.SearchRequest(
                "What did we do about the deploy script on staging?", 5, null, null, null, null));
        assertTrue(
                out.items().get(0).uri().startsWith("steward://claude/session/" + DEPLOY + "/event/"),
                out.items().toString());
        InjectEngine.Result r = s.inject(new InjectEngine.Request(
                "Which port does the e2e test database use again?", null, null, null, "active"));
        assertTrue(
                r.items().stream()
                        .anyMatch(c ->
                                c.uri().equals("steward://claude/memory/-home-dev-webapp/memory/test-database.md")),
                r.reason() + " " + r.items());
        RecallService.FeedbackOutput fb = s.feedback(
                r.decision_id(), List.of("steward://claude/memory/-home-dev-webapp/memory/test-database.md"), "used");
        assertEquals(1, fb.recorded().size());
        assertEquals("claude_memory", FeedbackStore.kind("steward://claude/memory/user/CLAUDE.md/abc"));
        assertEquals("claude_session", FeedbackStore.kind("steward://claude/session/x/event/y"));
        // the current session's own newest turns are not injected back into it
        Set<String> own = s.engine().recentMessageUris(DEPLOY, 2);
        assertEquals(2, own.size(), own.toString());
        s.engine().close();
    }

    @Test
    @SuppressWarnings("try") // the background indexer runs for the try body, never referenced
    void theBackgroundIndexerPicksUpAnAppendToAClaudeCodeTranscript() throws Exception {
        StewardPaths paths = claudeOnly();
        try (RecallEngine e = engine(paths)) {
            e.sync();
            try (BackgroundIndexer bg = new BackgroundIndexer(e, 600_000).start()) {
                RecallService svc = new RecallService(e);
                assertFalse(
                        svc.search(new RecallService.SearchRequest("deploy script", 5, null, null, null, null))
                                .index()
                                .stale(),
                        "nothing changed");
                append(
                        transcript("-home-dev-infra", DEPLOY),
                        userEvent(
                                DEPLOY, "bg-u-1", "The wombat ledger moved to cold storage.", "2026-08-08T10:00:00Z"));
                // the directories are watched while the indexer runs: the call sees the move once the watch service
                // has delivered the event (on its own thread, within milliseconds)
                RecallService.SearchOutput stale;
                long seen = System.nanoTime() + 10_000_000_000L;
                do stale = svc.search(new RecallService.SearchRequest("wombat ledger", 5, null, null, null, null));
                while (!stale.index().stale() && System.nanoTime() < seen);
                assertTrue(stale.index().stale(), "the call saw the transcript move");
                assertEquals(0, stale.index().items_written(), "and left it to the indexer");
                long deadline = System.nanoTime() + 120_000_000_000L;
                RecallService.SearchOutput later;
                do {
                    Thread.sleep(50);
                    later = svc.search(new RecallService.SearchRequest(
                            "wombat ledger", 5, List.of(RecallItem.CLAUDE_SESSION), null, null, null));
                } while (later.items().isEmpty() && System.nanoTime() < deadline);
                assertEquals(
                        "steward://claude/session/" + DEPLOY + "/event/bg-u-1",
                        later.items().get(0).uri());
            }
        }
    }

    /** Syncs until something is written (the watch service delivers events on its own thread) or 20 s pass. */
    static SyncReport syncUntilWritten(RecallEngine e) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        SyncReport r;
        while ((r = e.sync()).written() == 0 && System.nanoTime() < deadline) Thread.sleep(20);
        return r;
    }

    @Test
    void whileWatchedASyncLooksAtTheQueueOfChangedPathsAndStillSeesAnAppend() throws Exception {
        StewardPaths paths = claudeOnly();
        try (RecallEngine e = engine(paths)) {
            e.sync();
            ClaudeRecall src = e.claudeSource();
            assertTrue(e.watchSources(true), "this platform gives a watch service");
            e.sync(); // lists again, registering every directory
            SyncReport nothing = e.sync();
            assertFalse(nothing.changed());
            assertEquals(0, src.lastRefreshStats(), "nothing changed: not one stat");
            // an old transcript (not among the ones a stat refresh checks each time) is appended to
            Path f = transcript("-home-dev-infra", DEPLOY);
            Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 40L * 24 * 3600_000));
            long tail = src.tailReads;
            append(f, userEvent(DEPLOY, "watch-u-1", "The numbat ledger sits in bucket nine.", "2026-08-08T10:00:00Z"));
            SyncReport r = syncUntilWritten(e);
            assertEquals(1, r.written(), "the appended turn");
            assertTrue(
                    src.lastRefreshStats() <= 2, "the changed file stat'ed, not the home: " + src.lastRefreshStats());
            assertEquals(tail + 1, src.tailReads, "read from its indexed end");
            assertEquals(
                    "steward://claude/session/" + DEPLOY + "/event/watch-u-1",
                    hits(e, "numbat ledger", RecallItem.CLAUDE_SESSION).get(0).uri());
            // a new session in a new project directory
            String uuid = "0d7e2a9c-1111-4222-8333-944455556666";
            Path dir = Files.createDirectories(home.resolve("projects").resolve("-home-dev-brandnew"));
            Files.writeString(
                    dir.resolve(uuid + ".jsonl"),
                    userEvent(uuid, "new-dir-u-1", "Where is the pangolin roster kept?", "2026-08-09T10:00:00Z"));
            syncUntilWritten(e);
            assertEquals(
                    "steward://claude/session/" + uuid + "/event/new-dir-u-1",
                    hits(e, "pangolin roster", RecallItem.CLAUDE_SESSION).get(0).uri());
            assertEquals(0, src.overflows());
            assertFalse(e.watchSources(false));
            assertFalse(src.watching());
        }
    }

    @Test
    void aWatchQueueThatOverflowsFallsBackToListingAndStatingEverything() throws Exception {
        StewardPaths paths = claudeOnly();
        try (RecallEngine e = engine(paths)) {
            e.sync();
            ClaudeRecall src = e.claudeSource();
            assertTrue(e.watchSources(true));
            e.sync();
            // more events in one directory than a watch key keeps (512): the queue says it lost some
            Path dir = home.resolve("projects").resolve("-home-dev-infra");
            for (int i = 0; i < 700; i++) Files.writeString(dir.resolve("noise-" + i + ".txt"), "x");
            Path f = transcript("-home-dev-infra", DEPLOY);
            append(
                    f,
                    userEvent(DEPLOY, "flood-u-1", "The echidna manifest is in drawer four.", "2026-08-08T10:00:00Z"));
            SyncReport r = syncUntilWritten(e);
            assertEquals(1, r.written());
            assertEquals(1, src.overflows(), "one fallback");
            assertTrue(src.lastRefreshStats() > 20, "every file stat'ed: " + src.lastRefreshStats());
            assertEquals(
                    "steward://claude/session/" + DEPLOY + "/event/flood-u-1",
                    hits(e, "echidna manifest", RecallItem.CLAUDE_SESSION)
                            .get(0)
                            .uri());
            // and watching goes on: the next change costs a look at the queue again
            append(f, userEvent(DEPLOY, "flood-u-2", "The quoll itinerary is pinned.", "2026-08-08T10:05:00Z"));
            syncUntilWritten(e);
            assertTrue(src.lastRefreshStats() <= 2, "stats: " + src.lastRefreshStats());
            assertEquals(1, src.overflows());
        }
    }
}
