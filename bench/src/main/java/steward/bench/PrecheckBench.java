package steward.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.memory.MemoryPrecheck;
import steward.memory.MemoryWriter;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;

/**
 * Precision, recall and F1 of {@code memory_precheck} per verdict on the labelled set in
 * {@code fixtures/precheck/candidates.jsonl}, for the tuning part and the held-out part separately; the held-out
 * part's misclassifications are never printed (it must not steer tuning).
 */
@Command(
        name = "precheck",
        description =
                "Precision / recall / F1 per memory_precheck verdict on the labelled set (tuning and held-out parts).")
public final class PrecheckBench implements Callable<Integer> {
    @Option(names = "--data", description = "the labelled set (default: fixtures/precheck/candidates.jsonl)")
    Path data;

    @Option(names = "--errors", description = "list the tuning part's misclassified rows")
    boolean errors;

    /**
     * Batches written for tuning only, after the checks' output on the tuning part had been seen (rows shaped by known
     * failures would flatter a held-out score): all their rows are {@code tune}.
     */
    public static final Set<Integer> TUNE_ONLY_BATCHES = Set.of(3);

    /** One labelled candidate; {@code batch} 1 is the original set, later batches widen it (each split when it was written). */
    public record Row(
            String id,
            String part,
            int batch,
            String lang,
            String target,
            String home,
            String expected,
            String content,
            JsonNode answers) {}

    public record Scores(Map<String, double[]> perVerdict, double macroF1, double accuracy, int n) {}

    @Override
    public Integer call() throws Exception {
        Path dir = Fixtures.locateHermesHome().getParent().resolve("precheck");
        Path file = data != null ? data : dir.resolve("candidates.jsonl");
        List<Row> rows = load(file);
        Map<String, String> got = run(rows, dir);
        Printer.println("memory_precheck on " + file.getFileName() + ": " + rows.size() + " candidates ("
                + rows.stream().filter(r -> r.lang().equals("en")).count() + " en, "
                + rows.stream().filter(r -> r.lang().equals("zh")).count() + " zh)");
        for (String part : List.of("tune", "held_out")) {
            print(part, rows.stream().filter(r -> r.part().equals(part)).toList(), got);
        }
        List<Integer> batches = rows.stream()
                .filter(r -> r.part().equals("held_out"))
                .map(Row::batch)
                .distinct()
                .sorted()
                .toList();
        if (batches.size() > 1) {
            for (int b : batches)
                print(
                        "held_out, batch " + b,
                        rows.stream()
                                .filter(r -> r.part().equals("held_out") && r.batch() == b)
                                .toList(),
                        got);
        }
        if (errors) {
            Printer.println("");
            Printer.println("tuning part, misclassified:");
            for (Row r : rows) {
                if (r.part().equals("tune") && !r.expected().equals(got.get(r.id()))) {
                    Printer.println("  " + r.id() + ": expected " + r.expected() + ", got " + got.get(r.id()) + " — "
                            + r.content().replace('\n', ' '));
                }
            }
        }
        return 0;
    }

    static void print(String name, List<Row> p, Map<String, String> got) {
        Scores s = score(p, got);
        Printer.println("");
        Printer.println(name + " (" + p.size() + "): macro F1 " + f(s.macroF1()) + ", accuracy " + f(s.accuracy()));
        Printer.println(String.format(Locale.ROOT, "  %-22s %5s %6s %6s %6s", "verdict", "n", "P", "R", "F1"));
        for (var e : s.perVerdict().entrySet()) {
            double[] v = e.getValue();
            Printer.println(String.format(
                    Locale.ROOT, "  %-22s %5d %6s %6s %6s", e.getKey(), (int) v[3], f(v[0]), f(v[1]), f(v[2])));
        }
    }

    static String f(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    public static List<Row> load(Path file) throws Exception {
        List<Row> out = new ArrayList<>();
        for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (l.isBlank()) continue;
            JsonNode n = Json.MAPPER.readTree(l);
            out.add(new Row(
                    n.path("id").asString(),
                    n.path("part").asString(),
                    n.path("batch").asInt(1),
                    n.path("lang").asString(),
                    n.path("target").asString("memory"),
                    n.path("home").asString("base"),
                    n.path("expected").asString(),
                    n.path("content").asString(),
                    n.get("answers")));
        }
        return out;
    }

    /** Runs every row on a private copy of the bench home (the full variant for {@code home: full}); id → verdict. */
    public static Map<String, String> run(List<Row> rows, Path dir) throws Exception {
        Path tmp = Files.createTempDirectory("steward-bench-precheck-");
        try {
            Path base = tmp.resolve("base");
            Path full = tmp.resolve("full");
            FileTrees.copy(dir.resolve("home"), base);
            FileTrees.copy(dir.resolve("home"), full);
            Files.copy(
                    dir.resolve("full-MEMORY.md"),
                    full.resolve("memories/MEMORY.md"),
                    StandardCopyOption.REPLACE_EXISTING);
            Clock clock = Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC);
            MemoryPrecheck pb = new MemoryPrecheck(new MemoryWriter(StewardPaths.of(base), clock));
            MemoryPrecheck pf = new MemoryPrecheck(new MemoryWriter(StewardPaths.of(full), clock));
            Map<String, String> out = new LinkedHashMap<>();
            for (Row r : rows) {
                MemoryPrecheck.Answers a = r.answers() == null
                        ? new MemoryPrecheck.Answers("high", "severe")
                        : new MemoryPrecheck.Answers(
                                r.answers().path("frequency").asString(null),
                                r.answers().path("consequence").asString(null));
                out.put(
                        r.id(),
                        (r.home().equals("full") ? pf : pb)
                                .check(r.target(), r.content(), a)
                                .verdict());
            }
            return out;
        } finally {
            FileTrees.delete(tmp);
        }
    }

    /** Per verdict: precision, recall, F1, support; macro F1 over the verdicts present in the labels. */
    public static Scores score(List<Row> rows, Map<String, String> got) {
        Map<String, double[]> per = new LinkedHashMap<>();
        int right = 0;
        for (String v : MemoryPrecheck.VERDICTS) {
            int tp = 0, fp = 0, fn = 0, n = 0;
            for (Row r : rows) {
                boolean e = r.expected().equals(v), g = v.equals(got.get(r.id()));
                if (e) n++;
                if (e && g) tp++;
                else if (g) fp++;
                else if (e) fn++;
            }
            if (n == 0) continue;
            double p = tp + fp == 0 ? 0 : (double) tp / (tp + fp),
                    rc = (double) tp / n,
                    f1 = p + rc == 0 ? 0 : 2 * p * rc / (p + rc);
            per.put(v, new double[] {p, rc, f1, n});
        }
        for (Row r : rows) if (r.expected().equals(got.get(r.id()))) right++;
        double macro = per.values().stream().mapToDouble(x -> x[2]).average().orElse(0);
        return new Scores(per, macro, rows.isEmpty() ? 0 : (double) right / rows.size(), rows.size());
    }
}
