package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.StewardError;
import steward.Work;
import steward.sessions.store.MessageContent;
import steward.sessions.store.SessionStore;
import steward.sessions.store.Sqlite;

/**
 * The user and assistant messages of a Hermes {@code state.db} (tool output is not indexed, nor messages the user took
 * back with a rewind). One session is one group; a message's item carries its neighbouring turns as context.
 * <p>Change detection, cheapest first: the token is {@link Sqlite#changeStamp} of {@code state.db} (two stats and
 * two small reads: sizes, times, file keys and SQLite's own change counters). When it moved, one indexed query reads the table's fingerprint (highest id, row count, active rows); when
 * that moved too, the rows above the last indexed id say which sessions grew, and if nothing else changed only their new
 * messages (and the turns before them, whose context changed) are written. Anything else (deleted or rewound messages)
 * falls back to comparing every session's signature, read from an index of {@code messages} without touching the text.
 */
public final class HermesSessions implements RecallSource {
    /** Neighbouring turns on each side folded into a message's context field. */
    public static final int CONTEXT_WINDOW = 2;

    /**
     * How long a read of state.db waits for a lock another process holds (a Hermes writer in rollback-journal mode, an
     * exclusive lock) before it gives up with {@link RecallSource.Locked}: recall then ranks what is indexed and says the
     * sessions may be stale, and the next sync tries again. Hermes' own writes take milliseconds; the store's usual 5 s
     * would be paid by every recall call while a writer holds the lock. Reads only: Steward's writes keep Hermes' busy
     * discipline ({@link Sqlite#immediate}).
     */
    public static final int READ_WAIT_MS = 250;

    static final String FP = "fp", SESSION = "s:", TITLE = "t:";

    private final Path db;
    /**
     * The sync's store, and the store of tool calls' reads ({@link #resolve}, {@link #recentMessageUris}, {@link #gone}):
     * a connection of their own, so a call's read never shares the sync's read transaction (whose snapshot could then
     * predate a commit the sync's token has seen) and never closes the connection a sync is reading.
     */
    private final Kept sync = new Kept(), reads = new Kept();

    private volatile Boolean hasActive;

    public HermesSessions(Path stateDb) {
        this.db = stateDb;
    }

    @Override
    public String id() {
        return "hermes-sessions";
    }

    @Override
    public List<String> kinds() {
        return List.of(RecallItem.SESSION);
    }

    @Override
    public String token() {
        return Sqlite.changeStamp(db);
    }

    /**
     * A store kept while {@code state.db} is the file it opened (null when there is no state.db): a state.db removed, or
     * replaced by another file (a restore moved into place), closes it, as an open connection would go on reading the
     * file that is gone. Callers hold the holder's monitor.
     */
    private final class Kept {
        private SessionStore store;
        private Object key;

        SessionStore get() {
            Object now = fileKey(db);
            if (store != null && (now == null || !now.equals(key))) close();
            if (store == null && now != null) {
                store = open();
                key = now;
            }
            return store;
        }

        void close() {
            if (store != null) store.close();
            store = null;
        }
    }

    /** The sync's store (see {@link Kept}). */
    SessionStore store() {
        synchronized (sync) {
            return sync.get();
        }
    }

    /** Closes the sync's store (it is opened again by the next sync). */
    private void dropStore() {
        synchronized (sync) {
            sync.close();
        }
    }

    private SessionStore open() {
        SessionStore s;
        try {
            s = SessionStore.openReadOnly(db, READ_WAIT_MS);
        } catch (StewardError e) {
            if (Sqlite.isBusy(e)) throw locked();
            throw e;
        }
        hasActive = s.messageColumns().contains("active") && s.messageColumns().contains("compacted");
        return s;
    }

    /** What names this file on its file system (device and inode), its path where there is none; null: no such file. */
    private static Object fileKey(Path f) {
        try {
            BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
            if (!a.isRegularFile()) return null;
            return a.fileKey() != null ? a.fileKey() : f;
        } catch (IOException e) {
            return null;
        }
    }

    /** Rows the user can still see: Hermes hides messages taken back by a rewind (active 0, not compacted). */
    private String visible() {
        return hasActive ? " AND (active = 1 OR compacted = 1)" : "";
    }

    private String activeSum() {
        return hasActive ? "TOTAL(active)" : "0";
    }

    @Override
    public Map<String, String> sync(Map<String, String> state, boolean thorough, Sink sink, Work work) {
        SessionStore s;
        try {
            s = store();
        } catch (StewardError e) {
            dropStore();
            throw e;
        }
        if (s == null) { // no state.db (any more): nothing of it stays indexed
            for (String k : state.keySet())
                if (k.startsWith(SESSION)) sink.deleteGroup("session:" + k.substring(SESSION.length()));
            return Map.of();
        }
        try {
            String fp = fingerprint(s);
            if (!thorough && fp.equals(state.get(FP))) return state;
            if (!thorough && state.containsKey(FP)) {
                Map<String, String> next = appendOnly(s, state, fp, sink, work);
                if (next != null) return next;
            }
            return reconcile(s, state, fp, sink, work);
        } catch (SQLException e) {
            if (Sqlite.isBusy(e)) throw locked();
            throw new StewardError("recall", "cannot read messages of " + db + ": " + Sqlite.describe(e));
        }
    }

    private RecallSource.Locked locked() {
        return new RecallSource.Locked(
                "state.db",
                "locked by another process (a writer); Steward waited " + READ_WAIT_MS + " ms and read nothing of "
                        + db);
    }

    /** "highest id:rows:visible" of the messages table (read from its indexes, not its rows). */
    String fingerprint(SessionStore s) throws SQLException {
        try (Statement st = s.connection().createStatement();
                ResultSet rs = st.executeQuery("SELECT MAX(id), COUNT(*), " + activeSum() + " FROM messages")) {
            rs.next();
            return rs.getLong(1) + ":" + rs.getLong(2) + ":" + (long) rs.getDouble(3);
        }
    }

    private static long[] parse(String sig) {
        String[] p = sig.split(":");
        return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2])};
    }

    /**
     * When the only change is new rows above the last indexed id, writes their sessions' new messages; returns null
     * when something else changed too (deletions, rewinds), so the caller reconciles every session.
     */
    private Map<String, String> appendOnly(SessionStore s, Map<String, String> state, String fp, Sink sink, Work work)
            throws SQLException {
        long[] before = parse(state.get(FP)), now = parse(fp);
        Map<String, long[]> grown = new LinkedHashMap<>();
        try (PreparedStatement ps = s.connection()
                .prepareStatement("SELECT session_id, MAX(id), COUNT(*), " + activeSum()
                        + " FROM messages NOT INDEXED WHERE id > ? GROUP BY session_id")) {
            ps.setLong(1, before[0]);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next())
                    grown.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), (long) rs.getDouble(4)});
            }
        }
        long rows = 0, act = 0;
        for (long[] g : grown.values()) {
            rows += g[1];
            act += g[2];
        }
        if (before[1] + rows != now[1] || before[2] + act != now[2]) return null;
        Map<String, String> next = new HashMap<>(state);
        int done = 0;
        for (Map.Entry<String, long[]> e : grown.entrySet()) {
            work.checkpoint("recall index");
            String sid = e.getKey();
            String old = state.get(SESSION + sid);
            long[] g = e.getValue();
            long[] o = old == null ? new long[] {0, 0, 0} : parse(old);
            String title = title(s, sid);
            String titleSig = Long.toHexString(Identity.fnv(title == null ? "" : title));
            if (old == null
                    || !titleSig.equals(state.get(TITLE + sid))
                    || !appendTail(s, sid, before[0], title, sink)) {
                sink.replaceGroup("session:" + sid, items(s, sid));
            }
            next.put(SESSION + sid, Math.max(o[0], g[0]) + ":" + (o[1] + g[1]) + ":" + (o[2] + g[2]));
            next.put(TITLE + sid, titleSig);
            work.progress(++done, grown.size(), "indexing new messages");
        }
        next.put(FP, fp);
        return next;
    }

    /**
     * Writes a session's messages above {@code watermark} and re-writes the {@link #CONTEXT_WINDOW} turns before them
     * (their context now holds the new turns). False when the session is short enough to be rewritten whole.
     */
    private boolean appendTail(SessionStore s, String sid, long watermark, String title, Sink sink)
            throws SQLException {
        int fresh;
        try (PreparedStatement ps = s.connection()
                .prepareStatement("SELECT COUNT(*) FROM messages WHERE session_id = ? AND id > ?"
                        + " AND role IN ('user','assistant')" + visible())) {
            ps.setString(1, sid);
            ps.setLong(2, watermark);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                fresh = rs.getInt(1);
            }
        }
        List<Msg> tail = messages(s, sid, fresh + 4 * CONTEXT_WINDOW + 4);
        int first = -1;
        for (int i = 0; i < tail.size(); i++)
            if (tail.get(i).id > watermark) {
                first = i;
                break;
            }
        if (first < 0) return true; // only tool rows or empty texts arrived
        int from = first - CONTEXT_WINDOW;
        if (from - CONTEXT_WINDOW < 0) return false; // the window does not reach back far enough: rewrite the session
        boolean pinned = pinned(s, sid);
        for (int i = from; i < tail.size(); i++) sink.upsert(item(sid, title, pinned, tail, i));
        return true;
    }

    /** Compares every session's signature with the one indexed and rewrites what differs. */
    private Map<String, String> reconcile(SessionStore s, Map<String, String> state, String fp, Sink sink, Work work)
            throws SQLException {
        Map<String, String> now = new LinkedHashMap<>();
        try (Statement st = s.connection().createStatement();
                ResultSet rs = st.executeQuery("SELECT session_id, MAX(id), COUNT(*), " + activeSum()
                        + " FROM messages GROUP BY session_id")) {
            while (rs.next())
                now.put(rs.getString(1), rs.getLong(2) + ":" + rs.getLong(3) + ":" + (long) rs.getDouble(4));
        }
        Map<String, String> next = new HashMap<>();
        next.put(FP, fp);
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, String> e : now.entrySet()) {
            next.put(SESSION + e.getKey(), e.getValue());
            if (!e.getValue().equals(state.get(SESSION + e.getKey()))) changed.add(e.getKey());
            else if (state.containsKey(TITLE + e.getKey())) next.put(TITLE + e.getKey(), state.get(TITLE + e.getKey()));
        }
        for (String k : state.keySet()) {
            if (k.startsWith(SESSION) && !now.containsKey(k.substring(SESSION.length())))
                sink.deleteGroup("session:" + k.substring(SESSION.length()));
        }
        // newest sessions first: a build that is cancelled or read while it runs has the recent history
        changed.sort((a, b) -> Long.compare(parse(now.get(b))[0], parse(now.get(a))[0]));
        int done = 0;
        for (String sid : changed) {
            work.checkpoint("recall index");
            String title = title(s, sid);
            next.put(TITLE + sid, Long.toHexString(Identity.fnv(title == null ? "" : title)));
            sink.replaceGroup("session:" + sid, items(s, sid, title));
            if (++done % 25 == 0 || done == changed.size()) work.progress(done, changed.size(), "indexing sessions");
        }
        return next;
    }

    private record Msg(long id, String text, double ts) {}

    /** A session's visible user/assistant messages with text, oldest first; the newest {@code limit} when limit > 0. */
    private List<Msg> messages(SessionStore s, String sid, int limit) throws SQLException {
        String sql = "SELECT id, content, timestamp FROM messages WHERE session_id = ? AND role IN ('user','assistant')"
                + visible() + " ORDER BY id " + (limit > 0 ? "DESC LIMIT " + limit : "");
        List<Msg> out = new ArrayList<>();
        try (PreparedStatement ps = s.connection().prepareStatement(sql)) {
            ps.setString(1, sid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String text = MessageContent.text(rs.getString(2)).strip();
                    if (!text.isEmpty()) out.add(new Msg(rs.getLong(1), text, rs.getDouble(3)));
                }
            }
        }
        if (limit > 0) Collections.reverse(out);
        return out;
    }

    private String title(SessionStore s, String sid) throws SQLException {
        try (PreparedStatement ps = s.connection().prepareStatement("SELECT title FROM sessions WHERE id = ?")) {
            ps.setString(1, sid);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private boolean pinned(SessionStore s, String sid) throws SQLException {
        if (!s.hasSessionColumn("pinned")) return false;
        try (PreparedStatement ps = s.connection().prepareStatement("SELECT pinned FROM sessions WHERE id = ?")) {
            ps.setString(1, sid);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getInt(1) != 0;
            }
        }
    }

    List<RecallItem> items(SessionStore s, String sid) throws SQLException {
        return items(s, sid, title(s, sid));
    }

    private List<RecallItem> items(SessionStore s, String sid, String title) throws SQLException {
        List<Msg> ms = messages(s, sid, 0);
        boolean pinned = pinned(s, sid);
        List<RecallItem> out = new ArrayList<>(ms.size());
        for (int i = 0; i < ms.size(); i++) out.add(item(sid, title, pinned, ms, i));
        return out;
    }

    private static RecallItem item(String sid, String title, boolean pinned, List<Msg> ms, int i) {
        StringBuilder ctx = new StringBuilder();
        for (int j = Math.max(0, i - CONTEXT_WINDOW); j <= Math.min(ms.size() - 1, i + CONTEXT_WINDOW); j++) {
            if (j != i) ctx.append(ms.get(j).text).append('\n');
        }
        Msg m = ms.get(i);
        return new RecallItem(
                uri(sid, m.id),
                RecallItem.SESSION,
                "session:" + sid,
                title == null ? "" : title,
                m.text,
                ctx.toString(),
                m.ts,
                sid,
                pinned);
    }

    static String uri(String sid, long messageId) {
        return "steward://session/" + sid + "/message/" + messageId;
    }

    @Override
    public boolean owns(String uri) {
        return uri.startsWith("steward://session/");
    }

    @Override
    public RecallItem resolve(String uri) {
        String[] parts = uri.substring("steward://".length()).split("/");
        if (parts.length != 4 || !parts[2].equals("message"))
            throw new StewardError("recall", "bad session URI " + uri);
        long id;
        try {
            id = Long.parseLong(parts[3]);
        } catch (NumberFormatException e) {
            throw new StewardError("recall", "bad session URI " + uri);
        }
        synchronized (reads) {
            SessionStore s = reads.get();
            if (s == null) return null;
            try {
                for (RecallItem it : items(s, parts[1])) if (it.uri().equals(uri)) return it;
                return null;
            } catch (SQLException e) {
                throw new StewardError("recall", "cannot read session " + parts[1] + ": " + Sqlite.describe(e));
            }
        }
    }

    /** URIs of the newest {@code n} indexed messages of a session (empty without a session id or state.db). */
    public Set<String> recentMessageUris(String sessionId, int n) {
        Set<String> out = new HashSet<>();
        if (sessionId == null) return out;
        synchronized (reads) {
            SessionStore s = reads.get();
            if (s == null) return out;
            recent(s, sessionId, n, out);
        }
        return out;
    }

    /**
     * Which of these session ids are no longer in state.db (read now, on the calls' connection); empty when there is no
     * state.db to read.
     */
    public Set<String> gone(Set<String> sessionIds) {
        Set<String> out = new HashSet<>();
        if (sessionIds.isEmpty()) return out;
        synchronized (reads) {
            SessionStore s = reads.get();
            if (s == null) return out;
            try (PreparedStatement ps = s.connection().prepareStatement("SELECT 1 FROM sessions WHERE id = ?")) {
                for (String id : sessionIds) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) out.add(id);
                    }
                }
            } catch (SQLException e) {
                throw new StewardError("recall", "cannot read sessions of " + db + ": " + Sqlite.describe(e));
            }
        }
        return out;
    }

    private static void recent(SessionStore s, String sessionId, int n, Set<String> out) {
        try (PreparedStatement ps = s.connection()
                .prepareStatement("SELECT id FROM messages WHERE session_id = ? "
                        + "AND role IN ('user','assistant') ORDER BY id DESC LIMIT ?")) {
            ps.setString(1, sessionId);
            ps.setInt(2, n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(uri(sessionId, rs.getLong(1)));
            }
        } catch (SQLException e) {
            throw new StewardError("recall", "cannot read session " + sessionId + ": " + Sqlite.describe(e));
        }
    }

    @Override
    public void close() {
        dropStore();
        synchronized (reads) {
            reads.close();
        }
    }
}
