package steward.sessions.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import steward.StewardError;
import steward.testing.TestHomes;

/**
 * session_inspect on the fixtures, against figures computed by hand from fixtures/forensics-home/make_fixture.py (which
 * writes the forensics fixture through Hermes' own SessionDB) and from the rows of fixtures/hermes-home.
 */
class InspectEngineTest {
    static final Path FORENSICS = TestHomes.repo().resolve("fixtures/forensics-home/state.db");
    static final Path HERMES = TestHomes.fixtureHome().resolve("state.db");
    static final String MAIN = "20260801_090000_b1111a";
    static final String SUB1 = "20260801_110200_c2222b";
    static final String SUB2 = "20260801_110200_d3333c";
    static final String CONT = "20260801_113000_e4444d";
    static final double T0 = 1785574800.0;

    static InspectResult.Report inspect(Path db, String id) {
        try (HermesSessionSource src = HermesSessionSource.open(db)) {
            return InspectEngine.inspect(src, InspectEngine.Request.of(id))
                    .result()
                    .sessions()
                    .get(0);
        }
    }

    @Test
    void timelineGapsAndPhasesOfTheMainSession() {
        InspectResult.Timeline t = inspect(FORENSICS, MAIN).timeline();
        assertEquals(T0, t.first_activity_epoch());
        assertEquals(T0 + 7720, t.last_activity_epoch());
        assertEquals(T0 + 7725, t.ended_at_epoch());
        assertEquals(7720.0, t.span_seconds());
        // the only pause: 09:01:50 (last message of phase 1, +110 s) to 11:01:50 (+7310 s)
        assertEquals(1, t.gap_count());
        assertEquals(
                new InspectResult.Gap("2026-08-01T09:01:50Z", "2026-08-01T11:01:50Z", 7200.0),
                t.gaps().get(0));
        assertEquals(7720.0 - 7200.0, t.active_seconds());
        assertEquals(3, t.phase_count());
        assertEquals(
                List.of("start", "pause", "topic_shift"),
                t.phases().stream().map(InspectResult.Phase::started_by).toList());
        assertEquals(
                List.of(9, 4, 5),
                t.phases().stream().map(InspectResult.Phase::messages).toList());
        assertEquals(
                List.of(1, 1, 2),
                t.phases().stream().map(InspectResult.Phase::user_turns).toList());
        assertEquals(
                List.of(4, 1, 1),
                t.phases().stream().map(InspectResult.Phase::tool_calls).toList());
        assertEquals(
                "What's the weather like for hiking in Zermatt this weekend?",
                t.phases().get(2).first_prompt());
        assertTrue(
                t.phases().get(2).keywords().containsAll(List.of("weather", "hiking", "zermatt")),
                t.phases().get(2).keywords().toString());
        assertFalse(t.phases().get(1).keywords().contains("now"), "conversation glue is not a keyword");
    }

    @Test
    void messagesToolsFilesAndCommands() {
        InspectResult.Report r = inspect(FORENSICS, MAIN);
        assertEquals(18, r.messages().total());
        assertEquals(Map.of("assistant", 8, "tool", 6, "user", 4), r.messages().by_role());
        assertEquals(18, r.messages().stored_count());
        assertEquals(6, r.tools().calls());
        assertEquals(2, r.tools().failures()); // terminal exit_code 1, web_search {"error": "rate limited"}
        assertEquals(
                List.of(
                        new InspectResult.ToolStat("terminal", 2, 1, null, 60.0), // 20→50 and 70→100
                        new InspectResult.ToolStat("read_file", 1, 0, null, 2.0),
                        new InspectResult.ToolStat("patch", 1, 0, null, 5.0),
                        new InspectResult.ToolStat(
                                "delegate_task", 1, 0, 35.0, 45.0), // total_duration_seconds recorded; 7320→7365
                        new InspectResult.ToolStat("web_search", 1, 1, null, 10.0)),
                r.tools().by_tool());
        assertEquals(
                List.of(new InspectResult.FileOut("src/billing/invoice.py", 2, 1, 1)),
                r.files().items());
        assertEquals(
                List.of(new InspectResult.CommandOut("pytest tests/test_invoice.py", 2, 1)),
                r.commands().items());
        assertEquals("/home/u/src/billing", r.cwd());
        assertEquals("main", r.git_branch());
    }

    @Test
    void subagentsWithGoalOutcomeAndSize() {
        InspectResult.Subagents s = inspect(FORENSICS, MAIN).subagents();
        assertEquals(2, s.count());
        assertEquals(
                new InspectResult.Subagent(
                        SUB1,
                        "Write refund tests for src/billing/invoice.py",
                        "completed",
                        "Added 4 refund tests in tests/test_refunds.py; all pass.",
                        4,
                        1,
                        0,
                        3800L,
                        0.012,
                        30.5,
                        "recorded"),
                s.items().get(0));
        assertEquals(
                new InspectResult.Subagent(
                        SUB2,
                        "Update CHANGELOG.md for the billing refactor",
                        "failed",
                        "CHANGELOG.md does not exist",
                        4,
                        1,
                        1,
                        1500L,
                        0.005,
                        20.25,
                        "recorded"),
                s.items().get(1));
    }

    @Test
    void tokensAndCostsAsRecorded() {
        InspectResult.UsageOut u = inspect(FORENSICS, MAIN).usage();
        assertTrue(u.recorded());
        assertEquals(12000L, u.input_tokens()); // 4000 + 8000 over two update_token_counts calls
        assertEquals(3400L, u.output_tokens());
        assertEquals(8000L, u.cache_read_tokens());
        assertEquals(1000L, u.cache_write_tokens());
        assertEquals(500L, u.reasoning_tokens());
        assertEquals(7L, u.api_calls());
        assertEquals(0.0825, u.estimated_cost_usd());
        assertNull(u.actual_cost_usd(), "Hermes recorded no actual cost");
        assertEquals(
                List.of(
                        new InspectResult.ModelOut("claude-sonnet-4", "anthropic", 3, 4000, 1000, 0.03),
                        new InspectResult.ModelOut("claude-opus-4", "anthropic", 4, 8000, 2400, 0.0525)),
                u.by_model());
        assertEquals(new InspectResult.WithSubagents(2, 15400L + 3800 + 1500, 0.0995), u.with_subagents());
        assertFalse(inspect(FORENSICS, CONT).usage().recorded());
    }

    @Test
    void lineageContinuationCompactionAndDelegation() {
        InspectResult.Lineage main = inspect(FORENSICS, MAIN).lineage();
        assertNull(main.parent());
        assertEquals(CONT, main.compressed_into());
        assertEquals(List.of(MAIN, CONT), main.chain());
        assertEquals(2, main.subagents());

        InspectResult.Report cont = inspect(FORENSICS, CONT);
        assertEquals(
                new InspectResult.Link(MAIN, "Refactor the billing module", "continued", "ended"),
                cont.lineage().parent());
        assertEquals(List.of(MAIN, CONT), cont.lineage().chain());
        // archive_and_compact soft-archived the 4 earlier messages and inserted one summary; 2 came after
        assertEquals(4, cont.lineage().compacted_messages());
        assertEquals(4, cont.messages().compacted());
        assertEquals(3, cont.messages().live());
        assertEquals(3, cont.messages().stored_count());

        InspectResult.Report sub = inspect(FORENSICS, SUB2);
        assertEquals("delegated", sub.lineage().parent().relation());
        assertEquals(1, sub.tools().failures());
        assertEquals(List.of(), sub.lineage().chain());
    }

    @Test
    void theFixtureHomeWrittenByHermes() {
        // 20260702_112900_0becd7 "Rust 所有权": 12 user + 12 assistant turns 30 s apart, 11:29:30 → 11:41:00, three
        // subagents
        InspectResult.Report r = inspect(HERMES, "20260702_112900_0becd7");
        assertEquals(Map.of("user", 12, "assistant", 12), r.messages().by_role());
        assertEquals("2026-07-02T11:29:30Z", r.timeline().first_activity());
        assertEquals("2026-07-02T11:41:00Z", r.timeline().last_activity());
        assertEquals(690.0, r.timeline().span_seconds());
        assertEquals(0, r.timeline().gap_count());
        assertEquals(1, r.timeline().phase_count());
        assertEquals(0, r.tools().calls());
        assertFalse(r.usage().recorded());
        assertEquals(3, r.subagents().count());
        assertEquals(
                List.of("20260715_090200_325b55", "20260715_095800_bb2313", "20260809_101500_06ec41"),
                r.subagents().items().stream()
                        .map(InspectResult.Subagent::session_id)
                        .toList());
        // a compression chain of the fixture: "Long refactor" → "Long refactor (cont.)"
        InspectResult.Report lr = inspect(HERMES, "20260804_073200_c08a58");
        assertEquals("20260805_084400_6e8cd9", lr.lineage().compressed_into());
        assertEquals(
                List.of("20260804_073200_c08a58", "20260805_084400_6e8cd9"),
                lr.lineage().chain());
    }

    @Test
    void boundedListsSayWhatTheyLeftOut() {
        try (HermesSessionSource src = HermesSessionSource.open(FORENSICS)) {
            InspectResult.Report r = InspectEngine.inspect(src, new InspectEngine.Request(List.of(MAIN), 30, 2))
                    .result()
                    .sessions()
                    .get(0);
            assertEquals(2, r.tools().by_tool().size());
            assertEquals(3, r.tools().left_out());
            assertEquals(2, r.timeline().phases().size());
            assertEquals(1, r.timeline().phases_left_out());
            assertEquals(2, r.subagents().items().size());
            assertEquals(0, r.subagents().left_out());
            InspectResult.Report one = InspectEngine.inspect(src, new InspectEngine.Request(List.of(MAIN), 30, 1))
                    .result()
                    .sessions()
                    .get(0);
            assertEquals(1, one.subagents().items().size());
            assertEquals(1, one.subagents().left_out());
        }
    }

    @Test
    void aLongerGapThresholdMergesThePausedPhases() {
        try (HermesSessionSource src = HermesSessionSource.open(FORENSICS)) {
            InspectResult.Timeline t = InspectEngine.inspect(src, new InspectEngine.Request(List.of(MAIN), 180, 8))
                    .result()
                    .sessions()
                    .get(0)
                    .timeline();
            assertEquals(0, t.gap_count());
            assertEquals(
                    List.of("start", "topic_shift"),
                    t.phases().stream().map(InspectResult.Phase::started_by).toList());
        }
    }

    @Test
    void unknownSessionsAreReportedOrRefused() {
        try (HermesSessionSource src = HermesSessionSource.open(FORENSICS)) {
            InspectEngine.Outcome o =
                    InspectEngine.inspect(src, new InspectEngine.Request(List.of(MAIN, "nope"), 30, 8));
            assertEquals(List.of("nope"), o.result().not_found());
            assertTrue(o.text().contains("Not found: nope"));
            StewardError e = assertThrows(
                    StewardError.class, () -> InspectEngine.inspect(src, InspectEngine.Request.of("nope")));
            assertEquals("session_inspect: no session nope in the hermes store", e.getMessage());
        }
        assertThrows(StewardError.class, () -> new InspectEngine.Request(List.of("a", "b", "c", "d", "e", "f"), 30, 8));
        assertThrows(StewardError.class, () -> new InspectEngine.Request(List.of("a"), 30, 0));
        assertThrows(StewardError.class, () -> new InspectEngine.Request(List.of(" "), 30, 8));
    }

    @Test
    void theSummaryIsShortAndNamesTheFigures() {
        try (HermesSessionSource src = HermesSessionSource.open(FORENSICS)) {
            String text =
                    InspectEngine.inspect(src, InspectEngine.Request.of(MAIN)).text();
            assertTrue(text.length() < 1500, text.length() + " characters");
            for (String s : List.of(
                    "Phases: 3",
                    "6 calls, 2 failed",
                    "terminal 2 (1 failed)",
                    "Subagents: 2",
                    "cost ≈ $0.0825",
                    "with subagents ≈ $0.0995",
                    "src/billing/invoice.py ×2 (1 written)",
                    "pytest tests/test_invoice.py ×2 (1 failed)",
                    "compressed into " + CONT,
                    "1 pause ≥ 30m (longest 2h)")) {
                assertTrue(text.contains(s), "missing '" + s + "' in:\n" + text);
            }
        }
    }
}
