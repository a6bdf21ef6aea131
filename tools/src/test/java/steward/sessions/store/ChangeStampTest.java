package steward.sessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Sqlite#changeStamp}: every commit moves it, even one that leaves the files' sizes and times as they were. */
class ChangeStampTest {
    @TempDir
    Path tmp;

    @Test
    void aCommitThatRestartsTheWalWithinOneClockTickStillMovesTheStamp() throws Exception {
        Path db = Files.createFile(tmp.resolve("state.db")), wal = tmp.resolve("state.db-wal");
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, content TEXT)");
            st.execute("INSERT INTO messages (content) VALUES ('first text')");
            Connection reader = Sqlite.openReadOnly(db); // keeps the WAL file from being removed at close
            st.execute("PRAGMA wal_checkpoint(PASSIVE)");
            try (Statement r = reader.createStatement()) {
                r.executeQuery("SELECT COUNT(*) FROM messages").close();
            }
            st.execute("UPDATE messages SET content = 'other text' WHERE id = 1");
            st.execute("PRAGMA wal_checkpoint(PASSIVE)"); // every frame copied back: the next writer restarts the WAL
            FileTime dbTime = Files.getLastModifiedTime(db), walTime = Files.getLastModifiedTime(wal);
            long dbSize = Files.size(db), walSize = Files.size(wal);
            String before = Sqlite.changeStamp(db);

            st.execute("UPDATE messages SET content = 'third text' WHERE id = 1");
            // as if within the same tick of the file system's clock
            Files.setLastModifiedTime(db, dbTime);
            Files.setLastModifiedTime(wal, walTime);
            assertEquals(dbSize, Files.size(db), "the case this test is about: the database file kept its size");
            assertEquals(walSize, Files.size(wal), "the case this test is about: the WAL restarted and kept its size");

            assertNotEquals(before, Sqlite.changeStamp(db), "the commit moved the stamp");
            reader.close();
        }
    }

    @Test
    void withNothingWrittenTheStampStaysAndAMissingDatabaseReadsAsAbsent() throws Exception {
        Path db = Files.createFile(tmp.resolve("state.db"));
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("CREATE TABLE t (x)");
            String a = Sqlite.changeStamp(db);
            try (Connection r = Sqlite.openReadOnly(db);
                    Statement q = r.createStatement()) {
                q.executeQuery("SELECT COUNT(*) FROM t").close();
            }
            assertEquals(a, Sqlite.changeStamp(db), "a read is not a change");
            st.execute("INSERT INTO t VALUES (1)");
            assertNotEquals(a, Sqlite.changeStamp(db));
        }
        assertEquals("-|-|-|-", Sqlite.changeStamp(tmp.resolve("none.db")));
    }
}
