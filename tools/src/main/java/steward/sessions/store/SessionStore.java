package steward.sessions.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import steward.StewardError;

/**
 * Access to a Hermes {@code state.db}. Opening checks that the file is SQLite, has the core tables
 * and a supported {@code schema_version} (21 through 30); anything else is refused with a clear
 * error rather than guessed at. Columns are read by name ({@code PRAGMA table_info}).
 */
public final class SessionStore implements AutoCloseable {
    public static final int MIN_SCHEMA = 21;
    public static final int MAX_SCHEMA = 30;
    private static final List<String> REQUIRED_SESSION_COLUMNS = List.of(
            "id", "source", "started_at", "ended_at", "title", "parent_session_id", "message_count", "end_reason");
    private static final List<String> REQUIRED_MESSAGE_COLUMNS =
            List.of("id", "session_id", "role", "content", "timestamp");

    private final Path db;
    private final Connection conn;
    private final int schemaVersion;
    private final Set<String> sessionColumns;
    private final Set<String> messageColumns;

    private SessionStore(
            Path db, Connection conn, int schemaVersion, Set<String> sessionColumns, Set<String> messageColumns) {
        this.db = db;
        this.conn = conn;
        this.schemaVersion = schemaVersion;
        this.sessionColumns = sessionColumns;
        this.messageColumns = messageColumns;
    }

    /** Opens {@code db} read-only after validating it. */
    public static SessionStore openReadOnly(Path db) {
        return open(db, false, Sqlite.BUSY_TIMEOUT_MS * 5);
    }

    /** Opens {@code db} read-only, its reads waiting at most {@code busyTimeoutMs} for another process's lock. */
    public static SessionStore openReadOnly(Path db, int busyTimeoutMs) {
        return open(db, false, busyTimeoutMs);
    }

    /** Opens {@code db} for writing (writes must go through {@link #write}). */
    public static SessionStore openReadWrite(Path db) {
        return open(db, true, Sqlite.BUSY_TIMEOUT_MS);
    }

    private static SessionStore open(Path db, boolean writable, int busyTimeoutMs) {
        if (!Files.exists(db)) throw new StewardError("state.db", "no such file: " + db);
        try {
            if (Files.size(db) == 0)
                throw new StewardError("state.db", db + " is empty (0 bytes): not a Hermes session store");
        } catch (IOException e) {
            throw new StewardError("state.db", "cannot read " + db + ": " + e.getMessage(), e);
        }
        Connection c = writable ? Sqlite.openReadWrite(db) : Sqlite.openReadOnly(db, busyTimeoutMs);
        try {
            Set<String> tables = new LinkedHashSet<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (rs.next()) tables.add(rs.getString(1));
            }
            for (String t : List.of("sessions", "messages", "schema_version")) {
                if (!tables.contains(t)) {
                    throw new StewardError("state.db", db + " has no '" + t + "' table: not a Hermes session store");
                }
            }
            Integer version = null;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT MAX(version) FROM schema_version")) {
                if (rs.next()) {
                    int v = rs.getInt(1);
                    if (!rs.wasNull()) version = v;
                }
            }
            if (version == null) throw new StewardError("state.db", db + " has an empty schema_version table");
            if (version > MAX_SCHEMA) {
                throw new StewardError(
                        "state.db",
                        "schema version " + version + " is newer than Steward supports (" + MIN_SCHEMA + "–"
                                + MAX_SCHEMA + "); upgrade Steward before it touches this database");
            }
            if (version < MIN_SCHEMA) {
                throw new StewardError(
                        "state.db",
                        "schema version " + version + " is older than Steward supports (" + MIN_SCHEMA + "–"
                                + MAX_SCHEMA + "); let Hermes migrate it first");
            }
            Set<String> sc = columns(c, "sessions");
            Set<String> mc = columns(c, "messages");
            for (String col : REQUIRED_SESSION_COLUMNS) {
                if (!sc.contains(col)) throw new StewardError("state.db", "sessions table lacks column '" + col + "'");
            }
            for (String col : REQUIRED_MESSAGE_COLUMNS) {
                if (!mc.contains(col)) throw new StewardError("state.db", "messages table lacks column '" + col + "'");
            }
            return new SessionStore(db, c, version, sc, mc);
        } catch (SQLException e) {
            closeQuietly(c);
            throw new StewardError("state.db", "cannot read " + db + ": " + Sqlite.describe(e), e);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    /** The columns {@code table} has ({@code PRAGMA table_info}). */
    public static Set<String> columns(Connection c, String table) throws SQLException {
        Set<String> cols = new LinkedHashSet<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA table_info(" + table + ")")) {
            while (rs.next()) cols.add(rs.getString("name"));
        }
        return cols;
    }

    public Path path() {
        return db;
    }

    public int schemaVersion() {
        return schemaVersion;
    }

    public Set<String> sessionColumns() {
        return sessionColumns;
    }

    public Set<String> messageColumns() {
        return messageColumns;
    }

    public boolean hasSessionColumn(String name) {
        return sessionColumns.contains(name);
    }

    /** The raw connection, for engines in this package tree that need their own queries. */
    public Connection connection() {
        return conn;
    }

    /** Runs {@code work} in one {@code BEGIN IMMEDIATE} transaction with bounded retries. */
    public <T> T write(Sqlite.SqlWork<T> work) {
        return Sqlite.immediate(conn, work);
    }

    /**
     * Every session with its last activity and stored message count, in one set-based pass over
     * Hermes' per-session message index (no per-session query).
     */
    public List<SessionRow> listSessions() {
        String opt = optionalColumns();
        String sql = "SELECT s.id, s.source, s.title, s.parent_session_id, s.started_at, s.ended_at, s.end_reason, "
                + "s.message_count, " + opt + ", m.last_ts, m.n, m.max_id "
                + "FROM sessions s LEFT JOIN (SELECT session_id, MAX(CASE WHEN timestamp < '' THEN timestamp END) AS last_ts, "
                + "COUNT(*) AS n, MAX(id) AS max_id "
                + "FROM messages GROUP BY session_id) m ON m.session_id = s.id";
        List<SessionRow> out = new ArrayList<>();
        try (Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) out.add(readRow(rs));
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot list sessions: " + Sqlite.describe(e), e);
        }
        return out;
    }

    /**
     * Every session with its last activity, for the audit: one correlated {@code MAX(timestamp)} per
     * session answered from Hermes' {@code (session_id, timestamp)} index (a seek, not a scan), and
     * the {@code message_count} column. Stored message counts and ids are not computed here
     * ({@code storedMessageCount} and {@code maxMessageId} are -1).
     */
    public List<SessionRow> listSessionsForAudit() {
        long maxRowid;
        try (Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(rowid), 0) FROM sessions")) {
            maxRowid = rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot list sessions: " + Sqlite.describe(e), e);
        }
        if (maxRowid < PARALLEL_MIN_ROWS) return listRange(conn, Long.MIN_VALUE, Long.MAX_VALUE);
        // large stores: the upper half of the rowids is read on a second read-only connection in parallel
        // (each row is read exactly once; SQLite serves concurrent readers)
        long mid = maxRowid / 2;
        CompletableFuture<List<SessionRow>> upper = CompletableFuture.supplyAsync(() -> {
            try (Connection second = Sqlite.openReadOnly(db)) {
                return listRange(second, mid, Long.MAX_VALUE);
            } catch (SQLException e) {
                throw new StewardError("state.db", "cannot list sessions: " + Sqlite.describe(e), e);
            }
        });
        List<SessionRow> out = new ArrayList<>(listRange(conn, Long.MIN_VALUE, mid));
        try {
            out.addAll(upper.join());
        } catch (CompletionException e) {
            if (e.getCause() instanceof StewardError se) throw se;
            throw new StewardError("state.db", "cannot list sessions: " + e.getCause(), e.getCause());
        }
        return out;
    }

    /**
     * Every session's id and one value made of every column of it the audit reads (not its messages), in rowid order:
     * a session whose value is unchanged since an earlier listing has the same row, but for its messages
     * ({@link AuditListings}). Two columns per row instead of a dozen: a third of the time of reading them.
     */
    public Map<String, byte[]> rowDigests() {
        StringBuilder sql = new StringBuilder(
                "SELECT s.id, quote(s.source) || quote(s.title) || quote(s.parent_session_id)"
                        + " || quote(s.started_at) || quote(s.ended_at) || quote(s.end_reason) || quote(s.message_count)");
        if (hasSessionColumn("model_config"))
            sql.append(" || quote(CASE WHEN s.source = 'subagent' OR instr(s.model_config, '_delegate_from') > 0 "
                    + "THEN s.model_config END)");
        for (String c : List.of("archived", "pinned", "hidden"))
            if (hasSessionColumn(c)) sql.append(" || quote(s.").append(c).append(')');
        sql.append(" FROM sessions s ORDER BY s.rowid");
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) out.put(text(rs, 1), rs.getBytes(2));
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot list sessions: " + Sqlite.describe(e), e);
        }
        return out;
    }

    /** The audit's rows of the sessions with these ids (absent ids are left out). */
    public Map<String, SessionRow> auditRows(Collection<String> ids) {
        Map<String, SessionRow> out = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement(auditSelect() + " WHERE s.id = ?")) {
            for (String id : ids) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) out.put(id, auditRow(rs));
                }
            }
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot list sessions: " + Sqlite.describe(e), e);
        }
        return out;
    }

    /** The sessions that have a message with an id above {@code afterId}, and the highest message id (0: none). */
    public record Touched(Set<String> sessionIds, long maxMessageId) {}

    public Touched touchedSince(long afterId) {
        Set<String> ids = new HashSet<>();
        try (Statement st = conn.createStatement()) {
            long max;
            try (ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(id), 0) FROM messages")) {
                max = rs.next() ? rs.getLong(1) : 0;
            }
            if (max > afterId) {
                try (PreparedStatement ps =
                        conn.prepareStatement("SELECT DISTINCT session_id FROM messages WHERE id > ?")) {
                    ps.setLong(1, afterId);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) ids.add(text(rs, 1));
                    }
                }
            }
            return new Touched(ids, max);
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot list sessions: " + Sqlite.describe(e), e);
        }
    }

    /** Sessions above this many rows are listed by two readers in parallel. */
    static final long PARALLEL_MIN_ROWS = 4000;

    /**
     * A {@code message_count} up to this is checked against the session's rows (the largest count a rule deletes
     * unasked by: rule B's 10; A's 4, N's 0); above it the session is large either way.
     */
    static final int COUNTED_UP_TO = 10;

    /** Sessions with {@code lo < rowid <= hi}. */
    private List<SessionRow> listRange(Connection c, long lo, long hi) {
        List<SessionRow> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(auditSelect() + " WHERE s.rowid > ? AND s.rowid <= ?")) {
            ps.setLong(1, lo);
            ps.setLong(2, hi);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(auditRow(rs));
            }
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot list sessions: " + Sqlite.describe(e), e);
        }
        return out;
    }

    /**
     * The audit's select list. Only the columns that exist are read: every column read is a native call per row. Times
     * come back as a number or -1 (a NULL or non-numeric ended_at is "active"; a message time written as text is not an
     * activity: SQLite orders text above every number, so it is left out of MAX with "< ''", still one index seek), so
     * one getDouble reads each. A small message_count is checked against the rows on disk: Hermes' in-place compaction
     * sets it to the live count and keeps the compacted turns, which its search still finds, and the rules that act
     * unasked on small sessions (A, B, N) must see them.
     */
    private String auditSelect() {
        StringBuilder sql = new StringBuilder(
                "SELECT s.id, s.source, s.title, s.parent_session_id, s.started_at, "
                        + "CASE WHEN typeof(s.ended_at) IN ('real', 'integer') THEN s.ended_at ELSE -1 END, s.end_reason, "
                        + "CASE WHEN ifnull(s.message_count, 0) <= " + COUNTED_UP_TO
                        + " THEN max(ifnull(s.message_count, 0), "
                        + "(SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)) ELSE s.message_count END, "
                        + "ifnull((SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = s.id AND m.timestamp < ''), -1)");
        if (hasSessionColumn("model_config"))
            sql.append(
                    ", CASE WHEN s.source = 'subagent' OR instr(s.model_config, '_delegate_from') > 0 THEN s.model_config END");
        if (hasSessionColumn("archived")) sql.append(", s.archived");
        if (hasSessionColumn("pinned")) sql.append(", s.pinned");
        if (hasSessionColumn("hidden")) sql.append(", s.hidden");
        return sql.append(" FROM sessions s").toString();
    }

    private SessionRow auditRow(ResultSet rs) throws SQLException {
        double started = rs.getDouble(5);
        double endedRaw = rs.getDouble(6);
        Double ended = endedRaw == -1 ? null : endedRaw;
        double lastRaw = rs.getDouble(9);
        double last = lastRaw == -1 ? started : Math.max(lastRaw, started);
        int col = 10;
        String mc = hasSessionColumn("model_config") ? text(rs, col++) : null;
        boolean arc = hasSessionColumn("archived") && rs.getInt(col++) != 0;
        boolean pin = hasSessionColumn("pinned") && rs.getInt(col++) != 0;
        boolean hid = hasSessionColumn("hidden") && rs.getInt(col++) != 0;
        return new SessionRow(
                text(rs, 1),
                text(rs, 2),
                text(rs, 3),
                text(rs, 4),
                started,
                ended,
                text(rs, 7),
                rs.getInt(8),
                -1,
                arc,
                pin,
                hid,
                mc,
                last,
                -1,
                null);
    }

    /**
     * A text column read as its UTF-8 bytes: the driver's getString goes through a direct buffer and a copy
     * per call, which dominates a 20,000-row listing; the decoded string is the same.
     */
    private static String text(ResultSet rs, int col) throws SQLException {
        byte[] b = rs.getBytes(col);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** archived, pinned, hidden, model_config — or constants where this schema version lacks them. */
    private String optionalColumns() {
        return (hasSessionColumn("archived") ? "s.archived" : "0") + ", "
                + (hasSessionColumn("pinned") ? "s.pinned" : "0") + ", "
                + (hasSessionColumn("hidden") ? "s.hidden" : "0") + ", "
                + (hasSessionColumn("model_config") ? "s.model_config" : "NULL");
    }

    /** The sessions with the given ids (missing ids are simply absent from the map). */
    public Map<String, SessionRow> sessionsById(Collection<String> ids) {
        Map<String, SessionRow> out = new LinkedHashMap<>();
        if (ids.isEmpty()) return out;
        String opt = optionalColumns();
        String sql = "SELECT s.id, s.source, s.title, s.parent_session_id, s.started_at, s.ended_at, s.end_reason, "
                + "s.message_count, " + opt + ", "
                + "(SELECT MAX(timestamp) FROM messages WHERE session_id = s.id AND timestamp < ''), "
                + "(SELECT COUNT(*) FROM messages WHERE session_id = s.id), "
                + "(SELECT MAX(id) FROM messages WHERE session_id = s.id) FROM sessions s WHERE s.id = ?";
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (String id : ids) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) out.put(id, readRow(rs));
                }
            }
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot read sessions: " + Sqlite.describe(e), e);
        }
        return out;
    }

    private static SessionRow readRow(ResultSet rs) throws SQLException {
        double started = rs.getDouble(5);
        double endedRaw = rs.getDouble(6);
        Double ended = rs.wasNull() ? null : endedRaw;
        double last = rs.getDouble(13);
        boolean hasLast = !rs.wasNull();
        return new SessionRow(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                started,
                ended,
                rs.getString(7),
                rs.getInt(8),
                rs.getInt(14),
                rs.getInt(9) != 0,
                rs.getInt(10) != 0,
                rs.getInt(11) != 0,
                rs.getString(12),
                hasLast ? Math.max(last, started) : started,
                rs.getLong(15),
                null);
    }

    /** Counts for {@code steward_status}. */
    public record Counts(
            int total, int active, int ended, int archived, Map<String, Integer> bySource, long messages) {}

    public Counts counts() {
        int total = 0, active = 0, ended = 0, archived = 0;
        Map<String, Integer> bySource = new LinkedHashMap<>();
        String archivedExpr = hasSessionColumn("archived") ? "archived" : "0";
        try (Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT source, ended_at IS NULL AS act, " + archivedExpr
                        + " != 0 AS arc, COUNT(*) FROM sessions GROUP BY 1, 2, 3 ORDER BY 1")) {
            Map<String, Integer> src = new HashMap<>();
            while (rs.next()) {
                int n = rs.getInt(4);
                total += n;
                if (rs.getInt(2) != 0) active += n;
                else ended += n;
                if (rs.getInt(3) != 0) archived += n;
                src.merge(rs.getString(1), n, Integer::sum);
            }
            src.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue()
                            .reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .forEach(e -> bySource.put(e.getKey(), e.getValue()));
            long messages;
            try (ResultSet m = st.executeQuery("SELECT COUNT(*) FROM messages")) {
                messages = m.next() ? m.getLong(1) : 0;
            }
            return new Counts(total, active, ended, archived, bySource, messages);
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot count sessions: " + Sqlite.describe(e), e);
        }
    }

    @Override
    public void close() {
        closeQuietly(conn);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing to do
        }
    }
}
