package steward.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.Work;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.Origin;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.recall.BackgroundIndexer;
import steward.recall.DenseModel;
import steward.recall.InjectEngine;
import steward.recall.RecallEngine;
import steward.recall.RecallService;
import steward.recall.RecallSettings;
import steward.recall.SyncReport;
import steward.recall.SyntheticVectors;
import steward.sessions.store.Sqlite;
import tools.jackson.databind.JsonNode;

/**
 * {@code steward bench recall-scale}: recall on generated Hermes homes of 100k and 1M messages ({@link ScaleHome}). For each
 * size: the first full build (lexical; dense on a measured subset unless asked for all), a sync with nothing changed (in
 * process and in a one-shot {@code steward call}), recall_search and recall_inject latency over distinct queries, peak RSS,
 * index and vector size on disk, and, as the baseline in the same run, Hermes' own FTS5 {@code search_messages} query
 * (its SQL, its query sanitising and CJK routing) on the same database with the same queries.
 */
@Command(
        name = "recall-scale",
        description =
                "Recall at 100k and 1M messages: build, sync, search and inject latency, RSS, sizes; Hermes' FTS5 as baseline.")
public final class RecallScaleBench implements Callable<Integer> {
    @Option(
            names = "--sizes",
            defaultValue = "100000,1000000",
            split = ",",
            description = "message counts (default 100000,1000000)")
    List<Integer> sizes;

    @Option(
            names = "--dir",
            defaultValue = "/tmp/steward-recall-scale",
            description = "where the homes are generated (reused when present)")
    Path dir;

    @Option(names = "--queries", defaultValue = "500", description = "timed queries per size (default 500)")
    int queries;

    @Option(
            names = "--embed",
            defaultValue = "5000",
            description = "texts embedded to measure dense build throughput and rank with "
                    + "dense (default 5000; 0 = none; -1 = all, which takes hours at 1M on 2 cores)")
    int embed;

    @Option(
            names = "--synthetic-vectors",
            description = "after the measured dense subset, give every other text a random unit vector (a fully "
                    + "embedded history's search cost without hours of embedding; rankings over them mean nothing)")
    boolean synthetic;

    @Option(names = "--jar", description = "the steward jar for the one-shot call (default: the running one)")
    Path jar;

    @Override
    public Integer call() throws Exception {
        List<String> schema = HermesDbBuilder.schema(Fixtures.locateHermesHome().resolve("state.db"));
        Path jarPath = jar != null ? jar : Fixtures.runningJar();
        ScaleHome.pools = ScaleHome.Pools.load(LocomoBench.sharedDir());
        Printer.println(
                "steward bench recall-scale: homes under " + dir + "; " + queries + " distinct queries per size; dense "
                        + (embed < 0 ? "on every text" : "measured on " + embed + " texts")
                        + "; baseline: Hermes' search_messages FTS5 SQL on the same state.db");
        Printer.println("generated text: templates about each session's topic mixed with real text ("
                + ScaleHome.pools.describe() + ")");
        for (int size : sizes) run(size, schema, jarPath);
        return 0;
    }

    @SuppressWarnings("try") // the background indexer runs for the try body, never referenced
    private void run(int size, List<String> schema, Path jarPath) throws Exception {
        Printer.println("");
        Printer.println("== " + size + " messages");
        long g0 = System.nanoTime();
        Path home = ScaleHome.create(dir.resolve(String.valueOf(size)), size, 42, schema);
        Path db = home.resolve("state.db");
        Printer.println(String.format(
                "home: %s (state.db %.0f MiB incl. Hermes' FTS5 tables; ready in %.0f s)",
                home, Files.size(db) / 1048576.0, (System.nanoTime() - g0) / 1e9));
        Path state = dir.resolve(size + "/steward-state");
        deleteTree(state);
        StewardPaths paths = new StewardPaths(home, Origin.FLAG, state, Origin.FLAG);
        List<String> qs = ScaleHome.queries(db, queries + 50, 7);
        List<String> warm = qs.subList(queries, qs.size()), timed = qs.subList(0, queries);
        try (DenseModel model =
                        new DenseModel(state.resolve("recall/model"), RecallSettings.DEFAULT_EMBED_CHARS, true);
                RecallEngine engine = new RecallEngine(paths, Clock.systemUTC(), RecallEngine.Options.DEFAULT, model)) {
            Printer.println("machine load average now: " + loadAverage()
                    + " (2 cores; wall times stretch with it, CPU times much less)");
            resetPeak();
            long t0 = System.nanoTime(), c0 = cpuNanos();
            SyncReport built = engine.sync(progress());
            double buildS = (System.nanoTime() - t0) / 1e9, buildCpu = (cpuNanos() - c0) / 1e9;
            long peakBuild = peakKiB();
            Printer.println(String.format(
                    "first build, lexical: %.1f s wall, %.1f s CPU, %d items (%.0f items/s wall, %.0f per CPU second), peak RSS %.0f MiB",
                    buildS,
                    buildCpu,
                    built.written(),
                    built.written() / buildS,
                    built.written() / buildCpu,
                    peakBuild / 1024.0));
            duringBuild(home, dir.resolve(size + "/steward-state-bg"), timed);
            // dense: what the background indexer does, timed on a subset (or everything)
            int pending = engine.densePending();
            int goal = embed < 0 ? pending : Math.min(embed, pending);
            resetPeak();
            t0 = System.nanoTime();
            c0 = cpuNanos();
            int done = 0;
            while (done < goal) {
                int n = engine.embedPending(Math.min(64, goal - done), Work.NONE);
                if (n == 0) break;
                done += n;
            }
            double embedS = (System.nanoTime() - t0) / 1e9, embedCpu = (cpuNanos() - c0) / 1e9;
            if (done > 0) {
                Printer.println(String.format(
                        "first build, dense (measured subset): %d of %d texts embedded in %.1f s wall, %.1f s CPU (%.1f texts/s wall, "
                                + "%.1f per CPU second; the whole history: about %.1f h of one core); peak RSS %.0f MiB",
                        done,
                        pending,
                        embedS,
                        embedCpu,
                        done / embedS,
                        done / embedCpu,
                        pending / (done / embedCpu) / 3600,
                        peakKiB() / 1024.0));
            } else {
                Printer.println("first build, dense: not measured (--embed 0)");
            }
            if (synthetic) {
                long f0 = System.nanoTime();
                int filled = SyntheticVectors.fill(RecallEngine.recallDir(paths));
                Printer.println(String.format(
                        "synthetic vectors: %d more texts given a random unit vector in %.1f s (%d rows now): the "
                                + "search figures below are a fully embedded history's costs; its rankings mean nothing",
                        filled, (System.nanoTime() - f0) / 1e9, engine.denseVectors()));
            }
            // sync with nothing changed
            List<Double> syncs = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                long s0 = System.nanoTime();
                SyncReport r = engine.sync();
                syncs.add((System.nanoTime() - s0) / 1e6);
                if (r.changed())
                    throw new IllegalStateException("a sync with nothing changed wrote " + r.written() + " items");
            }
            Printer.println(String.format(
                    "sync, nothing changed (in process, 50 runs): p50 %.2f ms, p99 %.2f ms   (target <= 20 ms at 100k)",
                    pct(syncs, 0.5), pct(syncs, 0.99)));
            try (BackgroundIndexer bg =
                    new BackgroundIndexer(engine, 600_000).start()) { // the server's call path: a peek, never a write
                Thread.sleep(2000); // (its start-up reconciliation: nothing to write)
                List<Double> peeks = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    long s0 = System.nanoTime();
                    SyncReport r = engine.syncForCall(Work.NONE);
                    peeks.add((System.nanoTime() - s0) / 1e6);
                    if (r.changed()) throw new IllegalStateException("a call wrote the index");
                }
                Printer.println(String.format(
                        "call path with the background indexer, nothing changed (50 calls): p50 %.2f ms, p99 %.2f ms",
                        pct(peeks, 0.5), pct(peeks, 0.99)));
            }
            // searches: warm-up on other queries, then each timed query once
            for (String q : warm) engine.search(new RecallEngine.Query(q, 10, null, null, null, null));
            resetPeak();
            List<Double> lat = new ArrayList<>(), cpu = new ArrayList<>();
            int good = 0, denseUsed = 0;
            Thread embedder = thread("steward-query-embedder"), scan = thread("steward-vector-scan");
            c0 = cpuNanos();
            for (String q : timed) {
                long s0 = System.nanoTime(), t0c = threadCpu(null) + otherCpu(embedder) + otherCpu(scan);
                RecallEngine.Result r = engine.search(new RecallEngine.Query(q, 10, null, null, null, null));
                lat.add((System.nanoTime() - s0) / 1e6);
                cpu.add((threadCpu(null) + otherCpu(embedder) + otherCpu(scan) - t0c) / 1e6);
                if (r.confidence().good()) good++;
                if (r.confidence().bestCosine() != null) denseUsed++;
            }
            double searchCpu = (cpuNanos() - c0) / 1e6 / timed.size();
            Printer.println(String.format(
                    "recall_search, %d distinct queries (warm process): p50 %.2f ms, p99 %.2f ms wall; %.2f ms CPU per query "
                            + "(all threads: the query's embedding included); dense took part in %d, \"good match\" %d; peak RSS %.0f MiB",
                    timed.size(), pct(lat, 0.5), pct(lat, 0.99), searchCpu, denseUsed, good, peakKiB() / 1024.0));
            Printer.println(String.format(
                    "recall_search CPU per query (the calling thread, the query embedder's and the vector scan's): p50 %.2f ms, p99 %.2f ms, mean %.2f ms",
                    pct(cpu, 0.5), pct(cpu, 0.99), mean(cpu)));
            // the lexical path alone: what the server runs with STEWARD_RECALL_DENSE=off (RecallRuntime:
            // Options.DEFAULT.withDense(false)), on the same index, same queries, same warm-up
            List<Double> lexLat = new ArrayList<>(), lexCpu = new ArrayList<>();
            int lexGood = 0;
            try (RecallEngine lexical =
                    new RecallEngine(paths, Clock.systemUTC(), RecallEngine.Options.DEFAULT.withDense(false), model)) {
                for (String q : warm) lexical.search(new RecallEngine.Query(q, 10, null, null, null, null));
                for (String q : timed) {
                    long s0 = System.nanoTime(), t0c = threadCpu(null);
                    RecallEngine.Result r = lexical.search(new RecallEngine.Query(q, 10, null, null, null, null));
                    lexLat.add((System.nanoTime() - s0) / 1e6);
                    lexCpu.add((threadCpu(null) - t0c) / 1e6);
                    if (r.confidence().bestCosine() != null)
                        throw new IllegalStateException("dense ran with dense off");
                    if (r.confidence().good()) lexGood++;
                }
            }
            Printer.println(String.format(
                    "recall_search lexical only (dense off, as STEWARD_RECALL_DENSE=off; same index and queries): p50 %.2f ms, "
                            + "p99 %.2f ms wall; CPU per query (its thread) p50 %.2f ms, p99 %.2f ms, mean %.2f ms; \"good match\" %d",
                    pct(lexLat, 0.5), pct(lexLat, 0.99), pct(lexCpu, 0.5), pct(lexCpu, 0.99), mean(lexCpu), lexGood));
            InjectEngine gate = new InjectEngine(engine, RecallEngine.recallDir(paths));
            List<Double> inj = new ArrayList<>();
            for (String q : timed) {
                long s0 = System.nanoTime();
                gate.inject(new InjectEngine.Request(q, null, null, null, "shadow"));
                inj.add((System.nanoTime() - s0) / 1e6);
            }
            Printer.println(String.format(
                    "recall_inject, same queries: p50 %.2f ms, p99 %.2f ms", pct(inj, 0.5), pct(inj, 0.99)));
            c0 = cpuNanos();
            List<Double> ftsCpuEach = new ArrayList<>();
            List<Double> fts = hermesBaseline(db, timed, ftsCpuEach);
            double ftsCpu = (cpuNanos() - c0) / 1e6 / (2.0 * timed.size());
            Printer.println(String.format(
                    "baseline Hermes search_messages (FTS5, same db, same queries): p50 %.2f ms, p99 %.2f ms   "
                            + "(%.2f ms CPU per query) (target: recall_search p50 <= 1x this; at 100k p50 <= 10 ms, p99 <= 50 ms; at 1M p50 <= 30 ms)",
                    pct(fts, 0.5), pct(fts, 0.99), ftsCpu));
            Printer.println(String.format(
                    "baseline CPU per query (its thread; SQLite runs in it): p50 %.2f ms, p99 %.2f ms, mean %.2f ms",
                    pct(ftsCpuEach, 0.5), pct(ftsCpuEach, 0.99), mean(ftsCpuEach)));
            List<Double> fullCpu = new ArrayList<>();
            List<Double> full = hermesBaseline(db, timed, fullCpu, true);
            Printer.println(String.format(
                    "baseline Hermes search_messages in full (the query above, then its context lookup: one more query per "
                            + "match, as hermes_state.py runs it): p50 %.2f ms, p99 %.2f ms",
                    pct(full, 0.5), pct(full, 0.99)));
            versusFts("recall_search", lat, cpu, fts, ftsCpuEach);
            Printer.println(String.format(
                    "ratio recall_search/Hermes search_messages in full: wall p50 %.2f, p99 %.2f; CPU p50 %.2f, p99 %.2f",
                    pct(lat, 0.5) / pct(full, 0.5),
                    pct(lat, 0.99) / pct(full, 0.99),
                    pct(cpu, 0.5) / pct(fullCpu, 0.5),
                    pct(cpu, 0.99) / pct(fullCpu, 0.99)));
            versusFts("recall_search lexical only", lexLat, lexCpu, fts, ftsCpuEach);
            Printer.println(String.format(
                    "on disk: index %.0f MiB, vectors %.1f MiB (%d rows, %d bytes each), state.db %.0f MiB",
                    engine.indexBytes() / 1048576.0,
                    engine.vectorBytes() / 1048576.0,
                    engine.denseVectors(),
                    8 + 388 + 48,
                    Files.size(db) / 1048576.0));
        }
        oneShot(jarPath, home, state, timed.get(0));
    }

    /**
     * A fresh state dir under a long-lived server: the background indexer builds; recall_search calls meanwhile neither
     * wait nor write, and answer from what is written so far. Stops the build after the timed calls.
     */
    private void duringBuild(Path home, Path state, List<String> timed) throws Exception {
        deleteTree(state);
        StewardPaths paths = new StewardPaths(home, Origin.FLAG, state, Origin.FLAG);
        try (DenseModel model =
                        new DenseModel(state.resolve("recall/model"), RecallSettings.DEFAULT_EMBED_CHARS, false);
                RecallEngine engine = new RecallEngine(paths, Clock.systemUTC(), RecallEngine.Options.LEXICAL, model);
                BackgroundIndexer bg = new BackgroundIndexer(engine, 600_000).start()) {
            RecallService svc = new RecallService(engine);
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (bg.building() == null && System.nanoTime() < deadline) Thread.sleep(20);
            Thread.sleep(1000);
            List<Double> lat = new ArrayList<>();
            String first = null, last = null;
            int withItems = 0, n = Math.min(50, timed.size());
            for (String q : timed.subList(0, n)) {
                long s0 = System.nanoTime();
                RecallService.SearchOutput out =
                        svc.search(new RecallService.SearchRequest(q, 10, null, null, null, null));
                lat.add((System.nanoTime() - s0) / 1e6);
                if (out.index().items_written() > 0) throw new IllegalStateException("a call wrote the index");
                if (!out.items().isEmpty()) withItems++;
                if (first == null) first = out.index().building();
                last = out.index().building();
            }
            Printer.println(String.format(
                    "recall_search during the first build (server: background indexer, %d calls): p50 %.1f ms, p99 %.1f ms; "
                            + "%d answered with items; first call said \"%s\", last \"%s\"",
                    n, pct(lat, 0.5), pct(lat, 0.99), withItems, first, last));
        }
        deleteTree(state);
    }

    /** One {@code steward call recall_search} in a fresh JVM with the launcher's flags: wall time, its sync_ms, peak RSS. */
    private static void oneShot(Path jarPath, Path home, Path state, String query) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(LaunchFlags.oneShot(null));
        cmd.addAll(List.of(
                "-jar",
                jarPath.toString(),
                "call",
                "recall_search",
                Json.MAPPER.writeValueAsString(Map.of("query", query)),
                "--hermes-home",
                home.toString(),
                "--state-dir",
                state.toString()));
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        long peak = 0;
        byte[] out;
        try (var in = p.getInputStream()) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            byte[] b = new byte[8192];
            while (true) {
                peak = Math.max(peak, HttpBench.rssKiB(p.pid())[1]);
                if (in.available() > 0) {
                    int n = in.read(b);
                    if (n < 0) break;
                    buf.write(b, 0, n);
                } else if (!p.isAlive()) {
                    buf.write(in.readAllBytes());
                    break;
                } else {
                    Thread.sleep(5);
                }
            }
            out = buf.toByteArray();
        }
        p.waitFor();
        double wall = (System.nanoTime() - t0) / 1e6;
        JsonNode r = Json.MAPPER.readTree(out);
        Printer.println(String.format(
                "one-shot steward call recall_search (new JVM, launcher flags, no CDS): %.0f ms wall, sync_ms %d, peak RSS %.0f MiB "
                        + "(polled; target <= 200 MiB with dense on), dense used: %s",
                wall,
                r.path("index").path("sync_ms").asLong(-1),
                peak / 1024.0,
                r.path("index").path("dense_enabled").asBoolean()));
    }

    /** Hermes' search_messages: the same SQL (FTS5 MATCH, joins, ORDER BY rank LIMIT 20), its sanitising and its CJK routing. */
    static List<Double> hermesBaseline(Path db, List<String> queries, List<Double> cpuOut) throws Exception {
        return hermesBaseline(db, queries, cpuOut, false);
    }

    /**
     * Hermes' search_messages after its query: for each match, one more query for the message before and after it (its
     * SQL, as {@code hermes_state.py} runs it), which every call of Hermes' function pays.
     */
    static final String HERMES_CONTEXT = """
            WITH target AS (SELECT session_id, timestamp, id FROM messages WHERE id = ?)
            SELECT role, content FROM (
              SELECT m.id, m.timestamp, m.role, m.content FROM messages m JOIN target t ON t.session_id = m.session_id
              WHERE (m.timestamp < t.timestamp) OR (m.timestamp = t.timestamp AND m.id < t.id)
              ORDER BY m.timestamp DESC, m.id DESC LIMIT 1)
            UNION ALL SELECT role, content FROM messages WHERE id = ?
            UNION ALL SELECT role, content FROM (
              SELECT m.id, m.timestamp, m.role, m.content FROM messages m JOIN target t ON t.session_id = m.session_id
              WHERE (m.timestamp > t.timestamp) OR (m.timestamp = t.timestamp AND m.id > t.id)
              ORDER BY m.timestamp ASC, m.id ASC LIMIT 1)""";

    /** {@code withContext}: the whole of Hermes' search_messages (its query, then its context lookup for each match). */
    static List<Double> hermesBaseline(Path db, List<String> queries, List<Double> cpuOut, boolean withContext)
            throws Exception {
        List<Double> out = new ArrayList<>();
        String select =
                "SELECT m.id, m.session_id, m.role, snippet(%s, 0, '>>>', '<<<', '...', 40) AS snippet, m.content, m.timestamp, "
                        + "m.tool_name, s.source, s.model, s.started_at AS session_started FROM %s JOIN messages m ON m.id = %s.rowid "
                        + "JOIN sessions s ON s.id = m.session_id WHERE %s MATCH ? AND (m.active = 1 OR m.compacted = 1) ORDER BY rank LIMIT 20 OFFSET 0";
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement fts = c.prepareStatement(
                        String.format(select, "messages_fts", "messages_fts", "messages_fts", "messages_fts"));
                PreparedStatement tri = c.prepareStatement(String.format(
                        select,
                        "messages_fts_trigram",
                        "messages_fts_trigram",
                        "messages_fts_trigram",
                        "messages_fts_trigram"));
                PreparedStatement like = c.prepareStatement(
                        "SELECT m.id, m.session_id, m.role, m.content, m.timestamp FROM messages m "
                                + "JOIN sessions s ON s.id = m.session_id WHERE (m.content LIKE ? ESCAPE '\\' OR m.tool_name LIKE ? ESCAPE '\\' "
                                + "OR m.tool_calls LIKE ? ESCAPE '\\') AND (m.active = 1 OR m.compacted = 1) ORDER BY m.timestamp DESC LIMIT 20");
                PreparedStatement context = c.prepareStatement(HERMES_CONTEXT)) {
            for (int round = 0; round < 2; round++) { // the first round warms SQLite's page cache
                for (String q : queries) {
                    long t0 = System.nanoTime(), c0 = threadCpu(null);
                    String clean = sanitise(q);
                    if (clean.isEmpty()) continue;
                    long cjk = clean.codePoints()
                            .filter(cp -> Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN)
                            .count();
                    PreparedStatement ps;
                    if (cjk > 0 && cjk >= 3) {
                        ps = tri;
                        ps.setString(1, "\"" + clean.replace("\"", "\"\"") + "\"");
                    } else if (cjk > 0) {
                        ps = like;
                        String esc = "%"
                                + clean.replace("\\", "\\\\")
                                        .replace("%", "\\%")
                                        .replace("_", "\\_") + "%";
                        ps.setString(1, esc);
                        ps.setString(2, esc);
                        ps.setString(3, esc);
                    } else {
                        ps = fts;
                        ps.setString(1, clean);
                    }
                    List<Long> ids = new ArrayList<>();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rs.getString(4);
                            ids.add(rs.getLong(1));
                        }
                    }
                    if (withContext) {
                        for (long id : ids) {
                            context.setLong(1, id);
                            context.setLong(2, id);
                            try (ResultSet rs = context.executeQuery()) {
                                while (rs.next()) rs.getString(2);
                            }
                        }
                    }
                    if (round == 1) {
                        out.add((System.nanoTime() - t0) / 1e6);
                        cpuOut.add((threadCpu(null) - c0) / 1e6);
                    }
                }
            }
        }
        return out;
    }

    /** Hermes' _sanitize_fts5_query for plain queries: FTS5 operators and specials dropped, dotted/hyphenated terms quoted. */
    static String sanitise(String q) {
        String s = q.replaceAll("[\"()+*{}:^]", " ")
                .replaceAll("(?i)\\b(AND|OR|NOT|NEAR)\\b", " ")
                .replace("?", " ")
                .strip();
        StringBuilder b = new StringBuilder();
        for (String w : s.split("\\s+")) {
            if (w.isEmpty()) continue;
            if (b.length() > 0) b.append(' ');
            b.append(w.matches(".*[-.].*") ? "\"" + w + "\"" : w);
        }
        return b.toString();
    }

    private static Work progress() {
        return new Work() {
            long last = System.nanoTime();

            @Override
            public void progress(double done, double total, String message) {
                if (System.nanoTime() - last < 10_000_000_000L) return;
                last = System.nanoTime();
                System.err.printf("  %s %.0f/%.0f%n", message, done, total);
            }

            @Override
            public boolean cancelled() {
                return false;
            }
        };
    }

    /** A variant's wall and CPU per query beside Hermes' FTS5 query's, from the same run, and their ratios. */
    private static void versusFts(
            String variant, List<Double> lat, List<Double> cpu, List<Double> fts, List<Double> ftsCpu) {
        Printer.println(String.format(
                "per query, %s vs Hermes FTS5 (same run):  wall p50 %.2f / %.2f ms, p99 %.2f / %.2f ms;  "
                        + "CPU p50 %.2f / %.2f ms, p99 %.2f / %.2f ms",
                variant,
                pct(lat, 0.5),
                pct(fts, 0.5),
                pct(lat, 0.99),
                pct(fts, 0.99),
                pct(cpu, 0.5),
                pct(ftsCpu, 0.5),
                pct(cpu, 0.99),
                pct(ftsCpu, 0.99)));
        Printer.println(String.format(
                "ratio %s/Hermes FTS5: wall p50 %.2f, p99 %.2f; CPU p50 %.2f, p99 %.2f",
                variant,
                pct(lat, 0.5) / pct(fts, 0.5),
                pct(lat, 0.99) / pct(fts, 0.99),
                pct(cpu, 0.5) / pct(ftsCpu, 0.5),
                pct(cpu, 0.99) / pct(ftsCpu, 0.99)));
    }

    static double pct(List<Double> v, double p) {
        if (v.isEmpty()) return Double.NaN;
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(p * s.size()) - 1));
    }

    static double mean(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** A live thread of this process by name, or null. */
    static Thread thread(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().equals(name)) return t;
        return null;
    }

    /** CPU time of another thread; 0 when it is not there (a query that never needed it). */
    static long otherCpu(Thread t) {
        return t == null ? 0 : threadCpu(t);
    }

    /** CPU time of a thread (null: the calling one); 0 for a thread that is gone or not there. */
    static long threadCpu(Thread t) {
        var mx = ManagementFactory.getThreadMXBean();
        long v = t == null ? mx.getCurrentThreadCpuTime() : mx.getThreadCpuTime(t.getId());
        return Math.max(0, v);
    }

    /** Resets this process's peak RSS (Linux: writing 5 to clear_refs), so the next reading covers one phase. */
    static void resetPeak() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (Exception ignored) {
            // not Linux: the peak covers the whole run
        }
    }

    /** CPU time of the whole process (all threads: the query embedder, GC and compiler included). */
    static long cpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : System.nanoTime();
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }

    static long peakKiB() {
        return HttpBench.rssKiB(ProcessHandle.current().pid())[1];
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (var s = Files.walk(p)) {
            for (Path q : s.sorted(Collections.reverseOrder()).toList()) Files.delete(q);
        }
    }
}
