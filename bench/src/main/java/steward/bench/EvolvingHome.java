package steward.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import steward.sessions.store.Sqlite;

/**
 * A Hermes home that lives on between housekeeping runs, driven by a seed: time moves on by 1–3 days, sessions
 * already there go on (running subagents finish, open chats end, some titled chats get new messages and the others
 * go idle, Hermes titles a few untitled chats), and new sessions of every kind arrive — subagent shells, long
 * untitled subagents, titled and running subagents, short and long untitled chats on several platforms, titled chats on
 * recurring topics, archived-but-active threads, a parent chat with a titled or running subagent, and compression
 * chains. Rows are written as Hermes writes them (one {@code BEGIN IMMEDIATE} transaction; one {@code messages} row per
 * message, so Hermes' FTS triggers fire; {@code model_config._delegate_from} on subagents).
 *
 * <p>Arrivals and the time step depend only on the seed and the run, so the learning arm and the control arm of a
 * profile see the same kinds of sessions arriving at the same times; what goes on with existing sessions is drawn from
 * the sessions each arm still has.
 */
final class EvolvingHome {
    static final Instant START = Instant.parse("2026-08-10T12:00:00Z");
    static final String CURRENT = "20260810_071500_a6a3a4";
    private static final DateTimeFormatter ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss").withZone(ZoneOffset.UTC);
    /** Recurring topics: titled chats on one topic share its words, so rule E finds repeated topics as they come. */
    static final String[] TOPICS = {
        "Rust lifetimes",
        "Docker networking",
        "Postgres vacuum",
        "React hooks",
        "Python typing",
        "Kubernetes ingress",
        "Claude Code hooks",
        "Hermes memory",
        "Nix flakes",
        "Go generics"
    };

    static final String[] ASPECTS = {
        "notes",
        "debugging",
        "setup",
        "questions",
        "review",
        "plan",
        "errors",
        "follow-up",
        "migration",
        "benchmarks",
        "refactor",
        "deploy",
        "tests",
        "design",
        "cleanup",
        "upgrade",
        "performance",
        "examples",
        "config",
        "docs",
        "tutorial",
        "ideas",
        "bugfix",
        "release",
        "profiling",
        "security",
        "logging",
        "metrics",
        "caching",
        "prototype"
    };

    private final Path db;
    private final long seed;
    private double now = START.getEpochSecond();
    private int counter;

    EvolvingHome(Path db, long seed) {
        this.db = db;
        this.seed = seed;
    }

    Instant now() {
        return Instant.ofEpochSecond((long) now);
    }

    /** One session to insert: {@code last} is its newest message; an ended one ended a minute after it. */
    record Row(
            String id,
            String source,
            String title,
            String parent,
            boolean ended,
            int messages,
            double last,
            boolean archived,
            String endReason) {}

    /** Moves time on and lets the home change before run {@code run} (run 1 is the fixture as it is). */
    void advance(int run) throws SQLException {
        Random arrivals = new Random(seed * 1_000_003L + run);
        double before = now;
        now += (1 + arrivals.nextInt(3)) * 86400.0 + arrivals.nextInt(3600);
        evolve(new Random(seed * 7_919L + run * 31L + 1), before);
        insert(arrivals(arrivals, run));
    }

    /** The user is in the current session when housekeeping runs: it gets a message now. */
    void touchCurrent() throws SQLException {
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                try (PreparedStatement pm = x.prepareStatement(
                                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, ?)");
                        PreparedStatement pc = x.prepareStatement(
                                "UPDATE sessions SET message_count = message_count + 1 WHERE id = ?")) {
                    pm.setString(1, CURRENT);
                    pm.setString(2, "tidy my sessions, please");
                    pm.setDouble(3, now - 30);
                    pm.executeUpdate();
                    pc.setString(1, CURRENT);
                    pc.executeUpdate();
                }
                return null;
            });
        }
    }

    /** What happened to the sessions already there since {@code before}. */
    private void evolve(Random r, double before) throws SQLException {
        record Open(String id, String source, String title) {}
        List<Open> open = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT id, source, title FROM sessions WHERE ended_at IS NULL AND id != ? ORDER BY id")) {
            ps.setString(1, CURRENT);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) open.add(new Open(rs.getString(1), rs.getString(2), rs.getString(3)));
            }
        }
        List<String> sql = new ArrayList<>();
        List<Object[]> messages = new ArrayList<>();
        for (Open o : open) {
            double p = r.nextDouble();
            double at = before + r.nextDouble() * (now - before - 3600);
            boolean untitled = o.title() == null || o.title().isBlank();
            if ("subagent".equals(o.source())) {
                if (p < 0.6)
                    sql.add("UPDATE sessions SET ended_at = " + at + ", end_reason = 'completed' WHERE id = '" + o.id()
                            + "'");
            } else if (untitled) {
                if (p < 0.5)
                    sql.add("UPDATE sessions SET ended_at = " + at + ", end_reason = 'cli_close' WHERE id = '" + o.id()
                            + "'");
                else if (p < 0.6)
                    sql.add("UPDATE sessions SET title = 'Auto-titled " + o.id().substring(16) + "' WHERE id = '"
                            + o.id() + "'");
            } else if (p < 0.3) {
                messages.add(new Object[] {o.id(), at});
            }
        }
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                try (var st = x.createStatement();
                        PreparedStatement pm = x.prepareStatement(
                                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'back to this', ?)");
                        PreparedStatement pc = x.prepareStatement(
                                "UPDATE sessions SET message_count = message_count + 1 WHERE id = ?")) {
                    for (String s : sql) st.executeUpdate(s);
                    for (Object[] m : messages) {
                        pm.setString(1, (String) m[0]);
                        pm.setDouble(2, (Double) m[1]);
                        pm.executeUpdate();
                        pc.setString(1, (String) m[0]);
                        pc.executeUpdate();
                    }
                }
                return null;
            });
        }
    }

    /** New sessions of every kind, drawn from the run's own random stream. */
    private List<Row> arrivals(Random r, int run) {
        List<Row> out = new ArrayList<>();
        double span = 2 * 86400.0;
        // a titled chat the user worked in, with its subagents
        String topic = TOPICS[r.nextInt(TOPICS.length)];
        String host = id(r, ago(r, span));
        out.add(new Row(
                host,
                pick(r, "cli", "tui"),
                title(topic, r),
                null,
                r.nextBoolean(),
                8 + r.nextInt(30),
                ago(r, span),
                false,
                "cli_close"));
        for (int i = 0, n = 1 + r.nextInt(4); i < n; i++)
            out.add(new Row(
                    id(r, ago(r, span)), "subagent", null, host, true, r.nextInt(5), ago(r, span), false, "completed"));
        for (int i = 0, n = r.nextInt(3); i < n; i++)
            out.add(new Row(
                    id(r, ago(r, span)),
                    "subagent",
                    null,
                    host,
                    true,
                    5 + r.nextInt(16),
                    ago(r, span),
                    false,
                    "completed"));
        for (int i = 0, n = r.nextInt(3); i < n; i++) {
            boolean ended = r.nextBoolean();
            out.add(new Row(
                    id(r, ago(r, span)),
                    "subagent",
                    "Subtask: " + title(topic, r).toLowerCase(Locale.ROOT),
                    host,
                    ended,
                    5 + r.nextInt(10),
                    ago(r, span),
                    false,
                    ended ? "completed" : null));
        }
        for (int i = 0, n = 1 + r.nextInt(2); i < n; i++)
            out.add(new Row(
                    id(r, ago(r, span)),
                    "subagent",
                    null,
                    host,
                    false,
                    1 + r.nextInt(6),
                    ago(r, 3 * 3600),
                    false,
                    null));
        // untitled chats, short and long, on several platforms
        for (int i = 0, n = 1 + r.nextInt(3); i < n; i++)
            out.add(new Row(
                    id(r, ago(r, span)),
                    pick(r, "cli", "telegram", "tui", "discord"),
                    null,
                    null,
                    true,
                    r.nextInt(11),
                    ago(r, span),
                    false,
                    "cli_close"));
        for (int i = 0, n = 1 + r.nextInt(2); i < n; i++)
            out.add(new Row(
                    id(r, ago(r, span)),
                    pick(r, "cli", "tui", "telegram"),
                    null,
                    null,
                    true,
                    11 + r.nextInt(30),
                    ago(r, span),
                    false,
                    "cli_close"));
        // an untitled chat still open (it may end later)
        if (r.nextBoolean())
            out.add(new Row(
                    id(r, ago(r, span)),
                    pick(r, "cli", "tui"),
                    null,
                    null,
                    false,
                    2 + r.nextInt(12),
                    ago(r, 6 * 3600),
                    false,
                    null));
        // an untitled chat whose subagent the user may care about: a titled one, or one still running
        String parent = id(r, ago(r, span));
        boolean parentEnded = r.nextBoolean();
        out.add(new Row(
                parent,
                "cli",
                null,
                null,
                parentEnded,
                4 + r.nextInt(20),
                ago(r, span),
                false,
                parentEnded ? "cli_close" : null));
        if (r.nextBoolean())
            out.add(new Row(
                    id(r, ago(r, span)),
                    "subagent",
                    "Subtask: " + title(TOPICS[r.nextInt(TOPICS.length)], r).toLowerCase(Locale.ROOT),
                    parent,
                    true,
                    5 + r.nextInt(8),
                    ago(r, span),
                    false,
                    "completed"));
        else
            out.add(new Row(
                    id(r, ago(r, span)),
                    "subagent",
                    null,
                    parent,
                    false,
                    1 + r.nextInt(5),
                    ago(r, 2 * 3600),
                    false,
                    null));
        // titled chats on recurring topics, some still open (they go idle as time moves on)
        for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
            boolean ended = r.nextDouble() < 0.3;
            out.add(new Row(
                    id(r, ago(r, span)),
                    pick(r, "cli", "tui"),
                    title(TOPICS[r.nextInt(TOPICS.length)], r),
                    null,
                    ended,
                    3 + r.nextInt(40),
                    ago(r, span),
                    false,
                    ended ? "cli_close" : null));
        }
        // an archived thread Hermes still shows as active
        if (r.nextDouble() < 0.3)
            out.add(new Row(
                    id(r, ago(r, span)),
                    "tui",
                    title(TOPICS[r.nextInt(TOPICS.length)], r),
                    null,
                    false,
                    4 + r.nextInt(10),
                    ago(r, 5 * 86400.0),
                    true,
                    null));
        // a compression chain: the root ended by compression, the continuation open
        if (r.nextDouble() < 0.3) {
            String root = id(r, ago(r, span));
            String t = title(TOPICS[r.nextInt(TOPICS.length)], r);
            out.add(new Row(root, "cli", t, null, true, 40 + r.nextInt(40), ago(r, span), false, "compression"));
            out.add(new Row(
                    id(r, ago(r, 3600)), "cli", t + " #2", root, false, 3 + r.nextInt(10), ago(r, 3600), false, null));
        }
        return out;
    }

    private double ago(Random r, double within) {
        return now - 600 - r.nextDouble() * within;
    }

    private String id(Random r, double at) {
        counter++;
        return ID_TIME.format(Instant.ofEpochSecond((long) at)) + "_"
                + String.format("%06x", (r.nextInt(0xfff) << 12 | counter & 0xfff) & 0xffffff);
    }

    private String title(String topic, Random r) {
        return topic + " " + ASPECTS[r.nextInt(ASPECTS.length)] + " " + (char) ('a' + counter % 26) + counter;
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }

    private void insert(List<Row> rows) throws SQLException {
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                try (PreparedStatement ps = x.prepareStatement(
                                "INSERT INTO sessions (id, source, title, parent_session_id, model_config, "
                                        + "started_at, ended_at, end_reason, message_count, archived) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
                        PreparedStatement pm = x.prepareStatement(
                                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")) {
                    for (Row r : rows) {
                        double started = r.last() - r.messages() * 60.0 - 60;
                        boolean sub = "subagent".equals(r.source());
                        ps.setString(1, r.id());
                        ps.setString(2, r.source());
                        ps.setString(3, r.title());
                        ps.setString(4, r.parent());
                        ps.setString(
                                5, sub && r.parent() != null ? "{\"_delegate_from\": \"" + r.parent() + "\"}" : null);
                        ps.setDouble(6, started);
                        if (r.ended()) ps.setDouble(7, r.last() + 60);
                        else ps.setNull(7, Types.REAL);
                        ps.setString(8, r.ended() ? r.endReason() : null);
                        ps.setInt(9, r.messages());
                        ps.setInt(10, r.archived() ? 1 : 0);
                        ps.executeUpdate();
                        for (int m = 0; m < r.messages(); m++) {
                            pm.setString(1, r.id());
                            pm.setString(2, m % 2 == 0 ? "user" : "assistant");
                            pm.setString(3, (r.title() == null ? "untitled" : r.title()) + " message " + m);
                            pm.setDouble(4, started + (m + 1) * 60.0);
                            pm.executeUpdate();
                        }
                    }
                }
                return null;
            });
        }
    }

    /** What a user knows about one of their sessions (read before an apply changes anything). */
    record Session(
            String id, String source, String title, String parent, boolean active, int messages, boolean archived) {
        boolean titled() {
            return title != null && !title.isBlank();
        }

        boolean subagent() {
            return "subagent".equals(source);
        }
    }

    Map<String, Session> sessions() throws SQLException {
        Map<String, Session> out = new HashMap<>();
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT id, source, title, parent_session_id, ended_at IS NULL, message_count, archived FROM sessions");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(
                        rs.getString(1),
                        new Session(
                                rs.getString(1),
                                rs.getString(2),
                                rs.getString(3),
                                rs.getString(4),
                                rs.getBoolean(5),
                                rs.getInt(6),
                                rs.getInt(7) != 0));
            }
        }
        return out;
    }
}
