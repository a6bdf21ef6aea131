package steward.sessions.maintenance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.sessions.store.DiskUsage;
import steward.sessions.store.FtsIndex;
import steward.sessions.store.Sqlite;
import steward.testing.RealHermes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

class StateVacuumTest {
    @TempDir
    Path tmp;

    /** The fixture with about {@code mb} MB of messages written and deleted again through Hermes' triggers: a free list. */
    static Path homeWithFreeList(Path tmp, int mb, String config) throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        if (config != null) Files.writeString(home.resolve("config.yaml"), config, StandardCharsets.UTF_8);
        try (Connection c = Sqlite.openReadWrite(home.resolve("state.db"))) {
            Sqlite.immediate(c, cc -> {
                try (Statement st = cc.createStatement()) {
                    st.execute(
                            "INSERT INTO sessions (id, source, started_at, ended_at, message_count) VALUES ('gone', 'cron', 1.7e9, 1.7e9, 0)");
                }
                try (PreparedStatement ps = cc.prepareStatement(
                        "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('gone', 'assistant', ?, 1.7e9)")) {
                    for (int i = 0; i < mb * 256; i++) {
                        ps.setString(1, ("cron run " + i + " output line with words to index ").repeat(80));
                        ps.executeUpdate();
                    }
                }
                return null;
            });
            Sqlite.immediate(c, cc -> {
                try (Statement st = cc.createStatement()) {
                    st.execute("DELETE FROM messages WHERE session_id = 'gone'");
                    st.execute("DELETE FROM sessions WHERE id = 'gone'");
                }
                return null;
            });
        }
        return home;
    }

    @Test
    void notWorthItChangesNothingAndWritesNoCopy() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path db = home.resolve("state.db");
        byte[] before = Files.readAllBytes(db);
        StewardPaths paths = StewardPaths.of(home);
        StateVacuum.Result r = new StateVacuum(paths, TestHomes.CLOCK).run(false, Work.NONE);
        assertEquals("not_worth_it", r.outcome());
        assertTrue(
                r.message().startsWith("not worth it: ") && r.message().contains("steward.vacuum_min_free_mb"),
                r.message());
        assertEquals(64L * 1024 * 1024, r.min_free_bytes());
        assertTrue(r.free_bytes_before() < r.min_free_bytes());
        assertEquals(null, r.backup_path());
        assertTrue(Arrays.equals(before, Files.readAllBytes(db)));
        assertFalse(Files.exists(paths.stateDir().resolve("backups/state-db")), "no copy when there is nothing to do");
    }

    @Test
    void vacuumsAfterAVerifiedCopyAndKeepsEveryRow() throws Exception {
        Path home = homeWithFreeList(tmp, 4, "steward:\n  vacuum_min_free_mb: 1\n  vacuum_max_lock_seconds: 600\n");
        Path db = home.resolve("state.db");
        StewardPaths paths = StewardPaths.of(home);
        List<String> rows = TestHomes.logicalDump(db);
        long free = DiskUsage.pages(db).freelist() * DiskUsage.pages(db).pageSize();
        assertTrue(free >= 2 * 1024 * 1024, "free list " + free);

        StateVacuum.Result dry = new StateVacuum(paths, TestHomes.CLOCK).run(true, Work.NONE);
        assertEquals("would_vacuum", dry.outcome());
        assertEquals(free, dry.free_bytes_before());
        assertFalse(Files.exists(paths.stateDir().resolve("backups/state-db")), "a dry run writes nothing");

        StateVacuum.Result r = new StateVacuum(paths, TestHomes.CLOCK).run(false, Work.NONE);
        assertEquals("vacuumed", r.outcome(), r.message());
        assertEquals("ok", r.integrity());
        assertTrue(r.fts().contains("messages_fts ok") && r.fts().contains("messages_fts_trigram ok"), r.fts());
        assertEquals(0, DiskUsage.pages(db).freelist(), "the free list is gone");
        assertTrue(r.bytes_freed() >= free / 2, r.bytes_freed() + " freed of " + free);
        assertEquals(r.db_bytes_before() + r.wal_bytes_before() - r.db_bytes_after() - r.wal_bytes_after(), (long)
                r.bytes_freed());
        assertEquals(1, (int) r.attempts());
        assertEquals(rows, TestHomes.logicalDump(db), "VACUUM changes no row");
        Path copy = Path.of(r.backup_path());
        assertTrue(copy.startsWith(paths.stateDir().resolve("backups/state-db"))
                && copy.getFileName().toString().startsWith("vacuum-"));
        assertEquals(rows, TestHomes.logicalDump(copy), "the copy holds every row");
        assertEquals(Files.size(copy), (long) r.backup_bytes());

        // a second vacuum (more deletions since) keeps only the newest copy
        homeWithFreeListAgain(db);
        StateVacuum.Result r2 =
                new StateVacuum(paths, Clock.offset(TestHomes.CLOCK, Duration.ofHours(1))).run(false, Work.NONE);
        assertEquals("vacuumed", r2.outcome(), r2.message());
        assertEquals(List.of(copy.toString()), r2.pruned_copies());
        assertFalse(Files.exists(copy));
        assertTrue(Files.exists(Path.of(r2.backup_path())));
    }

    static void homeWithFreeListAgain(Path db) throws Exception {
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, cc -> {
                try (Statement st = cc.createStatement()) {
                    st.execute("INSERT INTO sessions (id, source, started_at) VALUES ('gone2', 'cron', 1.7e9)");
                    st.execute(
                            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO messages (session_id, role, "
                                    + "content, timestamp) SELECT 'gone2', 'tool', printf('%.3000c', 'y') || i, 1.7e9 FROM n");
                    st.execute("DELETE FROM messages WHERE session_id = 'gone2'");
                    st.execute("DELETE FROM sessions WHERE id = 'gone2'");
                }
                return null;
            });
        }
    }

    @Test
    void refusesWhenTheLockWouldOutlastHermesPatience() throws Exception {
        Path home = homeWithFreeList(tmp, 2, "steward:\n  vacuum_min_free_mb: 1\n  vacuum_max_lock_seconds: 0\n");
        Path db = home.resolve("state.db");
        List<String> rows = TestHomes.dump(db);
        long pages = DiskUsage.pages(db).pageCount();
        StewardPaths paths = StewardPaths.of(home);
        StateVacuum.Result r = new StateVacuum(paths, TestHomes.CLOCK).run(false, Work.NONE);
        assertEquals("lock_too_long", r.outcome());
        assertTrue(
                r.message().contains("steward.vacuum_max_lock_seconds")
                        && r.message().contains("Nothing was changed"),
                r.message());
        assertEquals(pages, DiskUsage.pages(db).pageCount());
        assertEquals(rows, TestHomes.dump(db));
        try (var s = Files.list(paths.stateDir().resolve("backups/state-db"))) {
            assertEquals(0, s.count(), "the copy of a refused vacuum is removed");
        }
    }

    @Test
    void badSettingsFallBackToDefaultsWithAWarning() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.writeString(
                home.resolve("config.yaml"), "steward:\n  vacuum_min_free_mb: lots\n  vacuum_max_lock_seconds: -3\n");
        StateVacuum.Settings s = StateVacuum.Settings.load(home.resolve("config.yaml"));
        assertEquals(64L * 1024 * 1024, s.minFreeBytes());
        assertEquals(10.0, s.maxLockSeconds());
        assertEquals(2, s.warnings().size(), s.warnings().toString());
        StateVacuum.Result r = new StateVacuum(StewardPaths.of(home), TestHomes.CLOCK).run(false, Work.NONE);
        assertEquals("not_worth_it", r.outcome());
        assertEquals(2, r.warnings().size());
    }

    @Test
    void noStateDbOrNotHermesIsAnErrorAndWritesNothing() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.delete(home.resolve("state.db"));
        StewardError e = assertThrows(
                StewardError.class,
                () -> new StateVacuum(StewardPaths.of(home), TestHomes.CLOCK).run(false, Work.NONE));
        assertTrue(e.getMessage().contains("no state.db"), e.getMessage());
        Files.writeString(home.resolve("state.db"), "not a database");
        assertThrows(
                StewardError.class,
                () -> new StateVacuum(StewardPaths.of(home), TestHomes.CLOCK).run(false, Work.NONE));
        assertEquals("not a database", Files.readString(home.resolve("state.db")));
        assertFalse(Files.exists(home.resolve("steward")));
    }

    @Test
    void waitsForAWriterHoldingTheLockAndGivesUpCleanlyWhenItNeverLetsGo() throws Exception {
        Path home = homeWithFreeList(tmp, 2, null);
        Path db = home.resolve("state.db");
        long pages = DiskUsage.pages(db).pageCount();
        CountDownLatch locked = new CountDownLatch(1);
        // a writer (as Hermes: BEGIN IMMEDIATE) holds the lock for 1.5 s, then commits
        Thread writer = new Thread(() -> {
            try (Connection c = Sqlite.openReadWrite(db)) {
                Sqlite.immediate(c, cc -> {
                    try (Statement st = cc.createStatement()) {
                        st.execute("UPDATE sessions SET title = title WHERE 0");
                    }
                    locked.countDown();
                    try {
                        Thread.sleep(1500);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                });
            } catch (Exception ex) {
                throw new RuntimeException(ex);
            }
        });
        writer.start();
        assertTrue(locked.await(10, TimeUnit.SECONDS));
        try (Connection c = Sqlite.openReadWrite(db)) {
            int attempts = Sqlite.vacuum(c, Sqlite.WRITE_ATTEMPTS);
            assertTrue(attempts >= 2, "the first attempt met the writer's lock: " + attempts);
        }
        writer.join();
        assertTrue(DiskUsage.pages(db).pageCount() < pages, "vacuumed once the writer was done");

        // a writer that never lets go within the attempts: VACUUM gives up, nothing changed
        homeWithFreeListAgain(db);
        long pages2 = DiskUsage.pages(db).pageCount();
        try (Connection holder = Sqlite.openReadWrite(db);
                Statement st = holder.createStatement()) {
            st.execute("BEGIN IMMEDIATE");
            try (Connection c = Sqlite.openReadWrite(db)) {
                long t0 = System.nanoTime();
                StewardError e = assertThrows(StewardError.class, () -> Sqlite.vacuum(c, 2));
                assertTrue(
                        e.getMessage().contains("gave up") && e.getMessage().contains("nothing was changed"),
                        e.getMessage());
                assertTrue((System.nanoTime() - t0) / 1e9 < 5, "bounded: two attempts of about a second");
            }
            st.execute("ROLLBACK");
        }
        assertEquals(pages2, DiskUsage.pages(db).pageCount());
    }

    /** Hermes' own SessionDB appending messages in a separate process while Steward vacuums: no write fails, none is lost. */
    @Test
    void aConcurrentHermesWriterIsNeverBrokenAndLosesNothing() throws Exception {
        RealHermes hermes = RealHermes.require();
        Path writerScript = hermes.source().resolveSibling("tools").resolve("hermes_writer.py");
        Assumptions.assumeTrue(
                Files.isRegularFile(writerScript), "shared/tools/hermes_writer.py not found: test skipped");
        Path home = homeWithFreeList(tmp, 6, "steward:\n  vacuum_min_free_mb: 1\n  vacuum_max_lock_seconds: 600\n");
        Path db = home.resolve("state.db");
        Path out = tmp.resolve("written.json");
        ProcessBuilder pb = new ProcessBuilder("python3", writerScript.toString(), db.toString(), "6", out.toString())
                .redirectErrorStream(true);
        pb.environment().put("HERMES_SRC", hermes.source().toString());
        Process p = pb.start();
        Thread.sleep(1500); // the writer is running
        StateVacuum.Result r = new StateVacuum(StewardPaths.of(home), TestHomes.CLOCK).run(false, Work.NONE);
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), log);
        assertEquals(0, p.exitValue(), log);
        assertEquals("vacuumed", r.outcome(), r.message());
        JsonNode w = Json.MAPPER.readTree(Files.readAllBytes(out));
        assertEquals(0, w.get("errors").size(), "Hermes' writes never failed: " + w.get("errors"));
        assertTrue(w.get("written").size() > 10, log);
        Set<Long> ids = new HashSet<>();
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id FROM messages")) {
            while (rs.next()) ids.add(rs.getLong(1));
        }
        for (JsonNode x : w.get("written"))
            assertTrue(ids.contains(x.get(1).asLong()), "message " + x + " is in state.db");
        assertEquals("ok", StateVacuum.integrity(db));
        var fts = FtsIndex.check(db);
        assertTrue(fts.ok(), fts.summary());
        assertNotNull(r.vacuum_seconds());
    }
}
