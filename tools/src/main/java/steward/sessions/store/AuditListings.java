package steward.sessions.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.StewardError;

/**
 * The audit's listing of each {@code state.db} this process read, kept and brought up to date from what changed: the
 * long-lived server lists a large home once, then re-reads only what moved. A listing whose database did not change
 * ({@link Sqlite#changeStamp}) is used as it is. Otherwise each session's own columns are compared, in one scan, with
 * those of the kept listing ({@link SessionStore#rowDigests}), and a session is read again, messages included, when
 * they differ, when it is new, or when it has a message newer than the last listing. Hermes gives every message it
 * writes a new id (AUTOINCREMENT), rewrites included, and sets {@code message_count} when it removes any; anything
 * else (a hand edit removing some messages of a session and not its count) leaves that session's count and last
 * activity at most {@link #FULL_EVERY_NANOS} old, and only larger and newer than the truth: a rule then sees it as
 * bigger and more recent, the side on which rules act less. {@code session_apply} never uses this listing: it lists
 * again inside its transaction and skips what changed since the audit.
 */
public final class AuditListings {
    private AuditListings() {}

    /** How many homes are kept (a server serves one; tests open many). */
    static final int HOMES = 2;

    /** A full listing at least this often. */
    static final long FULL_EVERY_NANOS = 10L * 60 * 1_000_000_000L;

    /** How the last listing of a home was made (for tests and benchmarks). */
    public enum How {
        FULL,
        UNCHANGED,
        UPDATED
    }

    private record Entry(
            String stamp,
            long maxMessageId,
            List<SessionRow> rows,
            Map<String, SessionRow> byId,
            Map<String, byte[]> digests,
            long fullAt,
            How how,
            int reread) {}

    private static final Map<Path, Entry> KEPT = new LinkedHashMap<>(4, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Entry> eldest) {
            return size() > HOMES;
        }
    };

    /** The audit's rows of the sessions in {@code db}, in rowid order. */
    public static synchronized List<SessionRow> rows(Path db) {
        Path key = db.toAbsolutePath().normalize();
        String stamp = Sqlite.changeStamp(key);
        Entry old = KEPT.get(key);
        if (old != null && old.stamp.equals(stamp)) {
            KEPT.put(
                    key,
                    new Entry(stamp, old.maxMessageId, old.rows, old.byId, old.digests, old.fullAt, How.UNCHANGED, 0));
            return old.rows;
        }
        Entry fresh;
        try (SessionStore store = SessionStore.openReadOnly(db)) {
            boolean full = old == null || System.nanoTime() - old.fullAt > FULL_EVERY_NANOS;
            fresh = inOneRead(store, () -> full ? full(store, stamp) : updated(store, stamp, old));
        }
        KEPT.put(key, fresh);
        return fresh.rows;
    }

    /** How the last {@link #rows} call for {@code db} listed it, and how many sessions it read again; null: never. */
    public static synchronized String lastHow(Path db) {
        Entry e = KEPT.get(db.toAbsolutePath().normalize());
        return e == null ? null : e.how + (e.how == How.UPDATED ? " " + e.reread : "");
    }

    /** Forgets the listing of {@code db}: its next audit lists it whole (after Steward itself wrote old message ids). */
    public static synchronized void forget(Path db) {
        KEPT.remove(db.toAbsolutePath().normalize());
    }

    private static Entry full(SessionStore store, String stamp) {
        // the message ids and the columns first: a change while the rows are read is seen again next time, never missed
        long max = store.touchedSince(Long.MAX_VALUE).maxMessageId();
        Map<String, byte[]> digests = store.rowDigests();
        List<SessionRow> rows = store.listSessionsForAudit();
        Map<String, SessionRow> byId = new HashMap<>(rows.size() * 2);
        for (SessionRow r : rows) byId.put(r.id(), r);
        return new Entry(stamp, max, List.copyOf(rows), byId, digests, System.nanoTime(), How.FULL, rows.size());
    }

    private static Entry updated(SessionStore store, String stamp, Entry old) {
        SessionStore.Touched touched = store.touchedSince(old.maxMessageId);
        if (touched.maxMessageId() < old.maxMessageId) return full(store, stamp); // ids went back: not Hermes' writes
        Map<String, byte[]> digests = store.rowDigests();
        Set<String> again = new HashSet<>();
        for (Map.Entry<String, byte[]> d : digests.entrySet()) {
            byte[] was = old.digests.get(d.getKey());
            if (was == null
                    || !Arrays.equals(was, d.getValue())
                    || touched.sessionIds().contains(d.getKey())) again.add(d.getKey());
        }
        Map<String, SessionRow> reread = store.auditRows(again);
        List<SessionRow> rows = new ArrayList<>(digests.size());
        Map<String, SessionRow> byId = new HashMap<>(digests.size() * 2);
        for (String id : digests.keySet()) {
            SessionRow r = again.contains(id) ? reread.get(id) : old.byId.get(id);
            if (r == null) continue; // (one read transaction: a session in the scan is there for the re-read)
            rows.add(r);
            byId.put(id, r);
        }
        return new Entry(
                stamp, touched.maxMessageId(), List.copyOf(rows), byId, digests, old.fullAt, How.UPDATED, again.size());
    }

    private interface Read {
        Entry run();
    }

    /** Runs {@code read} in one read transaction: the message ids and the sessions come from the same snapshot. */
    private static Entry inOneRead(SessionStore store, Read read) {
        Connection c = store.connection();
        try {
            c.setAutoCommit(false);
            try {
                return read.run();
            } finally {
                c.rollback();
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot list sessions: " + Sqlite.describe(e), e);
        }
    }
}
