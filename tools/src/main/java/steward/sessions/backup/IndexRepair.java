package steward.sessions.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.sessions.store.FtsIndex;
import steward.sessions.store.FtsNulRows;
import steward.sessions.store.Sqlite;

/**
 * The explicit repair of Hermes' search index: FTS5's {@code rebuild} of every FTS5 table from the messages, after a
 * verified copy of {@code state.db} is written to {@code <state dir>/backups/state-db/}. Runs only when asked
 * ({@code steward repair-index}); by default only when the index is found inconsistent. The rebuild holds Hermes'
 * write lock for its duration (seconds on a large store).
 */
public final class IndexRepair {
    static final String CTX = "repair-index";

    private final StewardPaths paths;
    private final Clock clock;

    public IndexRepair(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
    }

    public record Result(
            String database,
            FtsIndex.Report before,
            boolean rebuilt,
            String backup_path,
            long backup_bytes,
            FtsIndex.Report after,
            String message) {}

    /** Rebuilds when an FTS table is inconsistent, or always with {@code force}. */
    public Result run(boolean force) {
        Path db = paths.stateDb();
        if (!Files.isRegularFile(db)) throw new StewardError(CTX, "no state.db at " + db);
        FtsIndex.Report before = FtsIndex.check(db);
        if (before.tables().isEmpty()) throw new StewardError(CTX, db + " has no FTS5 table to rebuild");
        if (before.ok() && !force) {
            return new Result(
                    db.toString(), before, false, null, 0, before, "the search index is consistent; nothing to do");
        }
        Path backup = backup(db);
        long size;
        try {
            size = Files.size(backup);
        } catch (IOException e) {
            throw new StewardError(CTX, "cannot read the backup " + backup + ": " + e.getMessage(), e);
        }
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, cc -> {
                List<String> tables = FtsIndex.tables(cc);
                try (Statement st = cc.createStatement()) {
                    for (String t : tables)
                        st.execute("INSERT INTO " + quote(t) + "(" + quote(t) + ") VALUES('rebuild')");
                    // rows holding a NUL (Hermes' list content): indexed as every SQLite reads them, not as this one
                    // does, or Hermes on an older SQLite would find the rebuilt index damaged (FtsNulRows)
                    FtsNulRows.indexByPrefix(cc, null);
                    for (String t : tables)
                        st.execute("INSERT INTO " + quote(t) + "(" + quote(t) + ") VALUES('integrity-check')");
                }
                return null;
            });
        } catch (SQLException e) {
            throw new StewardError(CTX, "cannot open " + db + ": " + Sqlite.describe(e), e);
        } catch (StewardError e) {
            throw new StewardError(
                    CTX,
                    "the rebuild failed and was rolled back (backup kept at " + backup + "): " + e.getMessage(),
                    e);
        }
        FtsIndex.Report after = FtsIndex.check(db);
        return new Result(
                db.toString(),
                before,
                true,
                backup.toString(),
                size,
                after,
                after.ok()
                        ? "rebuilt "
                                + String.join(
                                        ", ",
                                        before.tables().stream()
                                                .map(FtsIndex.TableCheck::table)
                                                .toList()) + " from the messages"
                        : "rebuilt, but the check still fails: " + after.summary());
    }

    /** A consistent copy of the database (SQLite's VACUUM INTO on a read-only connection), read back before anything changes. */
    Path backup(Path db) {
        return StateCopy.write(db, paths.stateDir(), "state", clock.instant(), CTX, false);
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
