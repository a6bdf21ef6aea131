package steward.sessions.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import steward.StewardError;

/**
 * The disk space of a Hermes home's sessions: {@code state.db} and its {@code -wal}, the bytes on SQLite's free list
 * (pages a {@code VACUUM} would give back: {@code freelist_count × page_size}), and Hermes' side files under
 * {@code sessions/} ({@code <id>.json}, {@code <id>.jsonl}, the gateway's {@code request_dump_<id>_*.json}, its
 * {@code sessions.json}). Read-only: the page counts come from a read-only connection, the rest from file sizes.
 */
public record DiskUsage(
        long db_bytes,
        long wal_bytes,
        long page_size,
        long page_count,
        long freelist_pages,
        long freelist_bytes,
        int side_files,
        long side_file_bytes,
        int request_dumps,
        long request_dump_bytes) {

    /** Pages and file sizes of {@code db}; side files of {@code hermesHome}/sessions. */
    public static DiskUsage of(Path hermesHome, Path db) {
        Pages p = pages(db);
        Side s = side(hermesHome.resolve("sessions"));
        return new DiskUsage(
                size(db),
                size(wal(db)),
                p.pageSize(),
                p.pageCount(),
                p.freelist(),
                p.freelist() * p.pageSize(),
                s.files(),
                s.bytes(),
                s.dumps(),
                s.dumpBytes());
    }

    /** SQLite's page size, page count and free-list pages. */
    public record Pages(long pageSize, long pageCount, long freelist) {}

    public static Pages pages(Path db) {
        try (Connection c = Sqlite.openReadOnly(db)) {
            return pages(c);
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot read the page counts of " + db + ": " + Sqlite.describe(e), e);
        }
    }

    public static Pages pages(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            return new Pages(
                    one(st, "PRAGMA page_size"), one(st, "PRAGMA page_count"), one(st, "PRAGMA freelist_count"));
        }
    }

    private static long one(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    public static Path wal(Path db) {
        return db.toAbsolutePath().resolveSibling(db.getFileName() + "-wal");
    }

    /** A file's size, 0 when it does not exist. */
    public static long size(Path f) {
        try {
            return Files.size(f);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new StewardError("state.db", "cannot read the size of " + f + ": " + e.getMessage(), e);
        }
    }

    record Side(int files, long bytes, int dumps, long dumpBytes) {}

    /** Regular files directly under {@code sessions/} (Hermes writes it flat); missing directory: none. */
    static Side side(Path dir) {
        if (!Files.isDirectory(dir)) return new Side(0, 0, 0, 0);
        int files = 0, dumps = 0;
        long bytes = 0, dumpBytes = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException e) {
                    continue; // removed while listing
                }
                if (!a.isRegularFile()) continue;
                files++;
                bytes += a.size();
                String n = p.getFileName().toString();
                if (n.startsWith("request_dump_") && n.endsWith(".json")) {
                    dumps++;
                    dumpBytes += a.size();
                }
            }
        } catch (IOException e) {
            throw new StewardError("sessions", "cannot list " + dir + ": " + e.getMessage(), e);
        }
        return new Side(files, bytes, dumps, dumpBytes);
    }
}
