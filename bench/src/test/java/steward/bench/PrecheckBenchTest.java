package steward.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import steward.memory.MemoryPrecheck;
import steward.testing.TestHomes;

/** The labelled set keeps its promises (size, languages, every verdict, a third held out per verdict); the scores add up. */
class PrecheckBenchTest {
    static final Path SET = TestHomes.repo().resolve("fixtures/precheck/candidates.jsonl");

    @Test
    void theLabelledSetHasEveryVerdictInBothLanguagesAndAThirdHeldOut() throws Exception {
        List<PrecheckBench.Row> rows = PrecheckBench.load(SET);
        assertTrue(rows.size() >= 300, "rows: " + rows.size());
        assertEquals(rows.size(), rows.stream().map(PrecheckBench.Row::id).distinct().count(), "ids are unique");
        Map<String, List<PrecheckBench.Row>> by = rows.stream().collect(Collectors.groupingBy(PrecheckBench.Row::expected));
        assertEquals(MemoryPrecheck.VERDICTS.stream().sorted().toList(), by.keySet().stream().sorted().toList());
        for (var e : by.entrySet()) {
            long held = e.getValue().stream().filter(r -> r.part().equals("held_out")).count();
            assertEquals(Math.round(e.getValue().size() / 3.0), held, e.getKey());
            assertTrue(e.getValue().stream().anyMatch(r -> r.lang().equals("zh")) && e.getValue().stream().anyMatch(r -> r.lang().equals("en")), e.getKey());
        }
    }

    @Test
    void precisionRecallAndF1AreComputedPerVerdict() {
        List<PrecheckBench.Row> rows = List.of(row("a", "write"), row("b", "write"), row("c", "split"), row("d", "split"));
        PrecheckBench.Scores s = PrecheckBench.score(rows, Map.of("a", "write", "b", "split", "c", "split", "d", "split"));
        assertEquals(1.0, s.perVerdict().get("write")[0]);
        assertEquals(0.5, s.perVerdict().get("write")[1]);
        assertEquals(2 / 3.0, s.perVerdict().get("split")[0], 1e-9);
        assertEquals(1.0, s.perVerdict().get("split")[1]);
        assertEquals(0.75, s.accuracy());
        assertEquals((2 * 0.5 / 1.5 + 0.8) / 2, s.macroF1(), 1e-9);
    }

    static PrecheckBench.Row row(String id, String expected) {
        return new PrecheckBench.Row(id, "tune", "en", "memory", "base", expected, "x", null);
    }
}
