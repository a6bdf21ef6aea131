package steward.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.recall.DenseModel;
import steward.recall.InjectEngine;
import steward.recall.RecallEngine;
import steward.recall.RecallItem;
import steward.recall.RecallSettings;
import steward.sessions.store.Sqlite;
import tools.jackson.databind.JsonNode;

/**
 * {@code steward bench locomo}: for each LoCoMo conversation a fresh Hermes-schema state.db (one session per
 * LoCoMo session, one message per turn, speaker A as user and B as assistant, "Name: text" content, a shared
 * photo as its caption), indexed through the real corpus code; evidence recall@k per category over
 * recall_search, warm latency, a naive turn-level BM25 run for the ratio, and the recall_inject gate.
 */
@Command(name = "locomo", description = "Retrieval evidence recall@k and the injection gate on LoCoMo-format data.")
public final class LocomoBench implements Callable<Integer> {
    @Option(
            names = "--data",
            description = "LoCoMo-format JSON (default ../shared/data/locomo/locomo-dev.json from the repository)")
    Path data;

    @Option(
            names = "--conversations",
            defaultValue = "0",
            description = "which conversations: N = the first N (0 = all), "
                    + "or 1-based ranges and lists such as 1-2 or 3,5 (tune on some, report on the held-out rest)")
    String select;

    @Option(
            names = "--echo-per-conversation",
            defaultValue = "60",
            description = "echo turns replayed per conversation")
    int echoPer;

    @Option(
            names = "--dense",
            description = "turn dense retrieval on for the steward run (the default unless STEWARD_RECALL_DENSE=off)")
    boolean dense;

    @Option(
            names = "--lexical",
            description = "turn dense retrieval off for the steward run (BM25F and the re-ranker only)")
    boolean lexical;

    @Option(
            names = "--dump",
            description =
                    "write per-question details (TSV) to this file: evidence ranks, and the top 10 of every question whose evidence is not all in it")
    Path dump;

    static final int[] KS = {1, 5, 10, 20};
    private static final Pattern SESSION_KEY = Pattern.compile("session_(\\d+)");
    private static final DateTimeFormatter LOCOMO_TIME = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("h:mm a 'on' d MMMM, yyyy")
            .toFormatter(Locale.ENGLISH);

    record Conv(
            String id,
            Path home,
            Map<String, String> uriToDia,
            Map<String, String> diaToUri,
            List<JsonNode> qa,
            double lastTs,
            Map<String, String> diaText) {}

    static final class Stats {
        final Map<Integer, double[]> sum = new LinkedHashMap<>();
        final Map<Integer, Integer> n = new LinkedHashMap<>();
        final List<Double> lat = new ArrayList<>();

        void add(int cat, double[] r) {
            for (int c : new int[] {cat, 0}) {
                double[] s = sum.computeIfAbsent(c, x -> new double[KS.length]);
                for (int i = 0; i < KS.length; i++) s[i] += r[i];
                n.merge(c, 1, Integer::sum);
            }
        }

        double r(int cat, int ki) {
            return n.getOrDefault(cat, 0) == 0 ? Double.NaN : sum.get(cat)[ki] / n.get(cat);
        }

        double pct(double p) {
            List<Double> s = new ArrayList<>(lat);
            Collections.sort(s);
            return s.isEmpty() ? Double.NaN : s.get(Math.min(s.size() - 1, (int) Math.ceil(p * s.size()) - 1));
        }
    }

    @Option(
            names = "--names",
            defaultValue = "both",
            description = "history with \"Name: \" prefixes (as LoCoMo's conversion writes "
                    + "them), without (as Hermes and Claude Code store messages), or both (default)")
    String names;

    @Option(
            names = "--floor",
            description = "also print the distribution of the best coverage and cosine for the no-memory DEV turns and "
                    + "the answerable questions (how the recall floors were calibrated)")
    boolean floor;

    /** Figures of one run over the chosen conversations. */
    static final class Gate {
        int answerable, injected, injectedWithEvidence, goodMatch;
        long blockItems, blockChars;
        int cross,
                crossInjected,
                noMemory,
                noMemoryInjected,
                noMemoryGood,
                echoes,
                echoInjected,
                echoAny,
                dev,
                devInjected,
                devGood;
        long lexicalBuildMs, embedMs, embedded;
        final List<Double> devCov = new ArrayList<>(),
                devCos = new ArrayList<>(),
                ansCov = new ArrayList<>(),
                ansCos = new ArrayList<>(),
                devInfo = new ArrayList<>(),
                ansInfo = new ArrayList<>();
    }

    @Override
    public Integer call() throws Exception {
        Path file = data != null ? data : defaultData();
        if (!Files.isRegularFile(file))
            throw new steward.StewardError("bench locomo", "no such file: " + file + " (use --data PATH)");
        JsonNode root = Json.MAPPER.readTree(Files.readAllBytes(file));
        if (!root.isArray())
            throw new IllegalArgumentException(file + ": expected a JSON array of LoCoMo conversations");
        List<Boolean> variants = switch (names) {
            case "with" -> List.of(true);
            case "without" -> List.of(false);
            case "both" -> List.of(true, false);
            default ->
                throw new steward.StewardError("bench locomo", "--names: with, without or both; got '" + names + "'");
        };
        List<String> noMemoryEval = turns("no-memory-eval.txt"),
                noMemoryDev = floor ? turns("no-memory-dev.txt") : List.of();
        Path work = Files.createTempDirectory("steward-bench-locomo-");
        List<String> schema = HermesDbBuilder.schema(Fixtures.locateHermesHome().resolve("state.db"));
        Set<Integer> chosen = selection(select, root.size());
        Printer.println("steward bench locomo: " + file + " — " + chosen.size() + " conversations " + chosen
                + "; dense retrieval "
                + (useDense() ? "on (" + DenseModel.MODEL + ")" : "off (lexical BM25F + context)")
                + "; no-memory turns: " + noMemoryEval.size()
                + " (fixtures/recall/no-memory-eval.txt, never tuned on)");
        Printer.println(
                "All five LoCoMo conversations of the dev file were used while tuning recall: these are in-sample figures.");
        try (DenseModel model = new DenseModel(work.resolve("model"), RecallSettings.DEFAULT_EMBED_CHARS, useDense())) {
            for (boolean withNames : variants) {
                List<Conv> convs = new ArrayList<>();
                int i = 0;
                for (JsonNode c : root) {
                    if (chosen.contains(i + 1))
                        convs.add(build(
                                c, work.resolve((withNames ? "named" : "plain") + "/conv" + i), schema, i, withNames));
                    i++;
                }
                Printer.println("");
                Printer.println(
                        withNames
                                ? "== history WITH \"Name: \" prefixes (LoCoMo's conversion; the speaker factor can fire)"
                                : "== history WITHOUT name prefixes (as Hermes and Claude Code store messages; the speaker factor never fires)");
                run(convs, model, noMemoryEval, noMemoryDev);
            }
        }
        return 0;
    }

    /** The turns of a fixtures/recall file (comments and blank lines skipped). */
    static List<String> turns(String name) throws IOException {
        Path f = Fixtures.locateHermesHome().getParent().resolve("recall").resolve(name);
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(f)) if (!l.isBlank() && !l.startsWith("#")) out.add(l.strip());
        return out;
    }

    private void run(List<Conv> convs, DenseModel model, List<String> noMemoryEval, List<String> noMemoryDev)
            throws Exception {
        Stats full = new Stats(), base = new Stats(), shown = new Stats();
        Gate g = new Gate();
        int missingEvidence = 0;
        PrintWriter out = dump == null
                ? null
                : new PrintWriter(Files.newBufferedWriter(dump, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
        for (int ci = 0; ci < convs.size(); ci++) {
            Conv conv = convs.get(ci);
            StewardPaths paths = StewardPaths.of(conv.home());
            Clock clock = Clock.fixed(Instant.ofEpochSecond((long) conv.lastTs() + 86400), ZoneOffset.UTC);
            try (RecallEngine engine =
                            new RecallEngine(paths, clock, RecallEngine.Options.DEFAULT.withDense(useDense()), model);
                    RecallEngine baseline = new RecallEngine(
                            new StewardPaths(
                                    paths.hermesHome(),
                                    paths.hermesHomeOrigin(),
                                    paths.stateDir().resolveSibling("steward-bm25"),
                                    paths.stateDirOrigin()),
                            clock,
                            RecallEngine.Options.BM25_ONLY)) {
                long t0 = System.nanoTime();
                engine.sync();
                g.lexicalBuildMs += (System.nanoTime() - t0) / 1_000_000;
                t0 = System.nanoTime();
                for (int n; (n = engine.embedPending(256, steward.Work.NONE)) > 0; )
                    g.embedded += n; // what the background indexer does
                g.embedMs += (System.nanoTime() - t0) / 1_000_000;
                baseline.sync();
                InjectEngine gate = new InjectEngine(engine, RecallEngine.recallDir(paths));
                for (JsonNode q : conv.qa()) {
                    int cat = q.path("category").asInt();
                    if (cat < 1 || cat > 4) continue;
                    Set<String> ev = new HashSet<>();
                    for (JsonNode e : q.path("evidence")) {
                        for (String part : e.asString().split("[;,\\s]+")) {
                            if (part.isBlank()) continue;
                            if (conv.diaToUri().containsKey(part)) ev.add(part);
                            else missingEvidence++;
                        }
                    }
                    if (ev.isEmpty()) continue;
                    String question = q.path("question").asString();
                    RecallEngine.Result res = timedSearch(engine, question, full);
                    double[] r = recallAt(res, ev, conv);
                    full.add(cat, r);
                    // what recall_search shows: below every floor only the first few items, marked weak
                    shown.add(
                            cat,
                            recallAt(
                                    res.confidence().good()
                                            ? res
                                            : new RecallEngine.Result(
                                                    res.hits()
                                                            .subList(
                                                                    0,
                                                                    Math.min(
                                                                            res.hits()
                                                                                    .size(),
                                                                            RecallEngine.WEAK_MAX)),
                                                    res.candidates(),
                                                    res.queryTerms(),
                                                    res.confidence()),
                                    ev,
                                    conv));
                    base.add(cat, recallAt(timedSearch(baseline, question, base), ev, conv));
                    if (res.confidence().good()) g.goodMatch++;
                    if (floor) {
                        g.ansCov.add(res.confidence().bestCoverage());
                        g.ansInfo.add(res.confidence().bestInformation());
                        if (res.confidence().bestCosine() != null)
                            g.ansCos.add(res.confidence().bestCosine());
                    }
                    InjectEngine.Result d = gate.inject(new InjectEngine.Request(question, null, null, null, null));
                    g.answerable++;
                    if (!d.items().isEmpty()) {
                        g.injected++;
                        Set<String> evUris = new HashSet<>();
                        for (String e : ev) evUris.add(conv.diaToUri().get(e));
                        if (d.items().stream().anyMatch(c -> evUris.contains(c.uri()))) g.injectedWithEvidence++;
                        g.blockItems += d.items().size();
                        g.blockChars += d.block_chars();
                    }
                    if (out != null) dumpQuestion(out, engine, baseline, conv, cat, question, ev, r, d);
                }
                // questions of the next conversation: nothing here is relevant (but they name people this history never
                // saw)
                Conv other = convs.get((ci + 1) % convs.size());
                if (other != conv) {
                    for (JsonNode q : other.qa()) {
                        int cat = q.path("category").asInt();
                        if (cat < 1 || cat > 4) continue;
                        InjectEngine.Result d = gate.inject(
                                new InjectEngine.Request(q.path("question").asString(), null, null, null, null));
                        g.cross++;
                        if (!d.items().isEmpty()) g.crossInjected++;
                    }
                }
                // turns that need no memory at all: generic requests and chit-chat (evaluation set, never tuned on)
                for (String turn : noMemoryEval) {
                    InjectEngine.Result d = gate.inject(new InjectEngine.Request(turn, null, null, null, null));
                    g.noMemory++;
                    if (!d.items().isEmpty()) {
                        g.noMemoryInjected++;
                        if (out != null)
                            out.println("NOMEM\t" + d.top_score() + "\t" + turn + "\t"
                                    + d.items().get(0).snippet());
                    }
                    if (engine.rank(new RecallEngine.Query(turn, 10, null, null, null, null))
                            .confidence()
                            .good()) g.noMemoryGood++;
                }
                for (String turn : noMemoryDev) {
                    RecallEngine.Confidence c = engine.rank(new RecallEngine.Query(turn, 10, null, null, null, null))
                            .confidence();
                    g.devCov.add(c.bestCoverage());
                    g.devInfo.add(c.bestInformation());
                    if (c.bestCosine() != null) g.devCos.add(c.bestCosine());
                    g.dev++;
                    if (c.good()) g.devGood++;
                    InjectEngine.Result d = gate.inject(new InjectEngine.Request(turn, null, null, null, null));
                    if (!d.items().isEmpty()) {
                        g.devInjected++;
                        if (out != null)
                            out.println("DEV\t" + d.top_score() + "\t" + d.lane() + "\t" + turn + "\t"
                                    + d.items().get(0).snippet());
                    }
                }
                // echo turns: an evidence turn's own text replayed as the user's message
                List<String> evTurns = new ArrayList<>();
                for (JsonNode q : conv.qa()) {
                    int cat = q.path("category").asInt();
                    if (cat < 1 || cat > 4) continue;
                    for (JsonNode e : q.path("evidence")) {
                        String dia = e.asString().strip();
                        if (conv.diaText().containsKey(dia) && !evTurns.contains(dia)) evTurns.add(dia);
                    }
                }
                for (int k = 0; k < evTurns.size() && k < echoPer; k++) {
                    String dia = evTurns.get(k);
                    InjectEngine.Result d =
                            gate.inject(new InjectEngine.Request(conv.diaText().get(dia), null, null, null, null));
                    g.echoes++;
                    String uri = conv.diaToUri().get(dia);
                    if (d.items().stream().anyMatch(c -> c.uri().equals(uri))) g.echoInjected++;
                    if (!d.items().isEmpty()) g.echoAny++;
                }
            }
        }
        if (out != null) out.close();
        Printer.println(String.format(
                "index: lexical build %d ms; %d texts embedded in %d ms (%.0f texts/s) — the background indexer's work, "
                        + "not on any call's path",
                g.lexicalBuildMs, g.embedded, g.embedMs, g.embedded * 1000.0 / Math.max(1, g.embedMs)));
        if (missingEvidence > 0)
            Printer.println("evidence ids not found among the turns (skipped): " + missingEvidence);
        Printer.println(
                String.format("%-24s %6s %7s %7s %7s %7s", "retrieval (evidence)", "n", "R@1", "R@5", "R@10", "R@20"));
        String[] catNames = {"overall", "1 multi-hop", "2 temporal", "3 open-domain", "4 single-hop"};
        for (int cat : new int[] {1, 2, 3, 4, 0}) row("steward  " + catNames[cat], full, cat);
        row("as recall_search shows", shown, 0);
        for (int cat : new int[] {1, 2, 3, 4, 0}) row("bm25-only " + catNames[cat], base, cat);
        Printer.println(String.format(
                "ratio steward/bm25-only R@10 overall: %.2f   (target R@10 >= 0.80)", full.r(0, 2) / base.r(0, 2)));
        Printer.println(String.format(
                "recall_search latency (each question once, JVM warm, query not cached): p50 %.2f ms, p99 %.2f ms "
                        + "(bm25-only p50 %.2f ms)   (target p50 <= 10 ms)",
                full.pct(0.5), full.pct(0.99), base.pct(0.5)));
        Printer.println(String.format(
                "recall_search verdict \"good match\" on answerable questions: %d/%d = %.1f %%; on no-memory turns: %d/%d = %.1f %%",
                g.goodMatch,
                g.answerable,
                pct(g.goodMatch, g.answerable),
                g.noMemoryGood,
                g.noMemory,
                pct(g.noMemoryGood, g.noMemory)));
        Printer.println(String.format(
                "gate  inject on answerable:              %4d/%-4d = %5.1f %%  (target >= 80 %%)",
                g.injected, g.answerable, pct(g.injected, g.answerable)));
        Printer.println(String.format(
                "gate  blocks holding an evidence turn:   %4d/%-4d = %5.1f %%  (target >= 75 %%)",
                g.injectedWithEvidence, g.injected, pct(g.injectedWithEvidence, g.injected)));
        Printer.println(String.format(
                "gate  a block's size (what the agent reads): %.2f items, %.0f characters on average (budget %d)",
                g.blockItems / (double) Math.max(1, g.injected),
                g.blockChars / (double) Math.max(1, g.injected),
                InjectEngine.DEFAULT_BUDGET));
        Printer.println(String.format(
                "gate  false inject, no-memory turns:     %4d/%-4d = %5.1f %%  (target <= 5 %%; generic requests and chit-chat)",
                g.noMemoryInjected, g.noMemory, pct(g.noMemoryInjected, g.noMemory)));
        Printer.println(String.format(
                "gate  false inject, echo turn injected:  %4d/%-4d = %5.1f %%  (target <= 5 %%; any injection on echoes %.1f %%)",
                g.echoInjected, g.echoes, pct(g.echoInjected, g.echoes), pct(g.echoAny, g.echoes)));
        Printer.println(String.format(
                "gate  inject on another conversation's questions: %d/%d = %.1f %% (they name people this history never saw)",
                g.crossInjected, g.cross, pct(g.crossInjected, g.cross)));
        if (floor) {
            Printer.println(String.format(
                    "DEV no-memory turns (calibration set): \"good match\" %d/%d = %.1f %%, injected %d/%d = %.1f %%",
                    g.devGood, g.dev, pct(g.devGood, g.dev), g.devInjected, g.dev, pct(g.devInjected, g.dev)));
            Printer.println("floor calibration (best of the top 10; quantiles 50/75/90/95/99):");
            Printer.println("  coverage, no-memory DEV turns: " + quantiles(g.devCov) + "   answerable: "
                    + quantiles(g.ansCov));
            Printer.println("  information, no-memory DEV turns: " + quantiles(g.devInfo) + "   answerable: "
                    + quantiles(g.ansInfo));
            Printer.println("  cosine,   no-memory DEV turns: " + quantiles(g.devCos) + "   answerable: "
                    + quantiles(g.ansCos));
            Printer.println("  (answerable, low end: coverage " + lowQuantiles(g.ansCov) + ", information "
                    + lowQuantiles(g.ansInfo) + ", cosine " + lowQuantiles(g.ansCos) + " at 5/10/25 %)");
        }
    }

    static String lowQuantiles(List<Double> v) {
        if (v.isEmpty()) return "—";
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        StringBuilder b = new StringBuilder();
        for (double p : new double[] {0.05, 0.1, 0.25})
            b.append(String.format("%.3f ", s.get(Math.min(s.size() - 1, (int) (p * s.size())))));
        return b.toString().strip();
    }

    static double pct(int a, int b) {
        return 100.0 * a / Math.max(1, b);
    }

    static String quantiles(List<Double> v) {
        if (v.isEmpty()) return "—";
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        StringBuilder b = new StringBuilder();
        for (double p : new double[] {0.5, 0.75, 0.9, 0.95, 0.99})
            b.append(String.format("%.3f ", s.get(Math.min(s.size() - 1, (int) (p * s.size())))));
        return b.toString().strip();
    }

    private void dumpQuestion(
            PrintWriter out,
            RecallEngine engine,
            RecallEngine baseline,
            Conv conv,
            int cat,
            String question,
            Set<String> ev,
            double[] r,
            InjectEngine.Result d) {
        out.println(conv.id() + "\t" + cat + "\t" + r[2] + "\t" + d.decision() + "\t" + d.top_score() + "\t"
                + d.reason().replace('\t', ' ') + "\t" + question);
        out.println("  EVIDENCE ranks (steward/bm25-only, 0 = not in the top 20): "
                + evidenceRanks(engine, question, ev, conv) + " / " + evidenceRanks(baseline, question, ev, conv));
        for (String e : new TreeSet<>(ev))
            out.println("    " + e + "  " + conv.diaText().get(e));
        if (r[2] < 1) { // what ranked above the missed evidence
            RecallEngine.Result top =
                    engine.rank(new RecallEngine.Query(question, 10, Set.of(RecallItem.SESSION), null, null, null));
            for (RecallEngine.Hit h : top.hits()) {
                String dia = conv.uriToDia().get(h.item().uri());
                RecallEngine.Components c = h.components();
                out.println(String.format(
                        "      #%d %s%s bm25 %.2f time %.1f match %.2f score %.3f  %s",
                        h.rank(),
                        dia,
                        ev.contains(dia) ? "*" : "",
                        c.bm25(),
                        c.time(),
                        c.match(),
                        c.score(),
                        RecallEngine.snippet(String.valueOf(conv.diaText().get(dia)), 110)));
            }
        }
    }

    /** 1-based conversation numbers chosen by {@code spec}: "0" all, "N" the first N, else ranges and lists ("1-2", "3,5"). */
    static Set<Integer> selection(String spec, int size) {
        Set<Integer> out = new TreeSet<>();
        String s = spec == null ? "0" : spec.strip();
        if (s.matches("\\d+")) {
            int n = Integer.parseInt(s);
            for (int i = 1; i <= size && (n == 0 || i <= n); i++) out.add(i);
            return out;
        }
        for (String part : s.split(",")) {
            String[] r = part.strip().split("-");
            try {
                int lo = Integer.parseInt(r[0].strip()), hi = r.length > 1 ? Integer.parseInt(r[1].strip()) : lo;
                for (int i = Math.max(1, lo); i <= Math.min(size, hi); i++) out.add(i);
            } catch (NumberFormatException e) {
                throw new steward.StewardError(
                        "bench locomo",
                        "--conversations: expected N, a range such as 3-5 or a list such as 1,3; got '" + spec + "'");
            }
        }
        return out;
    }

    private void row(String name, Stats s, int cat) {
        StringBuilder line = new StringBuilder(String.format("%-24s %6d", name, s.n.getOrDefault(cat, 0)));
        for (int k = 0; k < 4; k++) {
            double r = s.r(cat, k);
            line.append(
                    Double.isNaN(r)
                            ? String.format(" %7s", "—")
                            : String.format(" %7.3f", r)); // no questions of this category
        }
        Printer.println(line.toString());
    }

    private boolean useDense() {
        if (dense && lexical) throw new IllegalArgumentException("--dense and --lexical exclude each other");
        return !lexical && (dense || RecallSettings.fromEnvironment().dense().value());
    }

    private static String evidenceRanks(RecallEngine engine, String question, Set<String> ev, Conv conv) {
        RecallEngine.Result res =
                engine.rank(new RecallEngine.Query(question, 20, Set.of(RecallItem.SESSION), null, null, null));
        List<String> out = new ArrayList<>();
        for (String e : new TreeSet<>(ev)) {
            int rank = 0;
            for (int j = 0; j < res.hits().size(); j++)
                if (e.equals(conv.uriToDia().get(res.hits().get(j).item().uri()))) rank = j + 1;
            out.add(e + "@" + rank);
        }
        return String.join(" ", out);
    }

    /** One search per question (the JVM is warm after the first few; the query's vector is not cached yet), timed. */
    private static RecallEngine.Result timedSearch(RecallEngine engine, String question, Stats stats) {
        RecallEngine.Query q = new RecallEngine.Query(question, 20, Set.of(RecallItem.SESSION), null, null, null);
        long t0 = System.nanoTime();
        RecallEngine.Result res = engine.search(q);
        stats.lat.add((System.nanoTime() - t0) / 1e6);
        return res;
    }

    private static double[] recallAt(RecallEngine.Result res, Set<String> ev, Conv conv) {
        double[] r = new double[KS.length];
        for (int i = 0; i < KS.length; i++) {
            Set<String> got = new HashSet<>();
            for (int j = 0; j < res.hits().size() && j < KS[i]; j++) {
                String dia = conv.uriToDia().get(res.hits().get(j).item().uri());
                if (dia != null && ev.contains(dia)) got.add(dia);
            }
            r[i] = (double) got.size() / ev.size();
        }
        return r;
    }

    /** The shared material dir (../shared from the repository, or further up from a worktree). */
    static Path sharedDir() {
        Path repo = Fixtures.locateHermesHome().toAbsolutePath().getParent().getParent();
        for (Path base = repo.getParent(); base != null; base = base.getParent()) {
            Path p = base.resolve("shared");
            if (Files.isDirectory(p.resolve("data"))) return p;
        }
        return repo.resolve("../shared").normalize();
    }

    private static Path defaultData() {
        Path repo = Fixtures.locateHermesHome().toAbsolutePath().getParent().getParent();
        Path first = repo.resolve("../shared/data/locomo/locomo-dev.json").normalize();
        // a git worktree may sit one level deeper than the main checkout: look further up too
        for (Path base = repo.getParent(); base != null; base = base.getParent()) {
            Path p = base.resolve("shared/data/locomo/locomo-dev.json");
            if (Files.isRegularFile(p)) return p;
        }
        return first;
    }

    static Conv build(JsonNode c, Path dir, List<String> schema, int index, boolean withNames) throws Exception {
        Path home = dir.resolve("hermes-home");
        Files.createDirectories(home);
        Path db = home.resolve("state.db");
        HermesDbBuilder.create(db, schema);
        JsonNode conv = c.path("conversation");
        String a = conv.path("speaker_a").asString("A"),
                b = conv.path("speaker_b").asString("B");
        String sample = c.path("sample_id").asString("conv-" + index);
        Map<Integer, String> sessionsKeys = new TreeMap<>();
        for (var it = conv.propertyNames().iterator(); it.hasNext(); ) {
            String k = it.next();
            Matcher m = SESSION_KEY.matcher(k);
            if (m.matches() && conv.get(k).isArray()) sessionsKeys.put(Integer.parseInt(m.group(1)), k);
        }
        Map<String, String> uriToDia = new HashMap<>(), diaToUri = new HashMap<>(), diaText = new HashMap<>();
        double last = 0;
        try (Connection cn = Sqlite.openOwned(db)) {
            cn.setAutoCommit(false);
            try (PreparedStatement ps = cn.prepareStatement(
                            "INSERT INTO sessions (id, source, started_at, ended_at, message_count) VALUES (?,?,?,?,?)");
                    PreparedStatement pm = cn.prepareStatement(
                            "INSERT INTO messages (session_id, role, content, timestamp, platform_message_id) VALUES (?,?,?,?,?)",
                            Statement.RETURN_GENERATED_KEYS)) {
                double fallback = 1.6e9;
                for (Map.Entry<Integer, String> e : sessionsKeys.entrySet()) {
                    int n = e.getKey();
                    double start =
                            parseTime(conv.path("session_" + n + "_date_time").asString(""), fallback + n * 86400.0);
                    JsonNode turns = conv.get(e.getValue());
                    String sid = sample + "-s" + n;
                    ps.setString(1, sid);
                    ps.setString(2, "locomo");
                    ps.setDouble(3, start);
                    ps.setDouble(4, start + 30.0 * turns.size());
                    ps.setInt(5, turns.size());
                    ps.executeUpdate();
                    int t = 0;
                    for (JsonNode turn : turns) {
                        String speaker = turn.path("speaker").asString("");
                        String text = turn.path("text").asString("");
                        String content = withNames ? speaker + ": " + text : text;
                        if (turn.has("blip_caption"))
                            content += " [shared a photo: "
                                    + turn.path("blip_caption").asString() + "]";
                        double ts = start + 30.0 * t++;
                        last = Math.max(last, ts);
                        String dia = turn.path("dia_id").asString("");
                        pm.setString(1, sid);
                        pm.setString(2, speaker.equals(b) && !speaker.equals(a) ? "assistant" : "user");
                        pm.setString(3, content);
                        pm.setDouble(4, ts);
                        pm.setString(5, dia);
                        pm.executeUpdate();
                        try (ResultSet k = pm.getGeneratedKeys()) {
                            k.next();
                            String uri = "steward://session/" + sid + "/message/" + k.getLong(1);
                            uriToDia.put(uri, dia);
                            diaToUri.put(dia, uri);
                            diaText.put(dia, text);
                        }
                    }
                }
            }
            cn.commit();
        }
        List<JsonNode> qa = new ArrayList<>();
        for (JsonNode q : c.path("qa")) qa.add(q);
        return new Conv(sample, home, uriToDia, diaToUri, qa, last, diaText);
    }

    static double parseTime(String s, double fallback) {
        try {
            return LocalDateTime.parse(s.strip(), LOCOMO_TIME).toEpochSecond(ZoneOffset.UTC);
        } catch (RuntimeException e) {
            return fallback;
        }
    }
}
