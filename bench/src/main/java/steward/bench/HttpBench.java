package steward.bench;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.Work;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.ToolContext;
import steward.state.FileTrees;

/**
 * {@code steward bench http}: N concurrent MCP clients (one Streamable HTTP session each) on loopback
 * against {@code steward serve --http} in a child process, calling tools for a fixed time → requests
 * per second, p50/p99 latency, and the server's RSS. Baseline in the same run: the same calls
 * through the registry in-process with the same number of threads (no transport, no JSON-RPC).
 */
@Command(
        name = "http",
        description = "Concurrent clients over Streamable HTTP on loopback: req/s, p50, p99, server RSS.")
public final class HttpBench implements Callable<Integer> {
    @Option(names = "-c", defaultValue = "8", description = "concurrent clients (default 8)")
    int clients;

    @Option(names = "--seconds", defaultValue = "10", description = "measured seconds per tool (default 10)")
    int seconds;

    @Option(names = "--warmup", defaultValue = "3", description = "warm-up seconds per tool (default 3)")
    int warmup;

    @Option(names = "--jar", description = "the steward jar (default: the running one)")
    Path jar;

    record Call(String tool, Map<String, Object> args) {}

    record Result(long requests, long errors, double seconds, double p50ms, double p99ms, String firstError) {
        double rps() {
            return requests / seconds;
        }
    }

    @Override
    public Integer call() throws Exception {
        Path jarPath = jar != null ? jar : Fixtures.runningJar();
        Path home = Fixtures.copyHermesHome(Files.createTempDirectory("steward-bench-http-"));
        ToolRegistry registry = Tools.registry();
        List<Call> calls = new ArrayList<>(List.of(new Call("steward_status", Map.of())));
        String skipped = null;
        if (registry.find("recall_search").isPresent()) calls.add(new Call("recall_search", Map.of("query", "memory")));
        else skipped = "recall_search is not registered in this build: skipped";

        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        // the server runs as the launcher runs `steward serve`: its JVM flags and class-data archive, when there is one
        List<String> cmd = new ArrayList<>(List.of(java));
        Path jsa = jarPath.resolveSibling("steward.jsa");
        cmd.addAll(LaunchFlags.serve(Files.isRegularFile(jsa) ? jsa : null));
        cmd.addAll(List.of(
                "-jar",
                jarPath.toString(),
                "serve",
                "--http",
                "--no-sse",
                "--port",
                String.valueOf(port),
                "--hermes-home",
                home.toString()));
        Printer.println("server JVM flags: " + String.join(" ", cmd.subList(1, cmd.indexOf("-jar"))));
        Process server = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            awaitListening(port, server);
            Printer.println("steward bench http: " + clients + " clients, Streamable HTTP on 127.0.0.1:" + port + ", "
                    + warmup + " s warm-up + " + seconds
                    + " s per tool; baseline = same calls in-process through the registry (no transport)");
            if (skipped != null) Printer.println("note: " + skipped);
            Printer.println(String.format(
                    "%-16s %-22s %10s %9s %9s %8s", "tool", "variant", "req/s", "p50 ms", "p99 ms", "errors"));
            ToolContext ctx = new ToolContext(StewardPaths.of(home), Clock.systemUTC(), Work.NONE);
            for (Call c : calls) {
                Result base = run(() -> () -> {
                    var r = registry.invoke(c.tool(), Json.MAPPER.valueToTree(c.args()), ctx);
                    return r.isError() ? r.text() : null;
                });
                List<McpSyncClient> cs = new ArrayList<>();
                for (int i = 0; i < clients; i++) cs.add(client(port));
                try {
                    int[] next = {0};
                    Result http = run(() -> {
                        McpSyncClient mine;
                        synchronized (next) {
                            mine = cs.get(next[0]++ % cs.size());
                        }
                        var req = McpSchema.CallToolRequest.builder(c.tool())
                                .arguments(c.args())
                                .build();
                        return () -> {
                            var r = mine.callTool(req);
                            return Boolean.TRUE.equals(r.isError()) ? String.valueOf(r.content()) : null;
                        };
                    });
                    Printer.println(String.format(
                            "%-16s %-22s %10.0f %9.2f %9.2f %8d",
                            c.tool(), "in-process baseline", base.rps(), base.p50ms(), base.p99ms(), base.errors()));
                    Printer.println(String.format(
                            "%-16s %-22s %10.0f %9.2f %9.2f %8d",
                            c.tool(),
                            "HTTP, " + clients + " clients",
                            http.rps(),
                            http.p50ms(),
                            http.p99ms(),
                            http.errors()));
                    for (Result r : List.of(base, http))
                        if (r.firstError() != null) Printer.println("  first error: " + r.firstError());
                    Printer.println(String.format(
                            "%-16s ratio HTTP/baseline: throughput %.2f, p50 latency %.1fx",
                            c.tool(), http.rps() / base.rps(), http.p50ms() / base.p50ms()));
                } finally {
                    cs.forEach(McpSyncClient::closeGracefully);
                }
            }
            long[] rss = rssKiB(server.pid());
            Printer.println(
                    String.format("server RSS: %.1f MiB now, %.1f MiB peak (VmHWM)", rss[0] / 1024.0, rss[1] / 1024.0));
        } finally {
            server.destroy();
            server.waitFor();
            deleteTree(home);
        }
        return 0;
    }

    /** Each worker gets its own call (per-thread client); returns null when the call succeeded, else what went wrong. */
    interface Op {
        String call();
    }

    private Result run(Supplier<Op> perThread) throws InterruptedException {
        phase(perThread, warmup, null);
        List<long[]> lat = new ArrayList<>();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> first = new AtomicReference<>();
        long t0 = System.nanoTime();
        long n = phase(perThread, seconds, lat, errors, first);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long[] all = lat.stream()
                .flatMapToLong(a -> Arrays.stream(a))
                .filter(v -> v >= 0)
                .sorted()
                .toArray();
        return new Result(n, errors.get(), elapsed, pct(all, 0.50) / 1e6, pct(all, 0.99) / 1e6, first.get());
    }

    private long phase(Supplier<Op> perThread, int secs, List<long[]> lat) throws InterruptedException {
        return phase(perThread, secs, lat, new AtomicLong(), new AtomicReference<>());
    }

    private long phase(
            Supplier<Op> perThread, int secs, List<long[]> lat, AtomicLong errors, AtomicReference<String> first)
            throws InterruptedException {
        if (secs <= 0) return 0;
        long end = System.nanoTime() + Duration.ofSeconds(secs).toNanos();
        AtomicLong total = new AtomicLong();
        CountDownLatch done = new CountDownLatch(clients);
        List<long[]> perWorker = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Op op = perThread.get();
            long[] mine = new long[500_000];
            Arrays.fill(mine, -1);
            perWorker.add(mine);
            Thread t = new Thread(
                    () -> {
                        int k = 0;
                        try {
                            while (System.nanoTime() < end) {
                                long s = System.nanoTime();
                                String error;
                                try {
                                    error = op.call();
                                } catch (RuntimeException e) {
                                    error = e.toString();
                                }
                                if (error != null) {
                                    errors.incrementAndGet();
                                    first.compareAndSet(null, error);
                                }
                                if (k < mine.length) mine[k++] = System.nanoTime() - s;
                                total.incrementAndGet();
                            }
                        } finally {
                            done.countDown();
                        }
                    },
                    "bench-" + i);
            t.start();
        }
        done.await();
        if (lat != null) lat.addAll(perWorker);
        return total.get();
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) return Double.NaN;
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    private static McpSyncClient client(int port) {
        var t = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port)
                .endpoint("/mcp")
                .build();
        McpSyncClient c =
                McpClient.sync(t).requestTimeout(Duration.ofSeconds(30)).build();
        c.initialize();
        return c;
    }

    @SuppressWarnings("try") // the connect is the probe; the socket is never used
    private static void awaitListening(int port, Process p) throws IOException, InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (!p.isAlive()) throw new IOException("steward serve --http exited with " + p.exitValue());
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new IOException("steward serve --http did not listen within 30 s");
    }

    private static void deleteTree(Path p) {
        try {
            FileTrees.delete(p);
        } catch (IOException ignored) {
            // a temporary directory left behind is not worth failing the benchmark for
        }
    }

    static long[] rssKiB(long pid) {
        long rss = 0, hwm = 0;
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (l.startsWith("VmRSS:")) rss = Long.parseLong(l.replaceAll("[^0-9]", ""));
                if (l.startsWith("VmHWM:")) hwm = Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | NumberFormatException ignored) {
            // not Linux, or the process is gone
        }
        return new long[] {rss, hwm};
    }
}
