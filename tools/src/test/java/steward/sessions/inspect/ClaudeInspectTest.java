package steward.sessions.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.claude.fixture.ClaudeHomeFixture;
import steward.sessions.store.ClaudeSessions;
import steward.testing.ClaudeTestHomes;

/**
 * session_inspect on the Claude Code fixture (fixtures/claude-home, installed with its file times). The figures of E1
 * ("Deploy script fixes", ClaudeHomeFixture.toolSession) are computed by hand from the events the generator writes.
 */
class ClaudeInspectTest {
    static final String E1 = "37675f34-b941-36c6-ac2b-02e6ad25bf26";
    static final String A1 = "68149f26-9a2d-3d96-8f09-abfc0ece24b6";
    static final String SIDECHAINS = "39f47039-b781-37ee-89a0-3beb2725164d";
    static final String MALFORMED = "a86ba002-4211-3f0c-b8d5-696cd518c419";
    static final String ROOT = "01f3d249-6835-3151-a125-68086d92ab04";
    static final String CONT = "9db88f17-a737-3081-8eec-a4c36cb952dd";
    /** The older layout: "API rate limiting design" with sidechain events in its file and a project-level agent-7d3e9a1c.jsonl. */
    static final String OLD = "dc412e7b-431d-3d2d-8d4f-4585bbc7ea74";

    static final String FLAT = OLD + "/agent-7d3e9a1c";
    static final double NOW = ClaudeHomeFixture.NOW.getEpochSecond();

    @TempDir
    static Path tmp;

    static Path home;
    static Map<String, String> before;

    @BeforeAll
    static void install() throws Exception {
        home = ClaudeTestHomes.install(tmp, false);
        before = ClaudeTestHomes.tree(home);
    }

    static ClaudeSessionSource open() {
        return ClaudeSessionSource.open(home, NOW, ClaudeSessions.DEFAULT_IDLE_SECONDS);
    }

    static String text(String id) {
        try (ClaudeSessionSource src = open()) {
            return InspectEngine.inspect(src, InspectEngine.Request.of(id)).text();
        }
    }

    static InspectResult.Report inspect(String id) {
        try (ClaudeSessionSource src = open()) {
            InspectResult r =
                    InspectEngine.inspect(src, InspectEngine.Request.of(id)).result();
            assertEquals("claude_code", r.store());
            return r.sessions().get(0);
        }
    }

    @Test
    void timelineOfTheToolSession() {
        InspectResult.Report r = inspect(E1);
        assertEquals("Deploy script fixes", r.title());
        assertEquals("claude", r.source());
        assertEquals("ended", r.status());
        assertEquals("/home/dev/infra", r.cwd());
        assertEquals("main", r.git_branch());
        assertEquals("claude-sonnet-4-5-20250929", r.model());
        InspectResult.Timeline t = r.timeline();
        assertEquals("2026-08-06T09:56:30Z", t.first_activity());
        assertEquals("2026-08-06T11:59:00Z", t.last_activity());
        assertEquals(7350.0, t.span_seconds());
        // the one pause: the answer at +70 s to the next prompt at +7270 s
        assertEquals(1, t.gap_count());
        assertEquals(
                new InspectResult.Gap("2026-08-06T09:57:40Z", "2026-08-06T11:57:40Z", 7200.0),
                t.gaps().get(0));
        assertEquals(150.0, t.active_seconds());
        assertEquals(2, t.phase_count());
        assertEquals(
                List.of("start", "pause"),
                t.phases().stream().map(InspectResult.Phase::started_by).toList());
        assertEquals(
                List.of(11, 4),
                t.phases().stream().map(InspectResult.Phase::messages).toList());
        assertEquals(
                List.of(4, 1),
                t.phases().stream().map(InspectResult.Phase::tool_calls).toList());
        assertEquals("Now also run the smoke tests.", t.phases().get(1).first_prompt());
    }

    @Test
    void messagesToolsFilesAndCommandsOfTheToolSession() {
        InspectResult.Report r = inspect(E1);
        // 2 prompts, 8 assistant events (one API message written as two), 5 tool results (user events that only carry
        // output)
        assertEquals(15, r.messages().total());
        assertEquals(Map.of("assistant", 8, "tool", 5, "user", 2), r.messages().by_role());
        assertEquals(15, r.messages().stored_count());
        assertEquals(0, r.messages().malformed_lines());
        InspectResult.Tools tools = r.tools();
        assertEquals(5, tools.calls());
        assertEquals(1, tools.failures()); // the dry run whose tool_result has is_error: true
        assertEquals(3, tools.distinct());
        assertEquals(
                new InspectResult.ToolStat("Bash", 3, 1, null, 90.0),
                tools.by_tool().get(0)); // 15 + 15 + 60 s
        assertTrue(tools.by_tool().contains(new InspectResult.ToolStat("Read", 1, 0, null, 2.0)));
        assertTrue(tools.by_tool().contains(new InspectResult.ToolStat("Edit", 1, 0, null, 2.0)));
        assertEquals(
                List.of(new InspectResult.FileOut("/home/dev/infra/deploy.sh", 2, 1, 1)),
                r.files().items());
        assertEquals(
                List.of(
                        new InspectResult.CommandOut("./deploy.sh --dry-run", 2, 1),
                        new InspectResult.CommandOut("make smoke", 1, 0)),
                r.commands().items());
    }

    @Test
    void tokensOncePerApiMessageAndNoInventedCost() {
        InspectResult.UsageOut u = inspect(E1).usage();
        assertTrue(u.recorded());
        assertEquals(7, u.api_calls()); // msg_E1a..g; msg_E1c's usage appears on two events
        assertEquals(100 + 150 + 200 + 250 + 300 + 400 + 420L, u.input_tokens());
        assertEquals(20 + 30 + 40 + 25 + 60 + 35 + 30L, u.output_tokens());
        assertEquals(500 + 650 + 700 + 800 + 900 + 1000L, u.cache_read_tokens());
        assertEquals(500 + 100L, u.cache_write_tokens());
        assertNull(u.estimated_cost_usd());
        assertNull(u.actual_cost_usd());
        assertNull(u.reasoning_tokens());
        assertNull(u.with_subagents());
    }

    @Test
    void subagentsFromTheSubagentsDirectory() {
        InspectResult.Report r = inspect(A1);
        assertEquals("Fix login redirect loop", r.title());
        assertEquals("active", r.status()); // modified 2 minutes before the fixture's now
        assertEquals(1, r.subagents().count());
        InspectResult.Subagent s = r.subagents().items().get(0);
        assertEquals(A1 + "/agent-a1f0c2d94b7e", s.session_id());
        assertEquals("Find the redirect handler", s.goal());
        assertEquals(6, s.messages()); // the agent file's 6 events
        assertEquals("Step 5 of: Find the redirect handler", s.outcome());
        assertEquals(1, r.lineage().subagents());
        // the subagent's own usage (3 API messages of 1200 in / 85 out) is added, no cost is invented
        assertEquals(
                new InspectResult.WithSubagents(1, 6 * 1285L + 3 * 1285L, null),
                r.usage().with_subagents());
    }

    @Test
    void sidechainEventsAreASubagentNotTheSessionsOwnTurns() {
        InspectResult.Report r = inspect(SIDECHAINS);
        assertEquals(6, r.messages().total()); // the 4 sidechain events are left to the subagent
        assertEquals(Map.of("assistant", 3, "user", 3), r.messages().by_role());
        assertEquals(1, r.subagents().count());
        InspectResult.Subagent s = r.subagents().items().get(0);
        assertEquals(SIDECHAINS + "/sidechain-1", s.session_id());
        assertEquals("Search the codebase for rate limit middleware", s.goal());
        assertEquals(4, s.messages());
        // the main turns' usage only: 3 API messages of 1200 in / 85 out / 9000 cache read
        assertEquals(3, r.usage().api_calls());
        assertEquals(3600L, r.usage().input_tokens());
        assertEquals(255L, r.usage().output_tokens());
        assertEquals(27000L, r.usage().cache_read_tokens());
    }

    @Test
    void aProjectLevelAgentFileIsASubagentOfTheSessionItNames() {
        InspectResult.Report r = inspect(OLD);
        assertEquals("API rate limiting design", r.title());
        // its own sidechain run (older, inside the file) and the project-level agent file, oldest first
        assertEquals(2, r.subagents().count());
        assertEquals(
                List.of(OLD + "/sidechain-1", FLAT),
                r.subagents().items().stream()
                        .map(InspectResult.Subagent::session_id)
                        .toList());
        assertEquals(2, r.lineage().subagents());
        InspectResult.Subagent s = r.subagents().items().get(1);
        // agent-7d3e9a1c.jsonl: 5 sidechain events 20 s apart (3 prompts, 2 answers of 1200 in / 85 out each)
        assertEquals("Look up the limiter config 0", s.goal());
        assertEquals("The limiter allows 100 requests per minute.", s.outcome());
        assertEquals("ended", s.status());
        assertEquals(5, s.messages());
        assertEquals(0, s.tool_calls());
        assertEquals(2 * 1285L, s.tokens());
        assertNull(s.estimated_cost_usd());
        assertEquals(80.0, s.duration_seconds());
        assertEquals("timestamps", s.duration_source());
        // the session's own 10 answers (sidechain turns are not its own) plus the agent file's 2
        assertEquals(10 * 1285L, r.usage().input_tokens() + r.usage().output_tokens());
        assertEquals(
                new InspectResult.WithSubagents(2, 12 * 1285L, null), r.usage().with_subagents());
    }

    @Test
    void aProjectLevelAgentFileAskedForByItsOwnNameIsStillItsSessionsSubagent() {
        for (String asked : List.of("agent-7d3e9a1c", FLAT)) {
            InspectResult.Report r = inspect(asked);
            assertEquals(FLAT, r.session_id(), asked);
            assertEquals("subagent", r.source());
            assertEquals(
                    new InspectResult.Link(OLD, "API rate limiting design", "delegated", "ended"),
                    r.lineage().parent());
            assertEquals(5, r.messages().total());
            assertEquals(Map.of("assistant", 2, "user", 3), r.messages().by_role());
        }
    }

    @Test
    void malformedLinesAreSkippedAndCounted() {
        InspectResult.Report r = inspect(MALFORMED);
        assertEquals(3, r.messages().malformed_lines()); // two bad lines and the truncated tail
        assertEquals(16, r.messages().total());
        assertTrue(text(MALFORMED).contains("; 3 malformed lines skipped\n"), text(MALFORMED));
        assertTrue(!text(E1).contains("malformed"), text(E1));
    }

    @Test
    void compactionContinuationIsLinkedBothWays() {
        InspectResult.Report cont = inspect(CONT);
        assertEquals(
                new InspectResult.Link(ROOT, "Refactor auth module", "continued", "ended"),
                cont.lineage().parent());
        assertEquals(List.of(ROOT, CONT), cont.lineage().chain());
        InspectResult.Report root = inspect(ROOT);
        assertEquals("compression", root.end_reason());
        assertEquals(
                List.of(CONT),
                root.lineage().continuations().stream()
                        .map(InspectResult.Link::session_id)
                        .toList());
        assertEquals(CONT, root.lineage().compressed_into());
    }

    @Test
    void unknownIdsAndLinksOutOfTheHomeAreRefusedAndNothingChanges() throws Exception {
        try (ClaudeSessionSource src = open()) {
            StewardError e = assertThrows(
                    StewardError.class, () -> InspectEngine.inspect(src, InspectEngine.Request.of("no-such-session")));
            assertEquals("session_inspect: no session no-such-session in the claude_code store", e.getMessage());
            assertTrue(src.session("../../etc/passwd").isEmpty());
        }
        Path outside = tmp.resolve("outside.jsonl");
        Files.copy(home.resolve("projects/-home-dev-infra/" + E1 + ".jsonl"), outside);
        String linked = "0bad1e7a-0000-3000-8000-000000000001";
        Path link = home.resolve("projects/-home-dev-infra/" + linked + ".jsonl");
        Files.createSymbolicLink(link, outside);
        try (ClaudeSessionSource src = open()) {
            StewardError e = assertThrows(
                    StewardError.class, () -> InspectEngine.inspect(src, InspectEngine.Request.of(linked)));
            assertTrue(e.getMessage().contains("leads out of the Claude Code home"), e.getMessage());
        } finally {
            Files.delete(link);
        }
        assertEquals(before, ClaudeTestHomes.tree(home));
    }
}
