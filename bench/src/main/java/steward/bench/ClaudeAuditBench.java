package steward.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import steward.Work;
import steward.claude.ScanCache;
import steward.claude.TranscriptScanner;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;

/**
 * {@code steward bench audit --store claude}: builds a Claude Code home ({@link ClaudeHomeBuilder}: 2,000 projects,
 * 20,000 sessions, 2 GiB of transcripts by default) and times, on the same tree and in the same run, (a) the first
 * {@code session_audit} of the home (no scan cache: every transcript is scanned), (b) a later audit (scan cache in the
 * state dir, nothing changed) and (c) the baseline {@code find <projects> -name '*.jsonl' | xargs wc -l}.
 */
final class ClaudeAuditBench {
    private ClaudeAuditBench() {}

    static int run(Path dir, int projects, int sessions, long bytes, int n) throws IOException, InterruptedException {
        boolean temp = dir == null;
        Path work = temp ? Files.createTempDirectory("steward-bench-claude-") : dir;
        try {
            Path home = work.resolve("claude-home");
            Path marker = work.resolve(".bench-claude-" + projects + "-" + sessions + "-" + bytes);
            if (!Files.exists(marker)) {
                FileTrees.delete(home);
                long t0 = System.nanoTime();
                ClaudeHomeBuilder.Stats s = ClaudeHomeBuilder.build(
                        home, projects, Math.max(1, sessions / projects), bytes, 42, Instant.ofEpochSecond((long)
                                AuditBench.NOW));
                Files.writeString(marker, "built");
                Printer.println(String.format(
                        "built %s: %,d projects, %,d sessions, %,d subagent transcripts, %,d bytes of transcripts, "
                                + "%d sessions-index.json, %,d untitled, in %.1f s",
                        home,
                        s.projects(),
                        s.sessions(),
                        s.subagentFiles(),
                        s.bytes(),
                        s.indexFiles(),
                        s.untitled(),
                        (System.nanoTime() - t0) / 1e9));
            } else {
                Printer.println("reusing " + home);
            }
            // the Hermes home left at its default, not named: a named Hermes home that does not exist is refused
            StewardPaths paths = StewardPaths.claudeOnly(work.resolve("no-hermes"), home);
            Path cache = ScanCache.defaultFile(paths.stateDir());
            ToolRegistry registry = Tools.registry();
            ToolContext ctx = new ToolContext(paths, Clock.systemUTC(), Work.NONE);
            JsonNode args = Json.MAPPER.readTree(
                    "{\"now\":\"2026-08-10T12:00:00Z\",\"store\":\"claude\",\"max_items_per_group\":20}");
            // warm-up: one first audit and one later audit (JIT), one baseline run (page cache)
            Files.deleteIfExists(cache);
            ToolResult first = audit(registry, args, ctx);
            audit(registry, args, ctx);
            baseline(home.resolve("projects"));
            List<Double> cold = new ArrayList<>(), warm = new ArrayList<>(), wc = new ArrayList<>();
            List<Double> coldCpu = new ArrayList<>(), warmCpu = new ArrayList<>(), wcCpu = new ArrayList<>();
            long read = 0;
            for (int i = 0; i < n; i++) {
                Files.deleteIfExists(cache);
                long b0 = TranscriptScanner.BYTES_READ.get();
                long c0 = cpu(), t0 = System.nanoTime();
                audit(registry, args, ctx);
                cold.add((System.nanoTime() - t0) / 1e6);
                coldCpu.add((cpu() - c0) / 1e6);
                read = TranscriptScanner.BYTES_READ.get() - b0;
                c0 = cpu();
                t0 = System.nanoTime();
                audit(registry, args, ctx);
                warm.add((System.nanoTime() - t0) / 1e6);
                warmCpu.add((cpu() - c0) / 1e6);
                double[] b = baselineWithCpu(home.resolve("projects"));
                wc.add(b[0]);
                wcCpu.add(b[1]);
            }
            JsonNode totals = ToolRegistry.toJson(first.structured()).get("totals");
            long size = 0;
            try (var s = Files.walk(home.resolve("projects"))) {
                for (Path p : s.filter(p -> p.toString().endsWith(".jsonl")).toList()) size += Files.size(p);
            }
            Printer.println(String.format(
                    "home: %,d transcripts (%,d live), %,d bytes; a first audit reads %,d bytes of them (%.1f %%)",
                    totals.get("all").asInt(),
                    totals.get("active").asInt(),
                    size,
                    read,
                    100.0 * read / Math.max(1, size)));
            double mc = AuditBench.median(cold), mw = AuditBench.median(warm), mb = AuditBench.median(wc);
            Printer.println(String.format(
                    "%-52s %10s %10s %10s", "variant (" + n + " runs after warm-up)", "median ms", "min ms", "max ms"));
            Printer.println(String.format(
                    "%-52s %10.1f %10.1f %10.1f",
                    "(a) session_audit, first audit (no scan cache)",
                    mc,
                    Collections.min(cold),
                    Collections.max(cold)));
            Printer.println(String.format(
                    "%-52s %10.1f %10.1f %10.1f",
                    "(b) session_audit, nothing changed (scan cache)",
                    mw,
                    Collections.min(warm),
                    Collections.max(warm)));
            Printer.println(String.format(
                    "%-52s %10.1f %10.1f %10.1f",
                    "(c) find projects -name '*.jsonl' | xargs wc -l", mb, Collections.min(wc), Collections.max(wc)));
            Printer.println(String.format("ratio (a)/(c): %.3f   (b)/(c): %.3f   target: <= 1", mc / mb, mw / mb));
            // CPU time (user + system; this process's threads, the pipeline's processes) is less at the mercy of the
            // machine's load than wall time
            double cc = AuditBench.median(coldCpu), cw = AuditBench.median(warmCpu), cb = AuditBench.median(wcCpu);
            Printer.println(String.format(
                    "CPU ms (medians): (a) %.0f   (b) %.0f   (c) %.0f   ratio (a)/(c): %.3f   (b)/(c): %.3f",
                    cc, cw, cb, cc / cb, cw / cb));
            return 0;
        } finally {
            if (temp) FileTrees.delete(work);
        }
    }

    private static ToolResult audit(ToolRegistry registry, JsonNode args, ToolContext ctx) {
        ToolResult r = registry.invoke("session_audit", args, ctx);
        if (r.isError()) throw new IllegalStateException(r.text());
        return r;
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * Wall and CPU milliseconds (user + system of the pipeline's processes, from bash's {@code times}) of
     * {@code find <projects> -name '*.jsonl' | xargs wc -l}.
     */
    static double[] baselineWithCpu(Path projects) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(
                        "bash", "-c", "find '" + projects + "' -name '*.jsonl' | xargs wc -l > /dev/null; times")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        int code = p.waitFor();
        double ms = (System.nanoTime() - t0) / 1e6;
        if (code != 0) throw new IllegalStateException("the baseline exited with " + code + ": " + out);
        // times: the shell's user and system time, then its children's ("0m1.180s 0m1.050s")
        String[] lines = out.strip().split("\n");
        double cpu = 0;
        for (String t : lines[lines.length - 1].trim().split("\\s+")) {
            int m = t.indexOf('m');
            cpu += (Double.parseDouble(t.substring(0, m)) * 60 + Double.parseDouble(t.substring(m + 1, t.length() - 1)))
                    * 1000;
        }
        return new double[] {ms, cpu};
    }

    /** Milliseconds of {@code find <projects> -name '*.jsonl' | xargs wc -l} (output discarded). */
    static double baseline(Path projects) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(
                        "bash", "-c", "find '" + projects + "' -name '*.jsonl' | xargs wc -l > /dev/null")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        int code = p.waitFor();
        double ms = (System.nanoTime() - t0) / 1e6;
        if (code != 0) throw new IllegalStateException("the baseline exited with " + code);
        return ms;
    }
}
