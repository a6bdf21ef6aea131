package steward.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.memory.MemoryDocument;
import steward.memory.MemoryRules;
import steward.memory.lifecycle.Consolidation;
import steward.memory.lifecycle.DailyLog;
import steward.state.AtomicFiles;
import steward.state.FileTrees;

/**
 * {@code memory_consolidate} on a memory root with 90 days of logs (thousands of lines) and 200 entries: gather, plan
 * and apply times (medians over fresh copies), sizes before and after; the baseline is reading every log and
 * writing MEMORY.md once atomically in the same run (the I/O a consolidation cannot avoid).
 */
@Command(
        name = "consolidate",
        description = "memory_consolidate gather / plan / apply times and sizes on 90 days of logs and 200 entries.")
public final class ConsolidateBench implements Callable<Integer> {
    @Option(names = "--days", defaultValue = "90", description = "days of logs (default 90)")
    int days;

    @Option(names = "--lines", defaultValue = "40", description = "log lines a day (default 40)")
    int lines;

    @Option(names = "--entries", defaultValue = "200", description = "entries in MEMORY.md (default 200)")
    int entries;

    @Option(names = "--runs", defaultValue = "5", description = "fresh copies measured (default 5)")
    int runs;

    static final String[] TOPICS = {
        "pnpm",
        "uv",
        "Postgres",
        "Redis",
        "Kafka",
        "Grafana",
        "VPN",
        "CI",
        "Docker",
        "k3s",
        "Vault",
        "Sentry",
        "Terraform",
        "nginx",
        "MinIO",
        "Figma",
        "Flutter",
        "Go",
        "Python",
        "Node"
    };

    @Override
    public Integer call() throws Exception {
        Path base = Files.createTempDirectory("steward-bench-consolidate-");
        try {
            Path template = base.resolve("template");
            LocalDate today = LocalDate.parse("2026-08-10");
            build(template, today);
            Clock clock = Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC);
            List<Double> gather = new ArrayList<>(),
                    plan = new ArrayList<>(),
                    apply = new ArrayList<>(),
                    floor = new ArrayList<>();
            Consolidation.PlanResult last = null;
            Consolidation.ApplyResult lastApply = null;
            long logBytesBefore = dirBytes(template.resolve("memories/logs"));
            int logFilesBefore =
                    DailyLog.files(template.resolve("memories/logs")).size();
            int memBefore = MemoryRules.chars(
                    MemoryDocument.read(template.resolve("memories/MEMORY.md")).entries());
            for (int r = 0; r < runs; r++) {
                Path home = base.resolve("run" + r);
                FileTrees.copy(template, home);
                StewardPaths paths = StewardPaths.of(home);
                long t0 = System.nanoTime();
                for (Path f :
                        DailyLog.files(paths.memoriesDir().resolve("logs")).values()) Files.readAllBytes(f);
                byte[] m = Files.readAllBytes(paths.memoriesDir().resolve("MEMORY.md"));
                AtomicFiles.write(paths.memoriesDir().resolve("MEMORY.md"), m);
                floor.add(ms(t0));
                Consolidation c = Consolidation.hermes(paths, clock, ZoneOffset.UTC);
                t0 = System.nanoTime();
                Consolidation.GatherResult g = c.gather(null, 500);
                gather.add(ms(t0));
                List<Consolidation.Proposal> proposals = new ArrayList<>();
                int i = 0;
                for (var d : g.days()) {
                    for (var l : d.lines()) {
                        if (i++ % 5 != 0) continue;
                        proposals.add(new Consolidation.Proposal(l.text(), "fact", List.of(l.ref()), null, null, null));
                    }
                }
                t0 = System.nanoTime();
                last = c.plan(null, g.through(), proposals, "en");
                plan.add(ms(t0));
                List<String> confirm = last.prune().stream()
                        .limit(10)
                        .map(Consolidation.PruneItem::id)
                        .toList();
                t0 = System.nanoTime();
                lastApply = c.apply(last.plan_id(), confirm, "bench");
                apply.add(ms(t0));
            }
            Path lastHome = base.resolve("run" + (runs - 1));
            Printer.println(String.format(
                    Locale.ROOT,
                    "memory root: %d days of logs (%d lines, %d files, %s), MEMORY.md %d entries (%s chars), cap raised to 20,000",
                    days,
                    days * lines,
                    logFilesBefore,
                    kb(logBytesBefore),
                    entries,
                    MemoryRules.n(memBefore)));
            Printer.println(String.format(
                    Locale.ROOT,
                    "baseline (read every log + one atomic MEMORY.md write): median %.1f ms",
                    median(floor)));
            Printer.println(String.format(Locale.ROOT, "gather (500 excerpts shown): median %.1f ms", median(gather)));
            Printer.println(String.format(
                    Locale.ROOT,
                    "plan (%d proposals): median %.1f ms; changes %d, prune proposals %d, files %d",
                    last.changes().size() == 0 ? 0 : countProposals(last),
                    median(plan),
                    last.changes().size(),
                    last.prune().size(),
                    last.files().size()));
            Printer.println(String.format(
                    Locale.ROOT, "apply (10 prunes confirmed): median %.1f ms over %d runs", median(apply), runs));
            int memAfter = MemoryRules.chars(
                    MemoryDocument.read(lastHome.resolve("memories/MEMORY.md")).entries());
            Printer.println(String.format(
                    Locale.ROOT,
                    "MEMORY.md %s → %s chars (%d → %d entries); logs %d files %s → %d files %s; archive %s; added %d, promoted %d, "
                            + "archived %d logs",
                    MemoryRules.n(memBefore),
                    MemoryRules.n(memAfter),
                    entries,
                    MemoryDocument.read(lastHome.resolve("memories/MEMORY.md"))
                            .entries()
                            .size(),
                    logFilesBefore,
                    kb(logBytesBefore),
                    DailyLog.files(lastHome.resolve("memories/logs")).size(),
                    kb(dirBytes(lastHome.resolve("memories/logs"))),
                    kb(dirBytes(lastHome.resolve("memories/archive"))),
                    lastApply.counts().getOrDefault("add", 0),
                    lastApply.counts().getOrDefault("promote", 0),
                    lastApply.counts().getOrDefault("archived", 0)));
            return 0;
        } finally {
            FileTrees.delete(base);
        }
    }

    private int countProposals(Consolidation.PlanResult p) {
        return (int) p.changes().stream()
                .filter(c -> c.action().equals("add") || c.action().equals("mention"))
                .count();
    }

    void build(Path home, LocalDate today) throws Exception {
        Path mem = home.resolve("memories");
        Files.createDirectories(mem.resolve("logs"));
        Files.writeString(home.resolve("config.yaml"), "memory:\n  memory_char_limit: 20000\n");
        Random rnd = new Random(17);
        List<String> es = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            String t = TOPICS[i % TOPICS.length];
            es.add((i % 3 == 0 ? "" : "[0." + (3 + 2 * (i % 4)) + "] ") + "[env] " + t + " fact " + i + ": host h"
                    + rnd.nextInt(100) + " port " + (1000 + rnd.nextInt(9000)));
        }
        Files.writeString(mem.resolve("MEMORY.md"), String.join(MemoryDocument.DELIMITER, es));
        for (int d = days - 1; d >= 0; d--) {
            LocalDate day = today.minusDays(d);
            StringBuilder sb = new StringBuilder(DailyLog.header(day));
            for (int l = 0; l < lines; l++) {
                String t = TOPICS[rnd.nextInt(TOPICS.length)];
                sb.append(String.format(Locale.ROOT, "- %02d:%02d ", 8 + l * 14 / lines, (l * 7) % 60))
                        .append("Noted that ")
                        .append(t)
                        .append(" setting ")
                        .append(rnd.nextInt(50))
                        .append(" matters for service s")
                        .append(rnd.nextInt(30))
                        .append('\n');
            }
            Files.writeString(mem.resolve("logs").resolve(day + ".md"), sb.toString(), StandardCharsets.UTF_8);
        }
        for (int i = 1; i <= 6; i++) Files.writeString(mem.resolve("MEMORY.md.bak." + (1754000000 + i)), "old " + i);
    }

    static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    static double median(List<Double> l) {
        List<Double> s = new ArrayList<>(l);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    static long dirBytes(Path d) throws Exception {
        if (!Files.isDirectory(d)) return 0;
        try (Stream<Path> s = Files.walk(d)) {
            return s.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
    }

    static String kb(long b) {
        return String.format(Locale.ROOT, "%.1f KB", b / 1024.0);
    }
}
