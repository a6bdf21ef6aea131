package steward.sessions.maintenance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import steward.StewardError;
import steward.Work;
import steward.config.StewardConfig;
import steward.config.StewardPaths;
import steward.sessions.backup.StateCopy;
import steward.sessions.store.DiskUsage;
import steward.sessions.store.FtsIndex;
import steward.sessions.store.SessionStore;
import steward.sessions.store.Sqlite;

/**
 * Reclaims the free pages of Hermes' {@code state.db} ({@code session_apply} with {@code vacuum: true}, the user's
 * explicit consent). In order, each step only when the one before succeeded:
 * <ol>
 * <li>worth it? the free list ({@code freelist_count × page_size}) must reach {@code steward.vacuum_min_free_mb}
 * (config.yaml, default {@value #DEFAULT_MIN_FREE_MB} MB); else "not worth it" and nothing is written;</li>
 * <li>Hermes' search index must be consistent (a damaged one is repaired first, {@code steward repair-index});</li>
 * <li>a verified copy ({@code VACUUM INTO}, then {@code PRAGMA integrity_check} of the copy) in
 * {@code backups/state-db/vacuum-…db}: a WAL read, Hermes is never blocked;</li>
 * <li>the lock estimate: VACUUM holds Hermes' write lock while it rewrites the file, and a Hermes writer gives up after
 * 15 tries of 1 s; estimated from the copy's time, it must stay within {@code steward.vacuum_max_lock_seconds}
 * (default {@value #DEFAULT_MAX_LOCK_SECONDS} s), else Steward refuses and says how to go on;</li>
 * <li>{@code VACUUM} with Hermes' busy discipline ({@link Sqlite#vacuum}: 1 s busy timeout, 15 attempts, 20–150 ms
 * jitter, then it gives up and nothing changed), then a passive checkpoint;</li>
 * <li>{@code PRAGMA integrity_check} of state.db and FTS5's integrity-check of {@code messages_fts} and
 * {@code messages_fts_trigram}; the bytes freed.</li>
 * </ol>
 * Only the newest vacuum copy is kept: older ones are removed once a later VACUUM has passed its checks.
 */
public final class StateVacuum {
    static final String CTX = "session_apply";
    public static final int DEFAULT_MIN_FREE_MB = StewardConfig.DEFAULT_VACUUM_MIN_FREE_MB;
    public static final int DEFAULT_MAX_LOCK_SECONDS = StewardConfig.DEFAULT_VACUUM_MAX_LOCK_SECONDS;
    /** VACUUM rewrites what VACUUM INTO wrote, then checkpoints it back: about twice the copy's time (measured, bench audit). */
    static final double LOCK_FACTOR = 2.0;

    static final String PREFIX = "vacuum";

    private final StewardPaths paths;
    private final Clock clock;

    public StateVacuum(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
    }

    /** {@code steward.vacuum_min_free_mb} and {@code steward.vacuum_max_lock_seconds} from config.yaml ({@link StewardConfig}), with warnings for bad values. */
    public record Settings(long minFreeBytes, double maxLockSeconds, List<String> warnings) {
        public static Settings load(Path configYaml) {
            return of(StewardConfig.load(configYaml));
        }

        public static Settings of(StewardConfig config) {
            List<String> w = new ArrayList<>();
            var state = config.read().state();
            if (state == StewardConfig.State.UNREADABLE || state == StewardConfig.State.MALFORMED)
                w.add(config.file() + " unreadable or malformed: vacuum settings use their defaults");
            w.addAll(StewardConfig.warnings(List.of(config.vacuumMinFreeMb(), config.vacuumMaxLockSeconds())));
            return new Settings(
                    (long) (config.vacuumMinFreeMb().value() * 1024 * 1024),
                    config.vacuumMaxLockSeconds().value(),
                    List.copyOf(w));
        }
    }

    /**
     * What happened. {@code outcome}: {@code vacuumed}, {@code not_worth_it}, {@code would_vacuum} (dry run),
     * {@code lock_too_long} (refused before VACUUM, the copy kept). Sizes in bytes, times in seconds.
     */
    public record Result(
            String outcome,
            String message,
            long page_size,
            long free_bytes_before,
            long min_free_bytes,
            long db_bytes_before,
            long wal_bytes_before,
            Long db_bytes_after,
            Long wal_bytes_after,
            Long bytes_freed,
            String backup_path,
            Long backup_bytes,
            Double backup_seconds,
            Double estimated_lock_seconds,
            double max_lock_seconds,
            Double vacuum_seconds,
            Integer attempts,
            String integrity,
            String fts,
            List<String> pruned_copies,
            List<String> warnings) {}

    /** A vacuum that failed after a plan was applied (the plan's result stands; this says why nothing was vacuumed). */
    public static Result failed(String message) {
        return new Result(
                "failed", message, 0, 0, 0, 0, 0, null, null, null, null, null, null, null, 0, null, null, null, null,
                List.of(), List.of());
    }

    /** What was measured before anything was written: the figures every result reports. */
    private record Before(long pageSize, long free, Settings cfg, long db, long wal, List<String> warnings) {
        /** A result of a run that stops before VACUUM: nothing changed, nothing pruned. */
        Result stop(String outcome, String message, Long copyBytes, Double backupSeconds, Double estimate) {
            return new Result(
                    outcome,
                    message,
                    pageSize,
                    free,
                    cfg.minFreeBytes(),
                    db,
                    wal,
                    null,
                    null,
                    null,
                    null,
                    copyBytes,
                    backupSeconds,
                    estimate,
                    cfg.maxLockSeconds(),
                    null,
                    null,
                    null,
                    null,
                    List.of(),
                    warnings);
        }
    }

    public Result run(boolean dryRun, Work work) {
        Path db = paths.stateDb();
        if (!Files.isRegularFile(db)) throw new StewardError(CTX, "vacuum: no state.db at " + db);
        try (SessionStore s = SessionStore.openReadOnly(db)) {
            s.schemaVersion(); // refuses what is not a supported Hermes store
        }
        Settings cfg = Settings.load(paths.configYaml());
        List<String> warnings = new ArrayList<>(cfg.warnings());
        DiskUsage.Pages p = DiskUsage.pages(db);
        long free = p.freelist() * p.pageSize();
        long dbBefore = DiskUsage.size(db), walBefore = DiskUsage.size(DiskUsage.wal(db));
        Before before = new Before(p.pageSize(), free, cfg, dbBefore, walBefore, warnings);
        if (free == 0 || free < cfg.minFreeBytes()) {
            return before.stop(
                    "not_worth_it",
                    "not worth it: " + mb(free) + " on the free list of a " + mb(dbBefore) + " state.db, under the "
                            + mb(cfg.minFreeBytes()) + " threshold (steward.vacuum_min_free_mb); nothing was changed",
                    null,
                    null,
                    null);
        }
        if (dryRun) {
            return before.stop(
                    "would_vacuum",
                    "would back up state.db and VACUUM it: about " + mb(free) + " to reclaim (" + p.freelist()
                            + " free pages)",
                    null,
                    null,
                    null);
        }
        work.progress(0, 4, "checking Hermes' search index");
        FtsIndex.requireConsistent(db, CTX);
        work.checkpoint(CTX);
        work.progress(1, 4, "backing up state.db (" + mb(dbBefore) + ")");
        long t0 = System.nanoTime();
        StateCopy.Written written = StateCopy.written(db, paths.stateDir(), PREFIX, clock.instant(), CTX, true);
        Path copy = written.path();
        double backupSeconds = (System.nanoTime() - t0) / 1e9;
        long copyBytes = DiskUsage.size(copy);
        double estimate =
                written.copySeconds() * LOCK_FACTOR; // the copy's VACUUM INTO is the same work as VACUUM's first half
        if (estimate > cfg.maxLockSeconds()) {
            deleteQuietly(copy); // nothing changes, so the copy is not needed
            return before.stop(
                    "lock_too_long",
                    String.format(
                            Locale.ROOT,
                            "not vacuumed: VACUUM would hold Hermes' write lock "
                                    + "for about %.0f s (writing the copy took %.1f s), over the %.0f s a running Hermes can wait (steward.vacuum_max_lock_seconds); "
                                    + "stop Hermes (gateway, cron, open sessions), raise the setting and ask again. Nothing was changed",
                            estimate,
                            written.copySeconds(),
                            cfg.maxLockSeconds()),
                    copyBytes,
                    backupSeconds,
                    estimate);
        }
        work.checkpoint(CTX);
        work.progress(2, 4, "VACUUM");
        Work rest = work.pastSafePoint();
        int attempts;
        double vacuumSeconds;
        try (Connection c = Sqlite.openReadWrite(db)) {
            t0 = System.nanoTime();
            attempts = Sqlite.vacuum(c, Sqlite.WRITE_ATTEMPTS);
            vacuumSeconds = (System.nanoTime() - t0) / 1e9;
            Sqlite.checkpointPassive(c);
        } catch (SQLException e) {
            throw new StewardError(CTX, "vacuum: cannot close " + db + ": " + Sqlite.describe(e), e);
        } catch (StewardError e) {
            throw new StewardError(CTX, "vacuum: " + e.getMessage() + " (the verified copy is at " + copy + ")", e);
        }
        rest.progress(3, 4, "checking state.db and its search index");
        String integrity = integrity(db);
        FtsIndex.Report fts = FtsIndex.check(db);
        long dbAfter = DiskUsage.size(db), walAfter = DiskUsage.size(DiskUsage.wal(db));
        long freed = dbBefore + walBefore - dbAfter - walAfter;
        if (!"ok".equals(integrity) || !fts.ok()) {
            throw new StewardError(
                    CTX,
                    "vacuum: state.db was vacuumed but its check fails (integrity: " + integrity + "; search index: "
                            + fts.summary() + "); the verified copy from before is at " + copy
                            + ": stop Hermes and compare, or restore it by hand");
        }
        List<String> pruned = pruneOlderCopies(copy, warnings);
        rest.progress(4, 4, "vacuumed");
        String msg = String.format(
                Locale.ROOT,
                "vacuumed state.db: %s → %s (%s freed%s) in %.1f s; integrity ok, %s",
                mb(dbBefore + walBefore),
                mb(dbAfter + walAfter),
                mb(Math.max(0, freed)),
                walAfter > 0 ? ", WAL " + mb(walAfter) + " until Hermes' next checkpoint" : "",
                vacuumSeconds,
                fts.summary());
        return new Result(
                "vacuumed",
                msg,
                p.pageSize(),
                free,
                cfg.minFreeBytes(),
                dbBefore,
                walBefore,
                dbAfter,
                walAfter,
                freed,
                copy.toString(),
                copyBytes,
                backupSeconds,
                estimate,
                cfg.maxLockSeconds(),
                vacuumSeconds,
                attempts,
                integrity,
                fts.summary(),
                pruned,
                warnings);
    }

    /** {@code PRAGMA integrity_check} on a read-only connection (a WAL reader: Hermes keeps writing): "ok" or its first lines. */
    static String integrity(Path db) {
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
            List<String> lines = new ArrayList<>();
            while (rs.next() && lines.size() < 3) lines.add(rs.getString(1));
            return lines.size() == 1 && "ok".equals(lines.get(0)) ? "ok" : String.join("; ", lines);
        } catch (SQLException e) {
            return Sqlite.describe(e);
        }
    }

    /** Removes the vacuum copies older than {@code keep} (the repair-index copies are left alone). */
    private List<String> pruneOlderCopies(Path keep, List<String> warnings) {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(keep.getParent())) {
            for (Path f : s.sorted().toList()) {
                String n = f.getFileName().toString();
                if (f.equals(keep) || !n.startsWith(PREFIX + "-") || !n.endsWith(".db")) continue;
                Files.deleteIfExists(f);
                out.add(f.toString());
            }
        } catch (IOException e) {
            warnings.add("older vacuum copies not removed: " + e.getMessage());
        }
        return out;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover copy; the next vacuum's pruning removes it
        }
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
    }
}
