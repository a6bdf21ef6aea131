package steward.sessions.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import steward.StewardError;
import steward.sessions.store.Sqlite;
import steward.state.AtomicFiles;

/**
 * A verified copy of {@code state.db} in {@code <state dir>/backups/state-db/}: SQLite's {@code VACUUM INTO} on a
 * read-only connection (a WAL reader: Hermes' writers are never blocked), then the copy is read back (the {@code quick}
 * check of the sessions and messages tables, or a full {@code PRAGMA integrity_check}) before anything changes.
 * A copy that does not read back is removed and nothing else happens.
 */
public final class StateCopy {
    private StateCopy() {}

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    public static Path dir(Path stateDir) {
        return stateDir.resolve("backups").resolve("state-db");
    }

    /** Writes {@code <prefix>-<UTC stamp>.db} and verifies it; {@code full}: whole-file integrity check, else quick checks. */
    public static Path write(Path db, Path stateDir, String prefix, Instant now, String ctx, boolean full) {
        return written(db, stateDir, prefix, now, ctx, full).path();
    }

    /** A verified copy and how long its {@code VACUUM INTO} and its check took, in seconds. */
    public record Written(Path path, double copySeconds, double checkSeconds) {}

    public static Written written(Path db, Path stateDir, String prefix, Instant now, String ctx, boolean full) {
        Path dir = dir(stateDir);
        Path out = dir.resolve(prefix + "-" + STAMP.format(now) + ".db");
        for (int i = 1; Files.exists(out); i++) out = dir.resolve(prefix + "-" + STAMP.format(now) + "-" + i + ".db");
        try {
            AtomicFiles.ensurePrivateDir(dir);
        } catch (IOException e) {
            throw new StewardError(ctx, "cannot create " + dir + ": " + e.getMessage() + "; nothing was changed", e);
        }
        long t0 = System.nanoTime();
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement()) {
            st.execute("VACUUM INTO '" + out.toString().replace("'", "''") + "'");
        } catch (SQLException e) {
            deleteQuietly(out);
            throw new StewardError(
                    ctx,
                    "cannot back up " + db + " to " + out + ": " + Sqlite.describe(e) + "; nothing was changed",
                    e);
        }
        AtomicFiles.setMode(out, AtomicFiles.FILE_MODE);
        long t1 = System.nanoTime();
        // the copy must read back (in quick mode the FTS tables are copied as they are, damage included: that is the
        // point)
        try (Connection c = Sqlite.openReadOnly(out);
                Statement st = c.createStatement()) {
            for (String sql : full
                    ? List.of("PRAGMA integrity_check")
                    : List.of("PRAGMA quick_check(sessions)", "PRAGMA quick_check(messages)")) {
                List<String> lines = new ArrayList<>();
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next() && lines.size() < 3) lines.add(rs.getString(1));
                }
                if (lines.size() != 1 || !"ok".equals(lines.get(0)))
                    throw new SQLException(sql + " of the copy failed: " + String.join("; ", lines));
            }
        } catch (SQLException | StewardError e) {
            deleteQuietly(out);
            throw new StewardError(
                    ctx, "the backup " + out + " does not read back: " + e.getMessage() + "; nothing was changed", e);
        }
        return new Written(out, (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9);
    }

    /** A copy in {@link #dir}: its file name, size and age. */
    public record Copy(String name, long bytes, double age_days) {}

    /** The copies in {@code <state dir>/backups/state-db/}, oldest first (none when the directory does not exist). */
    public static List<Copy> list(Path stateDir, Instant now) {
        Path dir = dir(stateDir);
        if (!Files.isDirectory(dir)) return List.of();
        List<Copy> out = new ArrayList<>();
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".db"))
                    .sorted()
                    .toList()) {
                try {
                    var attrs = Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class);
                    if (!attrs.isRegularFile()) continue;
                    double age = (now.toEpochMilli() - attrs.lastModifiedTime().toMillis()) / 86_400_000.0;
                    out.add(new Copy(f.getFileName().toString(), attrs.size(), Math.max(0, age)));
                } catch (IOException e) {
                    // removed while listing: not a copy any more
                }
            }
        } catch (IOException e) {
            throw new StewardError("steward backups", "cannot list " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // nothing more to do
        }
    }
}
