package steward.recall;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.LongStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Printer;
import steward.state.FileTrees;

/**
 * The nearest-vector search of a fully embedded history, which {@code bench recall-scale} cannot reach (it embeds a
 * sample: the whole of a 1M-message history is hours of one core). Random unit vectors stand in for embeddings (the
 * cost does not depend on what they mean; the overlap figure is a worst case: real embeddings cluster). Baseline in the
 * same run: every row scored exactly (what the store does up to {@link VectorStore#EXACT_ROWS} rows). It lives in the
 * recall package
 * because the store is package-private.
 */
@Command(
        name = "vectors",
        description =
                "nearest-vector search over N stored vectors (random): sign-bit pass + rescoring vs every row scored")
public final class VectorSearchBench implements Callable<Integer> {
    @Option(names = "--rows", split = ",", description = "stored vectors per run (default 100000,687000)")
    List<Integer> rows = List.of(100_000, 687_000);

    @Option(names = "--queries", defaultValue = "200", description = "timed queries per size (default 200)")
    int queries;

    @Option(names = "-n", defaultValue = "200", description = "nearest rows asked per query, as the ranker asks (200)")
    int n;

    @Option(
            names = "--texts",
            description = "real embeddings instead: a file of texts, one per line; the first --rows N are embedded with"
                    + " Steward's model and stored, the next --queries lines are embedded as queries")
    Path texts;

    @Override
    public Integer call() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Printer.println(String.format(
                "steward bench vectors: %d queries per size, %d nearest each; baseline: every row scored exactly",
                queries, n));
        for (int size : rows) {
            Path dir = Files.createTempDirectory("steward-bench-vectors-");
            Random r = new Random(size);
            List<float[]> queryVectors = new ArrayList<>();
            try (VectorStore s = new VectorStore(dir);
                    DenseModel model = texts == null
                            ? null
                            : new DenseModel(dir.resolve("model"), RecallSettings.DEFAULT_EMBED_CHARS, true)) {
                List<String> lines = texts == null ? List.of() : Files.readAllLines(texts);
                if (texts != null && lines.size() < size + queries)
                    throw new IllegalArgumentException(
                            texts + " has " + lines.size() + " lines, not " + (size + queries));
                long built = System.nanoTime();
                for (int i = 0; i < size; i += 1_000) {
                    int m = Math.min(1_000, size - i);
                    List<float[]> vs = new ArrayList<>(m);
                    if (model != null) vs.addAll(model.embedAll(lines.subList(i, i + m)));
                    else for (int j = 0; j < m; j++) vs.add(SyntheticVectors.unit(r));
                    s.append(LongStream.range(i, i + m).toArray(), vs);
                }
                if (model != null) {
                    for (String q : lines.subList(size, size + queries)) queryVectors.add(model.embedQuery(q));
                    Printer.println(String.format(
                            "rows %,d: embedded %,d texts and %d queries with %s in %.0f s",
                            size, size, queries, DenseModel.MODEL, (System.nanoTime() - built) / 1e9));
                }
                for (int w = 0; w < 30; w++) s.nearest(SyntheticVectors.unit(r), n); // warm-up
                // CPU: the calling thread's and the scan helper's (VectorStore.inParts), which takes pieces of a scan
                long helper = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().equals("steward-vector-scan"))
                        .mapToLong(Thread::getId)
                        .findFirst()
                        .orElse(-1);
                java.util.function.LongSupplier cpu = () ->
                        mx.getCurrentThreadCpuTime() + (helper < 0 ? 0 : Math.max(0, mx.getThreadCpuTime(helper)));
                double[] fast = new double[queries], exact = new double[queries];
                long fastCpu = 0, exactCpu = 0;
                double overlap = 0;
                int exactRuns = Math.min(queries, 50);
                for (int q = 0; q < queries; q++) {
                    float[] v = model != null ? queryVectors.get(q) : SyntheticVectors.unit(r);
                    long c0 = cpu.getAsLong(), t0 = System.nanoTime();
                    List<VectorStore.Scored> near = s.nearest(v, n);
                    fast[q] = (System.nanoTime() - t0) / 1e6;
                    fastCpu += cpu.getAsLong() - c0;
                    if (q >= exactRuns) continue;
                    c0 = cpu.getAsLong();
                    t0 = System.nanoTime();
                    List<VectorStore.Scored> best = s.nearest(v, n, true);
                    exact[q] = (System.nanoTime() - t0) / 1e6;
                    exactCpu += cpu.getAsLong() - c0;
                    Set<Long> want = new HashSet<>();
                    for (VectorStore.Scored x : best) want.add(x.key());
                    overlap += near.stream().filter(x -> want.contains(x.key())).count() / (double) n;
                }
                // a one-shot process's store over the same files (reads what a query needs, keeps nothing): its cost
                // per query, and whether it answers as the long-lived store does
                double[] reading = new double[Math.min(queries, 100)];
                int same = 0;
                Random again = new Random(size + 1);
                try (VectorStore oneShot = new VectorStore(dir, true)) {
                    for (int q = 0; q < reading.length; q++) {
                        float[] v = model != null ? queryVectors.get(q) : SyntheticVectors.unit(again);
                        long t0 = System.nanoTime();
                        List<VectorStore.Scored> got = oneShot.nearest(v, n);
                        reading[q] = (System.nanoTime() - t0) / 1e6;
                        if (got.equals(s.nearest(v, n))) same++;
                    }
                }
                Arrays.sort(reading);
                double[] ex = Arrays.copyOf(exact, exactRuns);
                Arrays.sort(fast);
                Arrays.sort(ex);
                double fp50 = fast[queries / 2], ep50 = ex[exactRuns / 2];
                Printer.println(String.format(
                        "rows %,d: nearest p50 %.2f ms, p99 %.2f ms, CPU %.2f ms per query; exact (%d queries) p50 %.2f"
                                + " ms, CPU %.2f ms; ratio %.2f; the exact top %d found %.0f %% (%s)",
                        size,
                        fp50,
                        fast[(int) Math.floor(queries * 0.99)],
                        fastCpu / 1e6 / queries,
                        exactRuns,
                        ep50,
                        exactCpu / 1e6 / exactRuns,
                        fp50 / ep50,
                        n,
                        100 * overlap / exactRuns,
                        model != null ? "real embeddings" : "random vectors: a worst case"));
                Printer.println(String.format(
                        "rows %,d: a one-shot process's store (reads the rows it scores, keeps nothing; page cache warm):"
                                + " p50 %.2f ms, p99 %.2f ms over %d queries; the same results as above in %d",
                        size,
                        reading[reading.length / 2],
                        reading[(int) Math.floor(reading.length * 0.99)],
                        reading.length,
                        same));
            } finally {
                FileTrees.delete(dir);
            }
        }
        return 0;
    }
}
