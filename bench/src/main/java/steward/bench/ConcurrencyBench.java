package steward.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.StewardError;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.learning.PreferenceStore;
import steward.memory.MemoryDocument;
import steward.memory.MemoryRequest;
import steward.memory.MemoryWriter;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.FtsIndex;
import steward.sessions.store.Sqlite;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;

/**
 * Steward against a live Hermes (issue 12): the real Hermes writer ({@code hermes_writer.py}, Hermes' own SessionDB and
 * its Python's SQLite) appends messages to every session while Steward audits, applies (approving what it may run) and
 * restores parts of its backups in a loop. Counted per run: Steward's steps, errors Steward surfaced ("database is
 * locked" separately), messages Hermes wrote that are neither in state.db nor in a backup (lost), and the index
 * checks at the end (SQLite integrity_check, FTS5 integrity-check by Steward's SQLite and by Hermes'). Then memory:
 * 4 Steward writers (threads, Steward's flock) and 4 Hermes memory-tool processes add distinct entries to one
 * MEMORY.md; every entry must be there exactly once.
 */
@Command(
        name = "concurrency",
        description =
                "Steward's audit/apply/restore loop against the real Hermes writer; 4+4 concurrent memory writers.")
public final class ConcurrencyBench implements Callable<Integer> {
    @Option(names = "--runs", defaultValue = "10", description = "runs of the session loop (default 10)")
    int runs;

    @Option(
            names = "--seconds",
            defaultValue = "60",
            description = "seconds per run, the Hermes writer's lifetime (default 60)")
    double seconds;

    @Option(
            names = "--memory-entries",
            defaultValue = "1000",
            description = "memory entries across the 8 writers (default 1000; 0 skips)")
    int memoryEntries;

    @Option(
            names = "--hermes-tools",
            description = "the directory of hermes_writer.py (default: shared/tools above the working dir)")
    Path hermesTools;

    @Option(names = "--dir", description = "where to put the temporary homes (default: the system temp dir)")
    Path dir;

    @Override
    public Integer call() throws Exception {
        LiveHermes hermes = LiveHermes.locate(hermesTools);
        if (hermes.problem() != null) {
            Printer.println("steward bench concurrency: skipped: " + hermes.problem());
            return 0;
        }
        Printer.println("steward bench concurrency: " + runs + " runs x " + seconds + " s, the real Hermes writer ("
                + hermes.tools() + ") appending");
        long steps = 0, locked = 0, otherErrors = 0, lost = 0, written = 0, hermesErrors = 0, badIndex = 0, badDb = 0;
        for (int run = 0; run < runs; run++) {
            Run r = sessionRun(hermes, run);
            Printer.println(String.format(
                    "  run %2d: %4d steps (%d applies, %d restores), %5d Hermes messages (%d Hermes errors), "
                            + "lost %d, surfaced 'locked' %d, other errors %d, integrity_check %s, FTS5 Steward %s / Hermes %s",
                    run + 1,
                    r.steps,
                    r.applies,
                    r.restores,
                    r.written,
                    r.hermesErrors,
                    r.lost,
                    r.locked,
                    r.other.size(),
                    r.integrity,
                    r.ftsSteward,
                    r.ftsHermes));
            for (String o : r.other.subList(0, Math.min(3, r.other.size()))) Printer.println("      error: " + o);
            if (!r.hermesErrorKinds.isEmpty()) Printer.println("      Hermes errors: " + r.hermesErrorKinds);
            steps += r.steps;
            locked += r.locked;
            otherErrors += r.other.size();
            lost += r.lost;
            written += r.written;
            hermesErrors += r.hermesErrors;
            if (!r.ftsSteward.equals("ok") || !r.ftsHermes.equals("ok")) badIndex++;
            if (!r.integrity.equals("ok")) badDb++;
        }
        Printer.println(String.format(
                "sessions: %d runs, %d Steward steps, %d Hermes messages: lost %d, 'database is locked' surfaced %d, "
                        + "other Steward errors %d, Hermes errors %d, runs with an inconsistent index %d, runs failing integrity_check %d",
                runs, steps, written, lost, locked, otherErrors, hermesErrors, badIndex, badDb));
        boolean memOk = true;
        if (memoryEntries > 0) memOk = memoryRun(hermes);
        return lost == 0 && locked == 0 && badIndex == 0 && badDb == 0 && memOk ? 0 : 1;
    }

    static final class Run {
        int steps, applies, restores, locked, written, hermesErrors, lost;
        List<String> other = new ArrayList<>();
        Map<String, Integer> hermesErrorKinds = new TreeMap<>();
        String integrity = "?", ftsSteward = "?", ftsHermes = "?";
    }

    private Path tmp(String prefix) throws IOException {
        return dir == null ? Files.createTempDirectory(prefix) : Files.createTempDirectory(dir, prefix);
    }

    private Run sessionRun(LiveHermes hermes, int run) throws Exception {
        Path root = tmp("steward-bench-concurrency-");
        Path home = Fixtures.copyHermesHome(root);
        StewardPaths paths = StewardPaths.of(home);
        JsonNode manifest = Json.MAPPER.readTree(Files.readString(home.resolve("manifest.json")));
        Instant now = Instant.ofEpochMilli((long) (manifest.path("now").asDouble() * 1000));
        Clock clock = Clock.fixed(now, ZoneOffset.UTC);
        List<String> ids = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id FROM sessions")) {
            while (rs.next()) ids.add(rs.getString(1));
        }
        Path out = root.resolve("hermes-written.json");
        List<String> args = new ArrayList<>(List.of(
                hermes.tools().resolve("hermes_writer.py").toString(),
                paths.stateDb().toString(),
                String.valueOf(seconds),
                out.toString()));
        args.addAll(ids);
        Process writer = hermes.python(args)
                .redirectErrorStream(true)
                .redirectOutput(root.resolve("hermes-writer.log").toFile())
                .start();
        Run r = new Run();
        Random rng = new Random(run);
        Deque<Object[]> backups = new ArrayDeque<>();
        while (writer.isAlive()) {
            try {
                if (!backups.isEmpty() && rng.nextInt(3) > 0) {
                    Object[] b = backups.pop();
                    @SuppressWarnings("unchecked")
                    List<String> all = new ArrayList<>((List<String>) b[1]);
                    Collections.shuffle(all, rng);
                    new RestoreEngine(paths, clock).restore((String) b[0], all.subList(0, 1 + rng.nextInt(all.size())));
                    r.restores++;
                    // forget what the restore taught (restored sessions are kept from then on), so the same sessions
                    // are
                    // deleted, restored and deleted again while Hermes writes to them: the pattern of defect 1
                    Files.deleteIfExists(paths.stateDir().resolve(PreferenceStore.FILE));
                } else {
                    Plan plan = new AuditEngine(paths, clock)
                            .audit(new AuditRequest(null, now, "interactive", "en", 50))
                            .plan();
                    Map<String, String> approve = new HashMap<>();
                    for (Plan.PlanItem it : plan.items()) if (it.executable()) approve.put(it.item_id(), "approve");
                    ApplyResult a = new ApplyEngine(paths, clock)
                            .apply(new ApplyRequest(plan.plan_id(), approve, Map.of(), Map.of(), false, null));
                    List<String> deleted = a.executed().stream()
                            .filter(d -> d.action().equals("delete"))
                            .map(ApplyResult.Done::session_id)
                            .toList();
                    if (a.backup() != null && !deleted.isEmpty())
                        backups.push(new Object[] {a.backup().backup_id(), deleted});
                    r.applies++;
                }
            } catch (StewardError e) {
                if (e.getMessage().contains("locked") || e.getMessage().contains("busy")) r.locked++;
                else r.other.add(e.getMessage().lines().findFirst().orElse(""));
            }
            r.steps++;
        }
        writer.waitFor(60, TimeUnit.SECONDS);
        JsonNode w = Json.MAPPER.readTree(Files.readString(out));
        Set<String> contents = new HashSet<>();
        for (JsonNode e : w.path("written")) r.written++;
        r.hermesErrors = w.path("errors").size();
        for (JsonNode e : w.path("errors"))
            r.hermesErrorKinds.merge(e.path(1).asString("").replaceAll("'[^']*'|\\d+", "_"), 1, Integer::sum);
        try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                Statement st = c.createStatement()) {
            try (ResultSet rs =
                    st.executeQuery("SELECT content FROM messages WHERE content LIKE 'concurrent write %'")) {
                while (rs.next()) contents.add(rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
                r.integrity = rs.next() ? rs.getString(1) : "?";
            }
        }
        Path backupsDir = paths.stateDir().resolve("backups/sessions");
        if (Files.isDirectory(backupsDir)) {
            try (Stream<Path> s = Files.list(backupsDir)) {
                for (Path f : s.filter(p -> p.getFileName().toString().endsWith(".jsonl"))
                        .toList()) {
                    for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                        if (line.isBlank()) continue;
                        for (JsonNode m : Json.MAPPER.readTree(line).path("messages"))
                            contents.add(m.path("content").asString(""));
                    }
                }
            }
        }
        for (int i = 0; i < r.written; i++) if (!contents.contains("concurrent write " + i)) r.lost++;
        FtsIndex.Report fts = FtsIndex.check(paths.stateDb());
        r.ftsSteward = fts.ok() ? "ok" : fts.summary();
        r.ftsHermes = hermes.ftsCheck(paths.stateDb());
        FileTrees.delete(root);
        return r;
    }

    private boolean memoryRun(LiveHermes hermes) throws Exception {
        Path root = tmp("steward-bench-concurrency-memory-");
        Path home = root.resolve("hermes-home");
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(
                home.resolve("config.yaml"), "memory:\n  memory_char_limit: 10000000\n  user_char_limit: 10000000\n");
        StewardPaths paths = StewardPaths.of(home);
        int per = Math.max(1, memoryEntries / 8);
        List<Process> procs = new ArrayList<>();
        for (int h = 0; h < 4; h++) {
            ProcessBuilder pb = hermes.python(List.of(
                            hermes.tools().resolve("hermes_memory_writer.py").toString(),
                            String.valueOf(per),
                            "hermes" + h))
                    .redirectErrorStream(true)
                    .redirectOutput(root.resolve("hermes-memory-" + h + ".log").toFile());
            pb.environment().put("HERMES_HOME", home.toString());
            procs.add(pb.start());
        }
        AtomicInteger stewardFailed = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int s = 0; s < 4; s++) {
            int w = s;
            Thread t = new Thread(() -> {
                MemoryWriter writer = new MemoryWriter(paths, Clock.systemUTC());
                for (int i = 0; i < per; i++) {
                    try {
                        if (!writer.write(MemoryRequest.add("memory", "steward" + w + "-" + i))
                                .success()) stewardFailed.incrementAndGet();
                    } catch (RuntimeException e) {
                        stewardFailed.incrementAndGet();
                    }
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) t.join();
        for (Process p : procs) p.waitFor(600, TimeUnit.SECONDS);
        double secs = (System.nanoTime() - t0) / 1e9;
        List<String> entries =
                MemoryDocument.read(home.resolve("memories/MEMORY.md")).entries();
        Map<String, Integer> seen = new HashMap<>();
        for (String e : entries) seen.merge(e, 1, Integer::sum);
        int missing = 0, duplicated = 0;
        for (String prefix :
                List.of("steward0", "steward1", "steward2", "steward3", "hermes0", "hermes1", "hermes2", "hermes3")) {
            for (int i = 0; i < per; i++) {
                int n = seen.getOrDefault(prefix + "-" + i, 0);
                if (n == 0) missing++;
                if (n > 1) duplicated++;
            }
        }
        int hermesFailed = 0;
        for (int h = 0; h < 4; h++) {
            String log = Files.readString(root.resolve("hermes-memory-" + h + ".log"));
            Matcher m = Pattern.compile("(\\d+) failed").matcher(log);
            if (m.find()) hermesFailed += Integer.parseInt(m.group(1));
            else hermesFailed += per;
        }
        Printer.println(String.format(
                "memory: 4 Steward + 4 Hermes writers, %d entries expected, %d in MEMORY.md: missing %d, duplicated %d, "
                        + "failed writes Steward %d / Hermes %d (%.1f s)",
                8 * per, entries.size(), missing, duplicated, stewardFailed.get(), hermesFailed, secs));
        FileTrees.delete(root);
        return missing == 0 && duplicated == 0 && entries.size() == 8 * per;
    }
}
