package steward.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
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
import steward.server.tools.ToolResult;
import steward.sessions.store.AuditListings;
import steward.sessions.store.Sqlite;
import steward.state.FileTrees;

/**
 * Builds a large Hermes state.db (schema, indexes and triggers copied from the fixture's
 * {@code sqlite_master}) and times, on the same database and in the same run, (a) {@code session_audit}
 * end to end through the tool registry and (b) the listing query the seed runs by hand.
 */
@Command(
        name = "audit",
        description =
                "session_audit end to end vs the seed's listing query on a 20,000-session / 2,000,000-message state.db; "
                        + "--profile real-world: a 55,000-session / 760,000-message cron-heavy home, then report size, apply of every HIGH item, "
                        + "backup, VACUUM and restore; --store claude: vs find | xargs wc -l on a 2,000-project / 20,000-session / 2 GiB Claude Code home.")
public final class AuditBench implements Callable<Integer> {
    @Option(names = "--sessions", description = "sessions to generate (default 20000; real-world 55000)")
    Integer sessionsOption;

    @Option(
            names = "--messages",
            description = "messages to generate (default 2000000; real-world 760000 per 55000 sessions)")
    Integer messagesOption;

    @Option(
            names = "--profile",
            defaultValue = "scale",
            description =
                    "scale (default: the 20,000-session home) or real-world "
                            + "(cron, gateway threads, subagents, a few hundred interactive sessions, empty sessions, compaction chains, side files)")
    String profile;

    @Option(names = "-n", description = "timed runs per variant (default 11; real-world 5)")
    Integer nOption;

    int sessions;
    int messages;
    int n;

    @Option(
            names = "--dir",
            description = "work directory; a database already built there with the same size is reused")
    Path dir;

    @Option(
            names = "--no-fts",
            description = "leave the FTS tables empty (faster build; neither timed query reads them)")
    boolean noFts;

    @Option(names = "--store", defaultValue = "hermes", description = "hermes (default) or claude")
    String store;

    @Option(names = "--projects", defaultValue = "2000", description = "claude: projects to generate (default 2000)")
    int projects;

    @Option(
            names = "--bytes",
            defaultValue = "2147483648",
            description = "claude: bytes of transcripts to generate (default 2 GiB)")
    long bytes;

    static final String SEED_QUERY = """
            SELECT s.id, COALESCE(s.title,'(无标题)'), s.message_count,
              CASE WHEN s.ended_at IS NULL THEN 'active' ELSE 'ended' END, COALESCE(s.end_reason,''), s.source,
              s.archived, strftime('%Y-%m-%d', datetime(s.started_at,'unixepoch')),
              COALESCE((SELECT strftime('%Y-%m-%d %H:%M', datetime(m.timestamp,'unixepoch')) FROM messages m
                        WHERE m.session_id = s.id ORDER BY m.id DESC LIMIT 1), 'unknown')
            FROM sessions s ORDER BY CASE WHEN s.ended_at IS NULL THEN 0 ELSE 1 END, s.started_at DESC""";

    static final double NOW = 1786363200.0; // 2026-08-10T12:00:00Z

    @Override
    public Integer call() throws Exception {
        boolean real = profile.equals("real-world");
        if (!real && !profile.equals("scale"))
            throw new IllegalArgumentException("--profile must be scale or real-world, not " + profile);
        sessions = sessionsOption != null ? sessionsOption : real ? 55_000 : 20_000;
        messages = messagesOption != null
                ? messagesOption
                : real ? (int) Math.round(sessions * (760_000 / 55_000.0)) : 2_000_000;
        n = nOption != null ? nOption : real ? 5 : 11;
        if (store.equals("claude"))
            return ClaudeAuditBench.run(dir, projects, sessionsOption != null ? sessions : 20_000, bytes, n);
        if (!store.equals("hermes"))
            throw new IllegalArgumentException("--store must be hermes or claude, not " + store);
        boolean temp = dir == null;
        Path work = temp ? Files.createTempDirectory("steward-bench-audit-") : dir;
        Path home = work.resolve("hermes-home");
        Path db = home.resolve("state.db");
        Path marker = home.resolve(
                ".bench-" + (real ? "real-world-" : "") + sessions + "-" + messages + (noFts ? "-nofts" : ""));
        if (!Files.exists(marker)) {
            if (Files.isDirectory(home)) FileTrees.delete(home);
            Files.createDirectories(home);
            long t0 = System.nanoTime();
            String fts = build(db, real, sessions, messages, noFts);
            Files.writeString(marker, "built");
            Printer.println(String.format(
                    "built %s: %,d sessions, %,d messages in %.1f s (%s)",
                    db, sessions, messages, (System.nanoTime() - t0) / 1e9, fts));
        } else {
            Printer.println("reusing " + db);
        }
        ToolRegistry registry = Tools.registry();
        ToolContext ctx = new ToolContext(StewardPaths.of(home), Clock.systemUTC(), Work.NONE);
        var args = Json.MAPPER.readTree("{\"now\":\"2026-08-10T12:00:00Z\",\"max_items_per_group\":20}");
        // warm-up: three audits (JIT) and one seed query (page cache)
        ToolResult first = registry.invoke("session_audit", args, ctx);
        if (first.isError()) throw new IllegalStateException(first.text());
        registry.invoke("session_audit", args, ctx);
        registry.invoke("session_audit", args, ctx);
        int rows = seed(db);
        // (a) nothing changed since the last audit: the server's kept listing is used as it is; (c) Hermes wrote one
        // message between two audits: the listing is brought up to date (one scan of sessions, one session re-read);
        // (d) the listing made whole, as by a fresh process (a one-shot CLI call, a server's first audit)
        String current = ToolRegistry.toJson(first.structured())
                .path("current")
                .path("session_id")
                .asString(null);
        List<Long> written = new ArrayList<>();
        List<Double> a = new ArrayList<>(), b = new ArrayList<>(), c = new ArrayList<>(), d = new ArrayList<>();
        String how = null;
        try {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                ToolResult r = registry.invoke("session_audit", args, ctx);
                a.add((System.nanoTime() - t0) / 1e6);
                if (r.isError()) throw new IllegalStateException(r.text());
                if (current != null) {
                    written.add(hermesWrites(db, current, i));
                    t0 = System.nanoTime();
                    r = registry.invoke("session_audit", args, ctx);
                    c.add((System.nanoTime() - t0) / 1e6);
                    if (r.isError()) throw new IllegalStateException(r.text());
                    how = AuditListings.lastHow(db);
                }
                AuditListings.forget(db);
                t0 = System.nanoTime();
                r = registry.invoke("session_audit", args, ctx);
                d.add((System.nanoTime() - t0) / 1e6);
                if (r.isError()) throw new IllegalStateException(r.text());
                t0 = System.nanoTime();
                seed(db);
                b.add((System.nanoTime() - t0) / 1e6);
            }
        } finally {
            unwrite(db, written); // the database is reused by later runs: left as it was built
        }
        var totals = ToolRegistry.toJson(first.structured()).get("totals");
        Printer.println(String.format(
                "database: %,d sessions (%d active), %,d messages; seed listing returned %,d rows",
                totals.get("all").asInt(), totals.get("active").asInt(), messages, rows));
        double mb = median(b);
        Printer.println(String.format(
                "%-58s %10s %10s %10s %8s",
                "variant (" + n + " runs after warm-up)", "median ms", "min ms", "max ms", "÷ (b)"));
        line("(a) session_audit, nothing changed since the last audit", a, mb);
        if (!c.isEmpty()) line("(c) session_audit after Hermes wrote one message", c, mb);
        line("(d) session_audit listing every session (a fresh process)", d, mb);
        line("(b) seed listing query (baseline)", b, mb);
        if (how != null) Printer.println("(c) listing: " + how + " session(s) re-read; target for (a): <= 0.1");
        else Printer.println("target for (a): <= 0.1");
        if (real) RealWorldStages.run(work, home, first, registry);
        if (temp) FileTrees.delete(work);
        return 0;
    }

    private static void line(String name, List<Double> l, double baseline) {
        Printer.println(String.format(
                "%-58s %10.1f %10.1f %10.1f %8.3f",
                name, median(l), Collections.min(l), Collections.max(l), median(l) / baseline));
    }

    /** One message written into {@code session} as Hermes writes it (its count follows); returns its id. */
    static long hermesWrites(Path db, String session, int i) throws SQLException {
        try (Connection c = Sqlite.openReadWrite(db)) {
            return Sqlite.immediate(c, x -> {
                long id;
                try (PreparedStatement ps = x.prepareStatement(
                        "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, ?)",
                        Statement.RETURN_GENERATED_KEYS)) {
                    ps.setString(1, session);
                    ps.setString(2, "bench message " + i);
                    ps.setDouble(3, NOW - 60);
                    ps.executeUpdate();
                    try (ResultSet k = ps.getGeneratedKeys()) {
                        k.next();
                        id = k.getLong(1);
                    }
                }
                try (PreparedStatement ps =
                        x.prepareStatement("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?")) {
                    ps.setString(1, session);
                    ps.executeUpdate();
                }
                return id;
            });
        }
    }

    /** Removes the messages {@link #hermesWrites} wrote, and their counts. */
    static void unwrite(Path db, List<Long> ids) throws SQLException {
        if (ids.isEmpty()) return;
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                for (long id : ids) {
                    String session;
                    try (PreparedStatement ps = x.prepareStatement("SELECT session_id FROM messages WHERE id = ?")) {
                        ps.setLong(1, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (!rs.next()) continue;
                            session = rs.getString(1);
                        }
                    }
                    try (PreparedStatement ps = x.prepareStatement("DELETE FROM messages WHERE id = ?")) {
                        ps.setLong(1, id);
                        ps.executeUpdate();
                    }
                    try (PreparedStatement ps =
                            x.prepareStatement("UPDATE sessions SET message_count = message_count - 1 WHERE id = ?")) {
                        ps.setString(1, session);
                        ps.executeUpdate();
                    }
                }
                return null;
            });
        }
    }

    static double median(List<Double> l) {
        List<Double> s = new ArrayList<>(l);
        Collections.sort(s);
        return s.size() % 2 == 1 ? s.get(s.size() / 2) : (s.get(s.size() / 2 - 1) + s.get(s.size() / 2)) / 2;
    }

    /** Runs the seed's query on a fresh read-only connection and reads every row. */
    static int seed(Path db) throws SQLException {
        int rows = 0;
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(SEED_QUERY)) {
            while (rs.next()) {
                for (int i = 1; i <= 9; i++) rs.getObject(i);
                rows++;
            }
        }
        return rows;
    }

    /**
     * Builds {@code db}: the fixture's schema, then the scale or real-world home, the FTS tables filled in one pass (left
     * empty with {@code noFts}), triggers last; returns what was done about FTS.
     */
    static String build(Path db, boolean real, int sessions, int messages, boolean noFts)
            throws SQLException, java.io.IOException {
        List<String[]> schema = new ArrayList<>();
        try (Connection f = Sqlite.openReadOnly(Fixtures.locateHermesHome().resolve("state.db"));
                Statement st = f.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")) {
            while (rs.next()) schema.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
        }
        List<String> virtual = schema.stream()
                .filter(s -> s[2].toUpperCase().startsWith("CREATE VIRTUAL TABLE"))
                .map(s -> s[1])
                .toList();
        try (Connection c = Sqlite.openOwned(db);
                Statement st = c.createStatement()) {
            for (String[] s : schema) {
                if (s[0].equals("trigger") || s[1].equals("sqlite_sequence") || isShadow(s[1], virtual)) continue;
                st.execute(s[2]);
            }
            st.execute("INSERT INTO schema_version (version) VALUES (21)");
            c.setAutoCommit(false);
            if (real)
                Printer.println(RealWorldHome.generate(c, db.getParent(), sessions, messages, NOW)
                        .describe());
            else generate(c, sessions, messages);
            c.commit();
            String fts;
            if (noFts) {
                fts = "FTS tables left empty (--no-fts)";
            } else {
                long t0 = System.nanoTime();
                for (String v : virtual) {
                    st.execute("INSERT INTO " + v
                            + "(rowid, content) SELECT id, COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' "
                            + "|| COALESCE(tool_calls, '') FROM messages");
                }
                c.commit();
                fts = String.format(
                        "FTS triggers disabled during the bulk load, FTS tables rebuilt in one pass afterwards: %.1f s",
                        (System.nanoTime() - t0) / 1e9);
            }
            c.setAutoCommit(true);
            for (String[] s : schema) if (s[0].equals("trigger")) st.execute(s[2]);
            st.execute("ANALYZE");
            st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            return fts;
        }
    }

    private static boolean isShadow(String name, List<String> virtual) {
        for (String v : virtual) {
            for (String suffix : List.of("_data", "_idx", "_content", "_docsize", "_config"))
                if (name.equals(v + suffix)) return true;
        }
        return false;
    }

    static final String[] WORDS = {
        "rust",
        "borrow",
        "checker",
        "docker",
        "cache",
        "kubernetes",
        "ingress",
        "gpu",
        "driver",
        "react",
        "hooks",
        "claude",
        "code",
        "memory",
        "skill",
        "tax",
        "return",
        "travel",
        "kyoto",
        "java",
        "gc",
        "postgres",
        "vacuum",
        "bilibili",
        "search",
        "显卡",
        "驱动",
        "会话",
        "分组",
        "记忆",
        "整理",
        "桌面端",
        "模式",
        "对比",
        "所有权",
        "部署",
        "测试"
    };

    /** A realistic mix: ~8% active, ~2% archived, ~22% subagents, ~45% titled, message counts skewed small with a long tail. */
    private static void generate(Connection c, int sessions, int messages) throws SQLException {
        Random rnd = new Random(42);
        String[] sources = {
            "tui", "tui", "tui", "cli", "cli", "cli", "telegram", "telegram", "discord", "subagent", "subagent"
        };
        int[] counts = new int[sessions];
        double[] weights = new double[sessions];
        double sum = 0;
        for (int i = 0; i < sessions; i++) {
            weights[i] = Math.pow(rnd.nextDouble(), 3) + 0.02;
            sum += weights[i];
        }
        int assigned = 0;
        for (int i = 0; i < sessions; i++) {
            counts[i] = (int) Math.floor(weights[i] / sum * messages);
            assigned += counts[i];
        }
        for (int i = 0; assigned < messages; i = (i + 1) % sessions, assigned++) counts[i]++;
        List<String> parents = new ArrayList<>();
        long msgId = 0;
        try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO sessions (id, source, model_config, parent_session_id, started_at, ended_at, "
                                + "end_reason, message_count, title, archived) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
                PreparedStatement pm = c.prepareStatement(
                        "INSERT INTO messages (id, session_id, role, content, timestamp) VALUES (?, ?, ?, ?, ?)")) {
            for (int i = 0; i < sessions; i++) {
                double started = NOW - 365 * 86400.0 * Math.pow(rnd.nextDouble(), 2) - 3600;
                String id = String.format(
                        "%s_%06x",
                        DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss")
                                .withZone(ZoneOffset.UTC)
                                .format(Instant.ofEpochSecond((long) started)),
                        i);
                String source = sources[rnd.nextInt(sources.length)];
                boolean sub = source.equals("subagent") && !parents.isEmpty();
                if (!sub && source.equals("subagent")) source = "cli";
                String parent = sub ? parents.get(rnd.nextInt(parents.size())) : null;
                boolean active = rnd.nextDouble() < 0.08;
                boolean titled = !sub ? rnd.nextDouble() < 0.55 : rnd.nextDouble() < 0.1;
                String title = titled
                        ? WORDS[rnd.nextInt(WORDS.length)] + " " + WORDS[rnd.nextInt(WORDS.length)] + " #" + i
                        : null;
                int mc = counts[i];
                double last = started + mc * 30.0;
                if (last > NOW) last = NOW - rnd.nextInt(3600);
                ps.setString(1, id);
                ps.setString(2, source);
                ps.setString(3, sub ? "{\"_delegate_from\": \"" + parent + "\"}" : null);
                ps.setString(4, parent);
                ps.setDouble(5, started);
                if (active) ps.setNull(6, Types.REAL);
                else ps.setDouble(6, last + 60);
                ps.setString(7, active ? null : sub ? "completed" : "cli_close");
                ps.setInt(8, mc);
                ps.setString(9, title);
                ps.setInt(10, rnd.nextDouble() < 0.02 ? 1 : 0);
                ps.addBatch();
                if (!sub) parents.add(id);
                double step = mc == 0 ? 0 : (last - started) / mc;
                for (int k = 0; k < mc; k++) {
                    pm.setLong(1, ++msgId);
                    pm.setString(2, id);
                    pm.setString(3, k % 2 == 0 ? "user" : "assistant");
                    pm.setString(
                            4, (k % 2 == 0 ? "question " : "answer ") + k + " about " + WORDS[(i + k) % WORDS.length]);
                    pm.setDouble(5, started + step * (k + 1));
                    pm.addBatch();
                    if (msgId % 10000 == 0) pm.executeBatch();
                }
                if (i % 1000 == 999) ps.executeBatch();
            }
            ps.executeBatch();
            pm.executeBatch();
        }
    }
}
