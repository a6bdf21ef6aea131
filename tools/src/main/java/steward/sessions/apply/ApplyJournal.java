package steward.sessions.apply;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.sessions.audit.PlanStore;
import steward.sessions.backup.SessionBackup;
import steward.sessions.store.Sqlite;
import steward.state.AtomicFiles;
import tools.jackson.databind.JsonNode;

/**
 * The apply journal: {@code <state dir>/journal/<backup_id>.json}, written before a {@code session_apply} moves a file
 * or changes a row, so that an apply killed at any point is found and settled by the next {@code session_apply} or
 * {@code session_restore} of any process ({@link #recover()}). The applying process holds a lock on
 * {@code <backup_id>.lock} (released by the kernel when it dies), so a running apply is never mistaken for a dead one.
 *
 * <p>Settling is per side file and needs no guess: a file whose session exists in state.db belongs in
 * {@code <home>/sessions/}, a file whose session is gone belongs in the backup. Whether the transaction committed
 * (read from the effects of its operations) only decides the plan: committed, the plan stays used and the backup is the
 * way back; not committed, the plan is released for a retry and the backup is marked as from an apply that changed
 * nothing, unless the Claude Code part of the plan had moved its sessions into it (that part runs, or takes itself
 * back, before Hermes' transaction begins): then only the backup's Hermes part goes, and the backup stays the way
 * back for the Claude Code sessions.
 */
public final class ApplyJournal {
    static final String CTX = "session_apply";
    /** Journal ids: an apply's backup id ({@code b_…}), or {@code r_…} for a restore. */
    private static final Pattern ID = Pattern.compile("[br]_\\d{8}T\\d{6}Z_[0-9a-f]{6}");

    /** Phases: claimed (nothing moved yet, nothing can have been committed), prepared (moves listed), committed. */
    public enum Phase {
        CLAIMED,
        PREPARED,
        COMMITTED
    }

    /** An operation of the apply and how to see its effect in state.db. */
    public record Op(String session_id, String op, String new_title, Double ended_at) {}

    /** A side file to move from Hermes' sessions dir into the backup. */
    public record Move(String session_id, String from, String to) {}

    /**
     * The journal file's content. {@code kind} is apply or restore; a move is always written as (session, its place in
     * Hermes' sessions dir, its place in the backup), whichever way the call moves it.
     */
    public record Record(
            int version,
            String kind,
            String plan_id,
            String backup_id,
            String phase,
            String started_at,
            long pid,
            List<Op> ops,
            List<Move> moves) {}

    private final StewardPaths paths;
    private final Clock clock;

    public ApplyJournal(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
    }

    Path dir() {
        return paths.stateDir().resolve("journal");
    }

    /** A call in progress in this process: its lock and its journal file. */
    public final class Entry implements AutoCloseable {
        private final String id;
        private final String kind;
        private final String backupId;
        private final String planId;
        private final FileChannel lockChannel;
        private final FileLock lock;
        private final String startedAt;

        Entry(String id, String kind, String backupId, String planId, FileChannel lockChannel, FileLock lock) {
            this.id = id;
            this.kind = kind;
            this.backupId = backupId;
            this.planId = planId;
            this.lockChannel = lockChannel;
            this.lock = lock;
            this.startedAt = clock.instant().toString();
        }

        public String backupId() {
            return backupId;
        }

        public void write(Phase phase, List<Op> ops, List<Move> moves) {
            Record r = new Record(
                    1,
                    kind,
                    planId,
                    backupId,
                    phase.name().toLowerCase(Locale.ROOT),
                    startedAt,
                    ProcessHandle.current().pid(),
                    ops,
                    moves);
            try {
                AtomicFiles.write(dir().resolve(id + ".json"), Json.MAPPER.writeValueAsBytes(r));
            } catch (IOException | RuntimeException e) {
                throw new StewardError(
                        CTX,
                        "cannot write the apply journal in " + dir() + ": " + e.getMessage() + "; nothing was changed",
                        e);
            }
        }

        /** The apply is settled (committed, or rolled back with every file back in place): the journal goes. */
        @Override
        public void close() {
            try {
                Files.deleteIfExists(dir().resolve(id + ".json"));
                AtomicFiles.fsyncDir(dir());
            } catch (IOException ignored) {
                // the next call settles it again: settling is idempotent
            }
            release(lockChannel, lock);
            try {
                Files.deleteIfExists(dir().resolve(id + ".lock"));
            } catch (IOException ignored) {
                // an empty lock file: harmless, removed by the next recovery
            }
        }

        /** Leaves the journal for the next call (something could not be put back now). */
        public void abandon() {
            release(lockChannel, lock);
        }
    }

    /** Starts the journal of an apply (phase claimed), before the plan is claimed; its id is the backup id. */
    public Entry begin(String planId, String backupId) {
        return open(backupId, "apply", planId, backupId, CTX);
    }

    /** Starts the journal of a restore from {@code backupId} (phase claimed, before anything moves). */
    public Entry beginRestore(String backupId) {
        String id = "r_" + SessionBackup.newId(clock.instant()).substring(2);
        return open(id, "restore", null, backupId, "session_restore");
    }

    private Entry open(String id, String kind, String planId, String backupId, String context) {
        try {
            AtomicFiles.ensurePrivateDir(dir());
            Path lockFile = dir().resolve(id + ".lock");
            FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            AtomicFiles.setMode(lockFile, AtomicFiles.FILE_MODE);
            FileLock lock = ch.lock();
            Entry e = new Entry(id, kind, backupId, planId, ch, lock);
            e.write(Phase.CLAIMED, List.of(), List.of());
            return e;
        } catch (IOException e) {
            throw new StewardError(
                    context,
                    "cannot start the journal in " + dir() + ": " + e.getMessage() + "; nothing was changed",
                    e);
        }
    }

    /** What {@link #recover()} did, one line per interrupted apply. */
    public record Recovery(List<String> notices) {
        public boolean any() {
            return !notices.isEmpty();
        }
    }

    /**
     * The journals of interrupted applies and restores waiting to be settled (their process is gone: the lock is free),
     * Claude Code parts included; read-only (status reports them; the next apply or restore settles them).
     */
    public List<Path> pending() {
        List<Path> out = new ArrayList<>();
        for (Path f : journalFiles())
            if (!lockedElsewhere(dir().resolve(f.getFileName().toString().replace(".json", ".lock")))) out.add(f);
        for (Path f : ClaudeJournal.journalFiles(paths)) {
            String name = f.getFileName().toString();
            String id = name.substring(0, name.length() - ClaudeJournal.SUFFIX.length());
            if (!lockedElsewhere(ClaudeJournal.lockFile(paths, id))) out.add(f);
        }
        return out;
    }

    /**
     * Settles every interrupted apply of this state dir: side files where their session says they belong, the plan
     * released or kept used, an orphan backup marked, a Claude Code part cut short taken back ({@link ClaudeJournal}),
     * stale temp files of dead Steward processes removed. Applies still
     * running (their lock is held) are left alone. A no-op without a journal dir (creates nothing).
     */
    public Recovery recover() {
        // the Claude Code parts first: one being taken back decides what the Hermes journal of its backup finds
        List<String> notices = new ArrayList<>(ClaudeJournal.recover(paths));
        for (Path f : journalFiles()) {
            String id = f.getFileName().toString().replace(".json", "");
            Path lockFile = dir().resolve(id + ".lock");
            FileChannel ch = null;
            FileLock lock = null;
            try {
                ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                try {
                    lock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null; // an apply of this process holds it
                }
                if (lock == null || !Files.isRegularFile(f)) continue; // running elsewhere, or settled meanwhile
                String notice = settle(f);
                if (notice != null) notices.add(notice);
            } catch (IOException | RuntimeException e) {
                notices.add("session_apply: an interrupted apply (journal " + f + ") could not be settled yet: "
                        + (e instanceof IOException && e.getMessage() != null ? e.getMessage() : Json.problem(e)));
            } finally {
                if (lock != null) {
                    release(ch, lock);
                    try {
                        if (!Files.exists(f)) Files.deleteIfExists(lockFile);
                    } catch (IOException ignored) {
                        // harmless
                    }
                } else if (ch != null) {
                    try {
                        ch.close();
                    } catch (IOException ignored) {
                        // nothing to do
                    }
                }
            }
        }
        if (Files.isDirectory(paths.stateDir())) AtomicFiles.removeStaleTemps(paths.stateDir());
        return new Recovery(List.copyOf(notices));
    }

    private List<Path> journalFiles() {
        if (!Files.isDirectory(dir())) return List.of();
        try (var s = Files.list(dir())) {
            return s.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.endsWith(".json")
                                && ID.matcher(n.substring(0, n.length() - 5)).matches();
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Whether a process holds {@code lockFile} (this one included); opens it only if it exists (creates nothing). */
    private static boolean lockedElsewhere(Path lockFile) {
        if (!Files.exists(lockFile)) return false;
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                return true;
            }
            if (l == null) return true;
            l.release();
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** Settles one journal (its lock held); returns the notice for the caller. */
    String settle(Path f) throws IOException {
        Record r;
        String damage;
        try {
            r = Json.MAPPER.readValue(Files.readAllBytes(f), Record.class);
            damage = r == null
                    ? "empty"
                    : r.ops() == null
                                    || r.moves() == null
                                    || r.ops().contains(null)
                                    || r.moves().contains(null)
                            ? "no list of operations or moves"
                            : !SessionBackup.isBackupId(r.backup_id()) ? "no backup id" : null;
        } catch (RuntimeException e) {
            r = null;
            damage = Json.problem(e);
        }
        // a journal is written atomically; an unreadable one is not ours to guess about: keep it, say so
        if (damage != null) throw new IOException("unreadable journal " + f + " (" + damage + "); it is left as it is");
        SessionBackup bk = new SessionBackup(paths.stateDir());
        Path sessionsDir =
                paths.hermesHome().resolve("sessions").toAbsolutePath().normalize();
        Path filesDir = bk.filesDir(r.backup_id()).toAbsolutePath().normalize();
        boolean restore = "restore".equals(r.kind());
        Boolean committed;
        List<String> present;
        try (Connection c = Sqlite.openReadOnly(paths.stateDb())) {
            present = existing(c, r);
            committed = Phase.COMMITTED.name().equalsIgnoreCase(r.phase())
                    ? Boolean.TRUE
                    : Phase.CLAIMED.name().equalsIgnoreCase(r.phase()) ? Boolean.FALSE : committed(c, r);
        } catch (SQLException e) {
            throw new IOException("cannot read state.db: " + Sqlite.describe(e), e);
        }
        int back = 0, forward = 0;
        for (Move m : r.moves()) {
            if (m.session_id() == null) continue;
            Path from = Path.of(m.from());
            Path to = Path.of(m.to());
            if (!SessionBackup.isSideFileName(from.getFileName().toString(), m.session_id())) continue;
            // only between Hermes' sessions dir and this backup, as every journal Steward writes: a damaged or edited
            // one never moves a file from or to anywhere else
            if (!sameDir(sessionsDir, from.toAbsolutePath().normalize().getParent())
                    || !sameDir(filesDir, to.toAbsolutePath().normalize().getParent())
                    || !from.getFileName().equals(to.getFileName())) continue;
            if (present.contains(m.session_id())) {
                if (Files.isRegularFile(to) && !Files.exists(from)) {
                    Files.move(to, from, StandardCopyOption.ATOMIC_MOVE);
                    back++;
                }
            } else if (Files.isRegularFile(from) && !Files.exists(to)) {
                AtomicFiles.ensurePrivateDir(to.getParent());
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
                forward++;
            }
        }
        PlanStore plans = new PlanStore(paths.stateDir());
        String notice;
        if (restore) {
            notice = back + forward == 0
                    ? null
                    : "session_restore: a restore from " + r.backup_id() + " was interrupted; " + back
                            + " side files are back with their sessions";
        } else if (committed) {
            notice = "session_apply: an apply of plan " + r.plan_id()
                    + " was interrupted after it committed; it is complete now"
                    + (forward > 0 ? " (" + forward + " side files moved into the backup)" : "") + ". Its backup is "
                    + r.backup_id()
                    + " (session_restore undoes it).";
        } else if (Files.isRegularFile(bk.claudeFile(r.backup_id()))) {
            // the Claude Code part of the plan moved its sessions into the backup before Hermes' transaction began (a
            // part that fails takes itself back first): the backup holds them, and only its Hermes part changed nothing
            boolean released = plans.releaseIfUsed(r.plan_id());
            Files.deleteIfExists(bk.file(r.backup_id()));
            notice = "session_apply: an apply of plan " + r.plan_id()
                    + " was interrupted before it changed anything in Hermes"
                    + (back > 0
                            ? " (its " + back + " side files are back in "
                                    + paths.hermesHome().resolve("sessions") + ")"
                            : "")
                    + "; its Claude Code sessions had been moved into backup " + r.backup_id()
                    + " (session_restore puts them back)"
                    + (released
                            ? "; the plan can be applied again for the rest"
                            : "; run session_audit again for the rest")
                    + ".";
        } else {
            boolean released = plans.releaseIfUsed(r.plan_id());
            if (Files.isRegularFile(bk.file(r.backup_id())))
                bk.markInterrupted(
                        r.backup_id(),
                        "written by a session_apply of plan " + r.plan_id()
                                + " that was interrupted before it changed anything");
            notice = "session_apply: an apply of plan " + r.plan_id() + " was interrupted before it changed anything"
                    + (back > 0
                            ? "; its " + back + " side files are back in "
                                    + paths.hermesHome().resolve("sessions")
                            : "")
                    + (released ? "; the plan can be applied again" : "; run session_audit again") + ".";
        }
        Files.deleteIfExists(f);
        AtomicFiles.fsyncDir(dir());
        return notice;
    }

    /** Whether {@code a} and {@code b} are one directory (the same path, or one reached through a link). */
    private static boolean sameDir(Path a, Path b) {
        if (a.equals(b)) return true;
        try {
            return b != null && Files.isDirectory(a) && Files.isDirectory(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /** Sessions named by the journal that exist in state.db now. */
    private static List<String> existing(Connection c, Record r) throws SQLException {
        List<String> ids = new ArrayList<>();
        for (Op o : r.ops()) ids.add(o.session_id());
        for (Move m : r.moves()) ids.add(m.session_id());
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ?")) {
            for (String id : ids) {
                if (out.contains(id)) continue;
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) out.add(id);
                }
            }
        }
        return out;
    }

    /**
     * Whether the apply's transaction committed, read from its effects: a deleted session is gone, a session marked as
     * ended carries the apply's exact ended_at, a renamed one its new title. SQLite commits all of them or none; the
     * next call usually comes seconds later, so at least half of them showing is taken as committed.
     */
    static boolean committed(Connection c, Record r) throws SQLException {
        if (r.ops().isEmpty()) return false;
        int shown = 0;
        try (PreparedStatement s =
                c.prepareStatement("SELECT title, ended_at, end_reason FROM sessions WHERE id = ?")) {
            for (Op o : r.ops()) {
                s.setString(1, o.session_id());
                try (ResultSet rs = s.executeQuery()) {
                    boolean exists = rs.next();
                    boolean effect = switch (o.op()) {
                        case "delete" -> !exists;
                        case "rename" ->
                            exists && o.new_title() != null && o.new_title().equals(rs.getString(1));
                        case "mark_ended" ->
                            exists
                                    && o.ended_at() != null
                                    && rs.getObject(2) != null
                                    && rs.getDouble(2) == o.ended_at()
                                    && "housekeeping".equals(rs.getString(3));
                        default -> false;
                    };
                    if (effect) shown++;
                }
            }
        }
        return shown * 2 >= r.ops().size();
    }

    /** Releases {@code lock} (when held) and closes {@code ch}, quietly. */
    static void release(FileChannel ch, FileLock lock) {
        try {
            if (lock != null && lock.isValid()) lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    /** Reads a journal record (tests and benches). */
    public static Record read(Path f) throws IOException {
        JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(f));
        return Json.MAPPER.treeToValue(n, Record.class);
    }
}
