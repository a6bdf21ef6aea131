package steward.sessions.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;
import steward.StewardError;

/**
 * The one place that opens SQLite files and sets their pragmas. Hermes may be running and writing
 * the same {@code state.db}: reads use read-only connections; writes go through
 * {@link #immediate(Connection, SqlWork)} which starts {@code BEGIN IMMEDIATE} and retries
 * SQLITE_BUSY a bounded number of times with jitter, as Hermes does. The journal mode is never
 * changed, the file is never replaced or checkpoint-truncated; it is vacuumed only by {@link #vacuum}, which the
 * user's explicit {@code session_apply vacuum} runs after a verified copy.
 */
public final class Sqlite {
    private Sqlite() {}

    /** Busy timeout per attempt (Hermes uses 1 s). */
    public static final int BUSY_TIMEOUT_MS = 1000;
    /** Attempts to take the write lock (Hermes retries 15 times). */
    public static final int WRITE_ATTEMPTS = 15;

    public static final int JITTER_MIN_MS = 20;
    public static final int JITTER_MAX_MS = 150;

    @FunctionalInterface
    public interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    static {
        try {
            Class.forName("org.sqlite.JDBC");
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A cheap stamp of what a database file holds, without opening it: size, time and file key of the file and of its
     * WAL, the database header's change counter, and the WAL-index header (the {@code -shm} file's first 48 bytes,
     * whose change counter and frame count move at every commit in WAL mode). Sizes and times alone miss a commit that
     * restarts the WAL from its start within one tick of the file system's clock: the WAL keeps its size, and its time
     * reads the same. Two stats and two small reads; an absent or unreadable part reads "-".
     */
    public static String changeStamp(Path db) {
        Path wal = db.resolveSibling(db.getFileName() + "-wal"), shm = db.resolveSibling(db.getFileName() + "-shm");
        return stat(db) + "|" + head(db, 24, 4) + "|" + stat(wal) + "|" + head(shm, 0, 48);
    }

    private static String stat(Path f) {
        try {
            BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
            return a.size() + ":" + a.lastModifiedTime() + ":" + a.fileKey();
        } catch (IOException e) {
            return "-";
        }
    }

    private static String head(Path f, long at, int n) {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(n);
            while (b.hasRemaining() && ch.read(b, at + b.position()) > 0) {
                // read on: a file shorter than the header reads what it holds
            }
            return HexFormat.of().formatHex(b.array(), 0, b.position());
        } catch (IOException e) {
            return "-";
        }
    }

    public static Connection openReadOnly(Path db) {
        return openReadOnly(db, BUSY_TIMEOUT_MS * 5);
    }

    /**
     * A read-only connection whose reads wait at most {@code busyTimeoutMs} for a lock another process holds (a writer
     * in rollback-journal mode, an exclusive lock), then fail with SQLITE_BUSY ({@link #isBusy}).
     */
    public static Connection openReadOnly(Path db, int busyTimeoutMs) {
        requireFile(db);
        SQLiteConfig cfg = new SQLiteConfig();
        cfg.setReadOnly(true);
        cfg.setBusyTimeout(busyTimeoutMs);
        cfg.setOpenMode(org.sqlite.SQLiteOpenMode.READONLY);
        if (readOnlySnapshot(db)) {
            // a WAL database in a directory this process cannot write, with no -wal file: every committed page is in
            // the
            // file itself, but SQLite cannot create the -shm it needs to coordinate; nobody who shares our permissions
            // can write it either, so it is read as the immutable file it is
            cfg.setOpenMode(org.sqlite.SQLiteOpenMode.OPEN_URI);
            return open("file:" + uriPath(db) + "?immutable=1", db, cfg);
        }
        if (!Files.isWritable(db.toAbsolutePath().getParent()) && !Files.exists(sibling(db, "-shm"))) {
            throw new StewardError(
                    "state.db",
                    "permission denied: cannot create " + sibling(db, "-shm") + " (SQLite's coordination "
                            + "file for the " + sibling(db, "-wal")
                            + " Hermes is writing) in a directory this process cannot write");
        }
        return open(db, cfg);
    }

    /** A read-only open that must use {@code immutable=1}: unwritable directory, no -wal and no -shm next to the file. */
    static boolean readOnlySnapshot(Path db) {
        Path dir = db.toAbsolutePath().getParent();
        return dir != null
                && !Files.isWritable(dir)
                && !Files.exists(sibling(db, "-wal"))
                && !Files.exists(sibling(db, "-shm"));
    }

    private static Path sibling(Path db, String suffix) {
        return db.toAbsolutePath().resolveSibling(db.getFileName() + suffix);
    }

    private static String uriPath(Path db) {
        StringBuilder sb = new StringBuilder();
        for (char ch : db.toAbsolutePath().toString().toCharArray()) {
            if (ch == '%' || ch == '?' || ch == '#' || ch == ' ') sb.append(String.format("%%%02X", (int) ch));
            else sb.append(ch);
        }
        return sb.toString();
    }

    public static Connection openReadWrite(Path db) {
        requireFile(db);
        SQLiteConfig cfg = new SQLiteConfig();
        cfg.setBusyTimeout(BUSY_TIMEOUT_MS);
        cfg.enforceForeignKeys(false); // Hermes does not enable them; deleting in our order keeps them valid anyway
        return open(db, cfg);
    }

    /** A private in-memory database (scratch work such as tokenising a text with an FTS table's own tokenizer). */
    public static Connection openInMemory() {
        return open(":memory:", Path.of(":memory:"), new SQLiteConfig());
    }

    /** Opens (creating if needed) a database that Steward owns itself, e.g. benchmark or index files. */
    public static Connection openOwned(Path db) {
        SQLiteConfig cfg = new SQLiteConfig();
        cfg.setBusyTimeout(BUSY_TIMEOUT_MS);
        cfg.setJournalMode(SQLiteConfig.JournalMode.WAL);
        cfg.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        return open(db, cfg);
    }

    private static Connection open(Path db, SQLiteConfig cfg) {
        return open(db.toAbsolutePath().toString(), db, cfg);
    }

    private static Connection open(String name, Path db, SQLiteConfig cfg) {
        try {
            return cfg.createConnection("jdbc:sqlite:" + name);
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot open " + db + ": " + describe(e), e);
        }
    }

    private static void requireFile(Path db) {
        if (Files.isDirectory(db)) throw new StewardError("state.db", db + " is a directory, not a file");
        if (!Files.isRegularFile(db)) {
            throw new StewardError("state.db", "no such file: " + db);
        }
    }

    /**
     * Runs {@code work} inside one {@code BEGIN IMMEDIATE} transaction. If the write lock cannot be had
     * within the retry budget, nothing is changed and a {@link StewardError} says so.
     */
    public static <T> T immediate(Connection c, SqlWork<T> work) {
        return immediate(c, work, WRITE_ATTEMPTS);
    }

    static <T> T immediate(Connection c, SqlWork<T> work, int attempts) {
        SQLException last = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            try (Statement st = c.createStatement()) {
                st.execute("BEGIN IMMEDIATE");
                last = null;
                break;
            } catch (SQLException e) {
                if (!isBusy(e))
                    throw new StewardError("state.db", "cannot start a write transaction: " + describe(e), e);
                last = e;
                sleepJitter();
            }
        }
        if (last != null) {
            throw new StewardError(
                    "state.db",
                    "database stayed locked by another writer after " + attempts + " attempts; nothing was changed",
                    last);
        }
        try {
            T result = work.run(c);
            try (Statement st = c.createStatement()) {
                st.execute("COMMIT");
            }
            return result;
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c);
            if (e instanceof StewardError se) throw se;
            throw new StewardError("state.db", "write failed and was rolled back: " + describe(e), e);
        }
    }

    /**
     * Runs {@code VACUUM} on {@code c} (in autocommit mode, no statement open), with Hermes' write discipline: each
     * attempt waits at most the connection's busy timeout for the write lock, a busy attempt sleeps 20–150 ms of jitter
     * and tries again, at most {@code attempts} times; then it gives up and nothing was changed. Returns the attempts used.
     * Once it has the lock, VACUUM holds it until it is done: Hermes' writers wait (their own retries) meanwhile.
     */
    public static int vacuum(Connection c, int attempts) {
        SQLException last = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            try (Statement st = c.createStatement()) {
                st.execute("VACUUM");
                return attempt;
            } catch (SQLException e) {
                if (!isBusy(e))
                    throw new StewardError(
                            "state.db",
                            "VACUUM failed (SQLite rolled it back, nothing was changed): " + describe(e),
                            e);
                last = e;
                if (attempt < attempts) sleepJitter();
            }
        }
        throw new StewardError(
                "state.db",
                "VACUUM gave up: Hermes held the database busy through " + attempts + " attempts (" + BUSY_TIMEOUT_MS
                        + " ms each, with jitter); nothing was changed, try again when Hermes is idle",
                last);
    }

    /** {@code PRAGMA wal_checkpoint(PASSIVE)}: copies what it can of the WAL into the file without waiting for anyone. */
    public static void checkpointPassive(Connection c) {
        try (Statement st = c.createStatement()) {
            st.execute("PRAGMA wal_checkpoint(PASSIVE)");
        } catch (SQLException e) {
            // best effort, as Hermes does: the next checkpoint (Hermes' or SQLite's own) does it
        }
    }

    /** Whether {@code e} or one of its causes is SQLite's "busy" or "locked". */
    public static boolean isBusy(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof SQLException se && isBusy(se)) return true;
        return false;
    }

    public static boolean isBusy(SQLException e) {
        if (e instanceof SQLiteException se) {
            SQLiteErrorCode code = se.getResultCode();
            return code == SQLiteErrorCode.SQLITE_BUSY
                    || code == SQLiteErrorCode.SQLITE_LOCKED
                    || code.name().startsWith("SQLITE_BUSY")
                    || code.name().startsWith("SQLITE_LOCKED");
        }
        String m = String.valueOf(e.getMessage());
        return m.contains("SQLITE_BUSY") || m.contains("database is locked");
    }

    public static String describe(Throwable e) {
        String m = e.getMessage();
        if (m == null) return e.getClass().getSimpleName();
        if (e instanceof SQLiteException se) {
            String code = se.getResultCode().name();
            if (code.equals("SQLITE_READONLY_DIRECTORY")
                    || code.equals("SQLITE_READONLY_CANTINIT")
                    || code.equals("SQLITE_READONLY_CANTLOCK")) {
                return "permission denied: SQLite cannot create its -wal/-shm coordination files in the database's directory";
            }
            if (code.equals("SQLITE_PERM") || code.equals("SQLITE_AUTH")) return "permission denied";
            if (code.startsWith("SQLITE_CANTOPEN")) return "cannot open the file (missing, or permission denied)";
        }
        return m.replace(
                        "[SQLITE_NOTADB] File opened that is not a database file (file is not a database)",
                        "not an SQLite database")
                .lines()
                .findFirst()
                .orElse(m);
    }

    private static void rollbackQuietly(Connection c) {
        try (Statement st = c.createStatement()) {
            st.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // already rolled back by SQLite
        }
    }

    private static void sleepJitter() {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(JITTER_MIN_MS, JITTER_MAX_MS + 1));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }
}
