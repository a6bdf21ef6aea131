package steward.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.memory.MemoryRequest;
import steward.memory.MemoryWriter;
import steward.server.Tools;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.IndexRepair;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.FtsIndex;
import steward.sessions.store.Sqlite;
import steward.state.FileTrees;
import steward.state.TempSweep;
import tools.jackson.databind.node.ObjectNode;

/**
 * SIGKILLs at random points of a real {@code steward serve} child (issue 12): {@code session_apply},
 * {@code session_restore}, {@code memory_write} (one add), {@code memory_write} (a batch) and {@code steward repair-index --force}. The kill lands at a random
 * time in [0, 1.2 x the call's own duration] after the request is sent (its duration measured in a child that is not
 * killed). After each kill: SQLite {@code integrity_check} and FTS5 {@code integrity-check}, every session present with
 * its side files or in a backup with them, memory files equal to the old or the new version, no temp files, and the
 * next call (in this process) works and settles what the killed one left.
 */
@Command(
        name = "crash",
        description =
                "SIGKILL a steward child at random points of apply, restore, memory_write and repair-index; check what is left.")
public final class CrashBench implements Callable<Integer> {
    @Option(names = "-n", defaultValue = "200", description = "kills per operation (default 200)")
    int n;

    @Option(
            names = "--ops",
            split = ",",
            defaultValue = "apply,restore,memory,batch,repair",
            description =
                    "operations (default apply,restore,memory,batch,repair; repair: steward repair-index --force)")
    List<String> ops;

    @Option(names = "--seed", defaultValue = "12", description = "random seed (default 12)")
    long seed;

    @Option(names = "--jar", description = "the steward jar of the child (default: the running one)")
    Path jar;

    @Option(names = "--dir", description = "where to put the temporary homes (default: the system temp dir)")
    Path dir;

    private static final Pattern TEMP = Pattern.compile("\\..+\\.tmp-\\d+-[0-9a-f]+");
    private Instant now;
    /** Temp files found right after a kill, before the next start's sweep (informational: the sweep must remove them). */
    private int tempsAfterKill;

    private Clock clock;

    @Override
    public Integer call() throws Exception {
        Path root = dir == null
                ? Files.createTempDirectory("steward-bench-crash-")
                : Files.createTempDirectory(dir, "steward-bench-crash-");
        Path base = prepareBase(root);
        Printer.println(
                "steward bench crash: " + n + " SIGKILLs per operation (" + String.join(", ", ops) + "), seed " + seed);
        int failures = 0;
        try {
            for (String op : ops) failures += run(op, base, root);
        } finally {
            FileTrees.delete(root);
        }
        return failures == 0 ? 0 : 1;
    }

    /** The fixture home with Hermes' side files for every session (a session JSON and a request dump each). */
    private Path prepareBase(Path root) throws Exception {
        Path home = Fixtures.copyHermesHome(root.resolve("base"));
        // the child runs on the real clock, so plans are made on it too (every fixture session is old by then)
        now = Instant.now();
        clock = Clock.systemUTC();
        Files.createDirectories(home.resolve("sessions"));
        for (String id : sessionIds(home.resolve("state.db"))) {
            Files.writeString(home.resolve("sessions/" + id + ".json"), "{\"session_id\":\"" + id + "\"}");
            Files.writeString(home.resolve("sessions/request_dump_" + id + "_1.json"), "{\"request\":\"" + id + "\"}");
        }
        return home;
    }

    private static List<String> sessionIds(Path db) throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id FROM sessions")) {
            while (rs.next()) ids.add(rs.getString(1));
        }
        return ids;
    }

    /** One prepared case: the home, the request to kill, and what the check needs. */
    private record Case(Path home, String tool, String args, String backupId, byte[] memBefore, byte[] memAfter) {}

    private Case prepare(String op, Path base, Path work, byte[][] memVersions) throws Exception {
        Path home = work.resolve("hermes-home");
        FileTrees.copy(base, home);
        StewardPaths paths = StewardPaths.of(home);
        switch (op) {
            case "apply" -> {
                Plan plan = new AuditEngine(paths, clock)
                        .audit(new AuditRequest(null, now, "interactive", "en", 50))
                        .plan();
                ObjectNode a = Json.MAPPER.createObjectNode();
                a.put("plan_id", plan.plan_id());
                ObjectNode items = a.putObject("decisions").putObject("items");
                for (Plan.PlanItem it : plan.items()) if (it.executable()) items.put(it.item_id(), "approve");
                return new Case(home, "session_apply", a.toString(), null, null, null);
            }
            case "restore" -> {
                Plan plan = new AuditEngine(paths, clock)
                        .audit(new AuditRequest(null, now, "interactive", "en", 50))
                        .plan();
                Map<String, String> approve = new HashMap<>();
                for (Plan.PlanItem it : plan.items()) if (it.executable()) approve.put(it.item_id(), "approve");
                ApplyResult r = new ApplyEngine(paths, clock)
                        .apply(new ApplyRequest(plan.plan_id(), approve, Map.of(), Map.of(), false, null));
                return new Case(
                        home,
                        "session_restore",
                        "{\"backup_id\":\"" + r.backup().backup_id() + "\"}",
                        r.backup().backup_id(),
                        null,
                        null);
            }
            case "repair" -> {
                return new Case(home, "repair-index", null, null, null, null);
            }
            case "memory", "batch" -> {
                String args = op.equals("memory")
                        ? "{\"action\":\"add\",\"content\":\"[env] crash bench fact\"}"
                        : "{\"operations\":[{\"action\":\"add\",\"content\":\"[env] crash bench batch one\"},"
                                + "{\"action\":\"add\",\"content\":\"[ops] crash bench batch two\"}]}";
                return new Case(home, "memory_write", args, null, memVersions[0], memVersions[1]);
            }
            default ->
                throw new IllegalArgumentException(
                        "unknown operation " + op + " (apply, restore, memory, batch, repair)");
        }
    }

    private int run(String op, Path base, Path root) throws Exception {
        Random rng = new Random(seed ^ op.hashCode());
        byte[][] mem = {null, null};
        if (op.equals("memory") || op.equals("batch")) {
            Path w = Files.createDirectories(root.resolve("calibrate-mem-" + op));
            Case c = prepare(op, base, w, mem);
            mem[0] = Files.readAllBytes(c.home().resolve("memories/MEMORY.md"));
            ToolResult r = Tools.registry()
                    .invoke(
                            "memory_write",
                            Json.MAPPER.readTree(c.args()),
                            new ToolContext(StewardPaths.of(c.home()), Clock.systemUTC(), steward.Work.NONE));
            if (r.isError()) throw new IllegalStateException("the " + op + " call itself fails: " + r.text());
            mem[1] = Files.readAllBytes(c.home().resolve("memories/MEMORY.md"));
            FileTrees.delete(w);
        }
        // the call's own duration in a child that is not killed
        Path cw = Files.createDirectories(root.resolve("calibrate-" + op));
        Case cal = prepare(op, base, cw, mem);
        double durMs;
        double fromMs = 0;
        if (op.equals("repair")) {
            // a command, not a call: from the JVM's start; kills land between the end of a check-only run (start-up and
            // the
            // check) and 1.2 x the end of the forced rebuild
            fromMs = Cli.timeMs(cal.home(), jar, false) * 0.8;
            durMs = Cli.timeMs(cal.home(), jar, true);
        } else
            try (Child child = Child.start(cal.home(), jar)) {
                long t0 = System.nanoTime();
                child.send(cal.tool(), cal.args());
                String answer = child.await();
                durMs = (System.nanoTime() - t0) / 1e6;
                if (answer.contains("\"isError\":true"))
                    throw new IllegalStateException(op + ": the call fails without a kill: " + answer);
            }
        FileTrees.delete(cw);
        int answered = 0;
        tempsAfterKill = 0;
        Map<String, Integer> bad = new LinkedHashMap<>();
        List<String> examples = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path w = Files.createDirectories(root.resolve(op + "-" + i));
            Case c = prepare(op, base, w, mem);
            Set<String> before = op.equals("apply") || op.equals("restore") || op.equals("repair")
                    ? new HashSet<>(sessionIds(base.resolve("state.db")))
                    : Set.of();
            if (op.equals("repair")) {
                Process p = Cli.start(c.home(), jar, true);
                long delayUs = (long) ((fromMs + rng.nextDouble() * (durMs * 1.2 - fromMs)) * 1000);
                TimeUnit.MICROSECONDS.sleep(delayUs);
                if (!p.isAlive()) answered++;
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            } else
                try (Child child = Child.start(c.home(), jar)) {
                    child.send(c.tool(), c.args());
                    long delayUs = (long) (rng.nextDouble() * durMs * 1.2 * 1000);
                    TimeUnit.MICROSECONDS.sleep(delayUs);
                    if (child.answeredYet()) answered++;
                    child.kill();
                }
            List<String> problems = check(op, c, before);
            for (String p : problems) {
                bad.merge(p.replaceAll("[0-9a-f]{8,}|\\d+", "#"), 1, Integer::sum);
                if (examples.size() < 5) examples.add("kill " + i + ": " + p);
            }
            FileTrees.delete(w);
            // a running tally, so that a run cut short still has its figures
            if ((i + 1) % 10 == 0 && i + 1 < n)
                Printer.println(String.format(
                        "    %s: %d kills so far, %d answered before the kill, problems %s", op, i + 1, answered, bad));
        }
        int failed = bad.values().stream().mapToInt(Integer::intValue).sum();
        Printer.println(String.format(
                "  %-8s %d kills (call %.0f ms unkilled; %d answered before the kill): %s",
                op,
                n,
                durMs,
                answered,
                bad.isEmpty()
                        ? "all checks ok (integrity_check, FTS5 integrity-check, sessions and side files, memory old-or-new, no temp files, next call works)"
                        : failed + " problems " + bad));
        Printer.println(
                "      temp files found right after the kills (before the next start's sweep): " + tempsAfterKill);
        for (String e : examples) Printer.println("      " + e);
        return failed;
    }

    private List<String> check(String op, Case c, Set<String> before) throws Exception {
        List<String> problems = new ArrayList<>();
        StewardPaths paths = StewardPaths.of(c.home());
        // the next Steward process first sweeps the temp files a killed one left (steward.state.TempSweep, at every
        // start; this process made its own start sweep long ago)
        tempsAfterKill += temps(c.home()).size();
        TempSweep.now(paths.stateDir(), paths.hermesHome());
        // the next call works, and settles what the killed one left
        try {
            switch (op) {
                case "apply" -> {
                    Plan plan = new AuditEngine(paths, clock)
                            .audit(new AuditRequest(null, now, "interactive", "en", 50))
                            .plan();
                    new ApplyEngine(paths, clock)
                            .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of(), Map.of(), false, null));
                }
                case "restore" -> new RestoreEngine(paths, clock).restore(c.backupId(), null);
                case "repair" -> {
                    // before the next call: what the kill left must already be consistent (the rebuild is one
                    // transaction)
                    FtsIndex.Report left = FtsIndex.check(paths.stateDb());
                    if (!left.ok()) problems.add("FTS5 integrity-check right after the kill: " + left.summary());
                    IndexRepair.Result r = new IndexRepair(paths, clock).run(false);
                    if (!r.after().ok())
                        problems.add("the next repair-index leaves the index inconsistent: " + r.message());
                    problems.addAll(partialBackups(paths));
                }
                default -> {
                    byte[] now = Files.readAllBytes(c.home().resolve("memories/MEMORY.md"));
                    if (!Arrays.equals(now, c.memBefore()) && !Arrays.equals(now, c.memAfter()))
                        problems.add("MEMORY.md is neither the old nor the new version");
                    var history = new steward.memory.history.VersionStore(paths.stateDir());
                    int versions = history.count("memories/MEMORY.md");
                    if (!new MemoryWriter(paths, Clock.systemUTC())
                            .write(MemoryRequest.add("memory", "[env] after the kill"))
                            .success()) {
                        problems.add("the next memory_write failed");
                    } else if (history.count("memories/MEMORY.md") <= versions) {
                        // the write went on but its version was lost (a git ref lock left by the kill: LOCK_FAILURE)
                        problems.add("the next memory_write recorded no version in the memory history");
                    }
                }
            }
        } catch (RuntimeException e) {
            problems.add("the next call failed: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        if (op.equals("apply") || op.equals("restore") || op.equals("repair")) {
            try (Connection conn = Sqlite.openReadOnly(paths.stateDb());
                    Statement st = conn.createStatement();
                    ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
                String v = rs.next() ? rs.getString(1) : "?";
                if (!v.equals("ok")) problems.add("integrity_check: " + v);
            }
            FtsIndex.Report fts = FtsIndex.check(paths.stateDb());
            if (!fts.ok()) problems.add("FTS5 integrity-check: " + fts.summary());
            Set<String> inDb = new HashSet<>(sessionIds(paths.stateDb()));
            Map<String, List<String>> inBackup = backedUp(paths);
            for (String id : before) {
                List<String> files = List.of(id + ".json", "request_dump_" + id + "_1.json");
                if (inDb.contains(id)) {
                    for (String f : files)
                        if (!Files.isRegularFile(c.home().resolve("sessions/" + f)))
                            problems.add("session in state.db without its side file " + f);
                } else if (inBackup.containsKey(id)) {
                    // the session may be in several backups (an interrupted apply's, whose files went back, and the
                    // next one's)
                    boolean any = false;
                    for (String bid : inBackup.get(id)) {
                        Path fd = paths.stateDir().resolve("backups/sessions/" + bid + ".files");
                        any |= files.stream().allMatch(f -> Files.isRegularFile(fd.resolve(f)));
                    }
                    if (!any) problems.add("deleted session whose backups lack its side files");
                } else {
                    problems.add("session " + id + " neither in state.db nor in a backup");
                }
            }
            if (op.equals("restore") && !inDb.containsAll(before))
                problems.add("a session of the backup is not back after the next restore");
        }
        for (Path p : temps(c.home()))
            problems.add("temp file left: " + c.home().relativize(p));
        return problems;
    }

    /** Copies of state.db in backups/state-db/ that do not read back (a kill during the copy left them looking like backups). */
    private static List<String> partialBackups(StewardPaths paths) throws IOException {
        List<String> out = new ArrayList<>();
        Path d = paths.stateDir().resolve("backups/state-db");
        if (!Files.isDirectory(d)) return out;
        try (Stream<Path> s = Files.list(d)) {
            for (Path f :
                    s.filter(p -> p.getFileName().toString().endsWith(".db")).toList()) {
                String v;
                try (Connection c = Sqlite.openReadOnly(f);
                        Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("PRAGMA quick_check")) {
                    v = rs.next() ? rs.getString(1) : "?";
                } catch (Exception e) {
                    v = e.getMessage();
                }
                if (!"ok".equals(v)) out.add("a state.db backup that does not read back: " + f.getFileName());
            }
        }
        return out;
    }

    /** Session id -> the backups that hold it. */
    private static Map<String, List<String>> backedUp(StewardPaths paths) throws IOException {
        Map<String, List<String>> out = new HashMap<>();
        Path d = paths.stateDir().resolve("backups/sessions");
        if (!Files.isDirectory(d)) return out;
        try (Stream<Path> s = Files.list(d)) {
            for (Path f : s.filter(p -> p.getFileName().toString().matches("[^.]+\\.jsonl"))
                    .toList()) {
                String bid = f.getFileName().toString().replace(".jsonl", "");
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.isBlank())
                        out.computeIfAbsent(
                                        Json.MAPPER.readTree(line).path("id").asString(), k -> new ArrayList<>())
                                .add(bid);
                }
            }
        }
        return out;
    }

    private static List<Path> temps(Path home) throws IOException {
        try (Stream<Path> s = Files.walk(home)) {
            return s.filter(p -> TEMP.matcher(p.getFileName().toString()).matches())
                    .toList();
        }
    }

    /** {@code steward repair-index} as a child process. */
    static final class Cli {
        static Process start(Path home, Path jar, boolean force) throws Exception {
            Path jarPath = jar != null ? jar : Fixtures.runningJar();
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> cmd = new ArrayList<>(List.of(java));
            cmd.addAll(LaunchFlags.jvmFlags(null));
            cmd.addAll(List.of("-jar", jarPath.toString(), "repair-index", "--hermes-home", home.toString()));
            if (force) cmd.add("--force");
            return new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        }

        /** Milliseconds from the start to the end of an unkilled run; the run must succeed. */
        static double timeMs(Path home, Path jar, boolean force) throws Exception {
            long t0 = System.nanoTime();
            Process p = start(home, jar, force);
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0)
                throw new IllegalStateException("repair-index fails without a kill");
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    /** A {@code steward serve} child on stdio, initialized. */
    static final class Child implements AutoCloseable {
        private final Process p;
        private final OutputStream in;
        private final BufferedReader out;

        private Child(Process p) {
            this.p = p;
            this.in = p.getOutputStream();
            this.out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        }

        static Child start(Path home, Path jar) throws Exception {
            Path jarPath = jar != null ? jar : Fixtures.runningJar();
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> cmd = new ArrayList<>(List.of(java));
            cmd.addAll(LaunchFlags.serve(null));
            cmd.addAll(List.of("-jar", jarPath.toString(), "serve", "--hermes-home", home.toString()));
            Child c = new Child(new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start());
            StdioLines.send(
                    c.in,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}");
            StdioLines.await(c.out, "\"id\":1");
            StdioLines.send(c.in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            return c;
        }

        void send(String tool, String args) throws IOException {
            StdioLines.send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                            + "\",\"arguments\":" + args + "}}");
        }

        String await() throws IOException {
            return StdioLines.await(out, "\"id\":2");
        }

        boolean answeredYet() throws IOException {
            return out.ready();
        }

        void kill() throws InterruptedException {
            p.destroyForcibly(); // SIGKILL
            p.waitFor(30, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            if (!p.isAlive()) return;
            try {
                kill();
            } catch (
                    InterruptedException
                            e) { // close() does not throw it (AutoCloseable's advice): the child is already killed
                Thread.currentThread().interrupt();
            }
        }
    }
}
