package steward.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.recall.RecallEngine;
import steward.recall.SyncReport;

/**
 * {@code steward bench recall-claude}: recall over a generated Claude Code home ({@link ClaudeHomeBuilder}; 2,000 projects /
 * 20,000 sessions by default, modification times over the last 30 days, 3 % within the last day). Times the first
 * (lexical) build, then the incremental sync with nothing changed (target ≤ 50 ms) against the baseline of one
 * {@code stat} per transcript (what a plain size+mtime check of every file costs), a sync after an append to a recent
 * transcript, and how many syncs it takes to see an append to an old one (old files are checked in rotation); then the
 * same with the home's directories watched, as while the long-lived server's background indexer runs.
 */
@Command(
        name = "recall-claude",
        description =
                "Recall over a Claude Code home: first build, sync with nothing changed vs one stat per transcript, appends.")
public final class RecallClaudeBench implements Callable<Integer> {
    @Option(names = "--projects", defaultValue = "2000", description = "projects (default 2000)")
    int projects;

    @Option(names = "--sessions", defaultValue = "20000", description = "sessions in all (default 20000)")
    int sessions;

    @Option(names = "--bytes", defaultValue = "200000000", description = "bytes of transcripts in all (default 200 MB)")
    long bytes;

    @Option(names = "--runs", defaultValue = "50", description = "timed syncs with nothing changed (default 50)")
    int runs;

    @Option(
            names = "--dir",
            defaultValue = "/tmp/steward-recall-claude",
            description = "where the home is generated (reused when present)")
    Path dir;

    @Override
    public Integer call() throws Exception {
        Path home = dir.resolve("claude-home");
        Path marker = dir.resolve(".built-" + projects + "-" + sessions + "-" + bytes);
        if (!Files.exists(marker)) {
            RecallScaleBench.deleteTree(dir);
            Files.createDirectories(dir);
            long t0 = System.nanoTime();
            ClaudeHomeBuilder.Stats s =
                    ClaudeHomeBuilder.build(home, projects, Math.max(1, sessions / projects), bytes, 42, Instant.now());
            Files.writeString(marker, "built");
            Printer.println(String.format(
                    "built %s: %,d projects, %,d sessions, %,d subagent transcripts, %,d bytes, in %.1f s",
                    home, s.projects(), s.sessions(), s.subagentFiles(), s.bytes(), (System.nanoTime() - t0) / 1e9));
        } else {
            Printer.println("reusing " + home + " (modification times as generated)");
        }
        List<Path> transcripts = transcripts(home.resolve("projects"));
        Printer.println(String.format(
                "steward bench recall-claude: %,d projects, %,d main transcripts", projects, transcripts.size()));
        Path state = dir.resolve("steward-state");
        RecallScaleBench.deleteTree(state);
        StewardPaths paths = StewardPaths.of(dir.resolve("no-hermes"), home).withStateDir(state);
        try (RecallEngine e = new RecallEngine(paths, Clock.systemUTC(), RecallEngine.Options.LEXICAL)) {
            long c0 = cpu(), t0 = System.nanoTime();
            SyncReport first = e.sync();
            Map<String, Integer> counts = e.counts();
            Printer.println(String.format(
                    "first build: %.1f s wall, %.1f s CPU; %,d items written (claude_session %,d, claude_memory %,d)",
                    (System.nanoTime() - t0) / 1e9,
                    (cpu() - c0) / 1e9,
                    first.written(),
                    counts.get("claude_session"),
                    counts.get("claude_memory")));
            for (int i = 0; i < 5; i++) e.sync(); // warm-up
            List<Double> sync = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                long s0 = System.nanoTime();
                SyncReport r = e.sync();
                sync.add((System.nanoTime() - s0) / 1e6);
                if (r.written() > 0)
                    Printer.println("  (a sync wrote " + r.written() + " items: the home moved during the run)");
            }
            List<Double> base = new ArrayList<>();
            for (int i = 0; i < Math.max(5, runs / 5); i++) {
                long s0 = System.nanoTime();
                long sum = 0;
                for (Path f : transcripts) {
                    BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                    sum += a.size() + a.lastModifiedTime().toMillis();
                }
                base.add((System.nanoTime() - s0) / 1e6);
                if (sum == 42) Printer.println("");
            }
            Printer.println(String.format(
                    "sync, nothing changed (%d runs): p50 %.1f ms, p90 %.1f ms, max %.1f ms (target <= 50 ms)",
                    runs, pct(sync, 50), pct(sync, 90), Collections.max(sync)));
            Printer.println(String.format(
                    "baseline, one stat per transcript (%,d files): p50 %.1f ms, p90 %.1f ms",
                    transcripts.size(), pct(base, 50), pct(base, 90)));
            long now = System.currentTimeMillis();
            Path hot = null, cold = null;
            for (Path f : transcripts) {
                long age = now - Files.getLastModifiedTime(f).toMillis();
                if (hot == null && age < 3600_000L * 12) hot = f;
                if (cold == null && age > 3600_000L * 24 * 7) cold = f;
            }
            if (hot != null) {
                append(hot, "hot");
                long s0 = System.nanoTime();
                SyncReport r = e.sync();
                Printer.println(String.format(
                        "append 2 turns to a transcript modified today (%,d bytes): sync %.1f ms, %d items written",
                        Files.size(hot), (System.nanoTime() - s0) / 1e6, r.written()));
            }
            if (cold != null) {
                append(cold, "cold");
                int n = 0;
                double ms = 0;
                while (n < 200) {
                    n++;
                    long s0 = System.nanoTime();
                    SyncReport r = e.sync();
                    ms += (System.nanoTime() - s0) / 1e6;
                    if (r.written() > 0) break;
                }
                Printer.println(String.format(
                        "append 2 turns to a transcript last modified over a week ago: seen at sync %d (%.1f ms per sync on "
                                + "average; the background indexer polls every 2 s)",
                        n, ms / n));
            }
            // as while the long-lived server's background indexer runs: the directories watched
            if (!e.watchSources(true)) {
                Printer.println("no watch service on this platform: the syncs above are what the server does");
                return 0;
            }
            long w0 = System.nanoTime();
            e.sync(); // lists again, registering every directory
            Printer.println(String.format(
                    "directories watched: the listing that registers them took %.1f ms",
                    (System.nanoTime() - w0) / 1e6));
            for (int i = 0; i < 5; i++) e.sync();
            List<Double> watched = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                long s0 = System.nanoTime();
                SyncReport r = e.sync();
                watched.add((System.nanoTime() - s0) / 1e6);
                if (r.written() > 0)
                    Printer.println("  (a sync wrote " + r.written() + " items: the home moved during the run)");
            }
            Printer.println(String.format(
                    "sync, nothing changed, directories watched (%d runs): p50 %.2f ms, p90 %.2f ms, max %.1f ms "
                            + "(target <= 50 ms)",
                    runs, pct(watched, 50), pct(watched, 90), Collections.max(watched)));
            for (Path f : new Path[] {hot, cold}) {
                if (f == null) continue;
                append(f, "watched");
                long s0 = System.nanoTime();
                int n = 0;
                SyncReport r;
                do {
                    n++;
                    r = e.sync();
                } while (r.written() == 0 && n < 10_000);
                Printer.println(String.format(
                        "watched: append 2 turns to a transcript modified %s: indexed %.1f ms after the write (sync %d)",
                        f == hot ? "today" : "over a week ago", (System.nanoTime() - s0) / 1e6, n));
            }
        }
        return 0;
    }

    private static void append(Path f, String tag) throws IOException {
        String sid = f.getFileName().toString().replace(".jsonl", "");
        String ts = Instant.now().toString();
        String s = "{\"type\":\"user\",\"isSidechain\":false,\"sessionId\":\"" + sid + "\",\"uuid\":\"bench-" + tag
                + "-u-" + System.nanoTime()
                + "\",\"timestamp\":\"" + ts + "\",\"message\":{\"role\":\"user\",\"content\":\"where does the " + tag
                + " quokka cache live?\"}}\n"
                + "{\"type\":\"assistant\",\"isSidechain\":false,\"sessionId\":\"" + sid + "\",\"uuid\":\"bench-" + tag
                + "-a-" + System.nanoTime()
                + "\",\"timestamp\":\"" + ts
                + "\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"In the " + tag
                + " quokka bucket.\"}]}}\n";
        Files.writeString(f, s, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    private static List<Path> transcripts(Path projects) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(projects)) {
            for (Path d : ds) {
                try (DirectoryStream<Path> fs = Files.newDirectoryStream(d, "*.jsonl")) {
                    for (Path f : fs) if (!f.getFileName().toString().startsWith("agent-")) out.add(f);
                }
            }
        }
        Collections.sort(out);
        return out;
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double pct(List<Double> xs, int p) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(p / 100.0 * s.size()) - 1));
    }
}
