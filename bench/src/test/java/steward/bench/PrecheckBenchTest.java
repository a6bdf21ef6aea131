package steward.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import steward.memory.Concepts;
import steward.memory.MemoryPrecheck;
import steward.testing.TestHomes;

/** The labelled set keeps its promises (size, languages, every verdict, a third held out per verdict); the scores add up. */
class PrecheckBenchTest {
    static final Path SET = TestHomes.repo().resolve("fixtures/precheck/candidates.jsonl");

    @Test
    void theLabelledSetHasEveryVerdictInBothLanguagesAndAThirdHeldOut() throws Exception {
        List<PrecheckBench.Row> rows = PrecheckBench.load(SET);
        assertTrue(rows.size() >= 300, "rows: " + rows.size());
        assertEquals(
                rows.size(), rows.stream().map(PrecheckBench.Row::id).distinct().count(), "ids are unique");
        Map<String, List<PrecheckBench.Row>> by = rows.stream()
                .filter(r -> !PrecheckBench.TUNE_ONLY_BATCHES.contains(r.batch()))
                .collect(Collectors.groupingBy(PrecheckBench.Row::expected));
        assertEquals(
                MemoryPrecheck.VERDICTS.stream().sorted().toList(),
                by.keySet().stream().sorted().toList());
        for (var e : by.entrySet()) {
            long held = e.getValue().stream()
                    .filter(r -> r.part().equals("held_out"))
                    .count();
            assertEquals(Math.round(e.getValue().size() / 3.0), held, e.getKey());
            assertTrue(
                    e.getValue().stream().anyMatch(r -> r.lang().equals("zh"))
                            && e.getValue().stream().anyMatch(r -> r.lang().equals("en")),
                    e.getKey());
        }
    }

    /** The split is a function of the ids: per batch and verdict, the round(n/3) ids with the lowest SHA-1 are held out. */
    @Test
    void theSplitIsFrozenByTheSha1OfTheIds() throws Exception {
        Map<String, List<PrecheckBench.Row>> groups =
                PrecheckBench.load(SET).stream().collect(Collectors.groupingBy(r -> r.batch() + "/" + r.expected()));
        MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        for (var e : groups.entrySet()) {
            if (PrecheckBench.TUNE_ONLY_BATCHES.contains(e.getValue().get(0).batch())) {
                for (PrecheckBench.Row r : e.getValue()) assertEquals("tune", r.part(), "tuning-only batch: " + r.id());
                continue;
            }
            List<String> ids = e.getValue().stream()
                    .map(PrecheckBench.Row::id)
                    .sorted(Comparator.comparing(
                            id -> HexFormat.of().formatHex(sha1.digest(id.getBytes(StandardCharsets.UTF_8)))))
                    .toList();
            var held = Set.copyOf(ids.subList(0, (int) Math.round(ids.size() / 3.0)));
            for (PrecheckBench.Row r : e.getValue())
                assertEquals(held.contains(r.id()) ? "held_out" : "tune", r.part(), e.getKey() + " " + r.id());
        }
    }

    @Test
    void precisionRecallAndF1AreComputedPerVerdict() {
        List<PrecheckBench.Row> rows =
                List.of(row("a", "write"), row("b", "write"), row("c", "split"), row("d", "split"));
        PrecheckBench.Scores s =
                PrecheckBench.score(rows, Map.of("a", "write", "b", "split", "c", "split", "d", "split"));
        assertEquals(1.0, s.perVerdict().get("write")[0]);
        assertEquals(0.5, s.perVerdict().get("write")[1]);
        assertEquals(2 / 3.0, s.perVerdict().get("split")[0], 1e-9);
        assertEquals(1.0, s.perVerdict().get("split")[1]);
        assertEquals(0.75, s.accuracy());
        assertEquals((2 * 0.5 / 1.5 + 0.8) / 2, s.macroF1(), 1e-9);
    }

    /**
     * The concept map the duplicate check reads was not fitted to held-out text: every form of it that occurs in a
     * held-out row also occurs in a tuning row or in the fixture home the candidates are checked against.
     */
    @Test
    void noConceptFormOccursOnlyInHeldOutRows() throws Exception {
        List<PrecheckBench.Row> rows = PrecheckBench.load(SET);
        String held = rows.stream()
                .filter(r -> r.part().equals("held_out"))
                .map(r -> r.content().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining("\n"));
        StringBuilder seen = new StringBuilder();
        rows.stream()
                .filter(r -> r.part().equals("tune"))
                .forEach(r -> seen.append(r.content().toLowerCase(Locale.ROOT)).append('\n'));
        Path fixtures = SET.getParent();
        try (var files = Files.walk(fixtures)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".md")
                            && !p.getFileName().toString().equals("README.md"))
                    .toList()) {
                seen.append(Files.readString(f).toLowerCase(Locale.ROOT)).append('\n');
            }
        }
        String known = seen.toString();
        List<String> fitted = new ArrayList<>();
        try (var in = Concepts.class.getResourceAsStream("concepts.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.split("\t", -1);
                for (String form : (f[1] + " " + f[2]).split(" ")) {
                    if (form.isEmpty()) continue;
                    String w = form.replace('_', ' ').toLowerCase(Locale.ROOT);
                    if (occurs(held, w) && !occurs(known, w)) fitted.add(form);
                }
            }
        }
        assertEquals(List.of(), fitted, "forms only held-out rows use");
    }

    /** An English form at a word start (its inflections count), a Chinese form anywhere. */
    private static boolean occurs(String text, String form) {
        if (!form.matches(".*[a-z].*")) return text.contains(form);
        return Pattern.compile("\\b" + Pattern.quote(form)).matcher(text).find();
    }

    static PrecheckBench.Row row(String id, String expected) {
        return new PrecheckBench.Row(id, "tune", 1, "en", "memory", "base", expected, "x", null);
    }
}
