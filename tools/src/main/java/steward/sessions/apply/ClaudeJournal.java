package steward.sessions.apply;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import steward.StewardError;
import steward.claude.SessionsIndex;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.sessions.audit.PlanStore;
import steward.sessions.backup.SessionBackup;
import steward.state.AtomicFiles;
import steward.state.Crashpoint;
import steward.state.FileMoves;

/**
 * The crash journal of the Claude Code part of a {@code session_apply}: {@code <state dir>/journal/<backup_id>.claude.json}
 * (written atomically and fsynced), listing before anything is written what the part moves (every root, every file with
 * its size and SHA-256) and which {@code sessions-index.json} it rewrites (the original's and the new file's SHA-256,
 * the entries removed with their positions). The applying process holds a lock on {@code <backup_id>.claude.lock}
 * (released by the kernel when it dies), so a running part is never mistaken for a dead one.
 *
 * <p>Phases: {@code claimed} (nothing written yet), {@code prepared} (the backup's manifest and the indexes' copies
 * written and read back, nothing moved), {@code moving} (files may be in the backup), {@code indexes} (every file
 * moved and verified; indexes may be rewritten), {@code rollback} (a failure is taking the part back). When the part is
 * complete (every index rewritten) the journal goes: that is {@code done}.
 *
 * <p>An unfinished journal found by {@link ApplyJournal#recover()} (the next {@code session_apply} or
 * {@code session_restore} of any process) is always <b>rolled back</b>, whatever its phase: the apply never reported
 * its end state, so the user never confirmed it, and rolling back gives what an in-process failure gives (nothing
 * changed, the plan released for a retry). Finishing instead would make an end state the user was never shown. Rolling
 * back is decided from the files themselves, so it is idempotent and needs no guess: a file in the backup whose place
 * in the Claude Code home is free goes back (and is compared with its SHA-256); a file whose place holds the same bytes
 * leaves its copy in the backup removed (a copy cut short, or not yet removed); a file whose place holds something else
 * (written there since) is never overwritten: both are kept, and the notice names them. An index holding the rewritten
 * bytes gets its saved original back; one rewritten by Claude Code since gets the removed entries re-inserted at their
 * positions (entries it has are left alone); one untouched stays byte-identical. Once every file is back, the Claude
 * Code part of the backup (manifest, index copies, emptied directories) goes; otherwise it stays, so that
 * {@code session_restore} still finds what is kept there.
 */
final class ClaudeJournal {
    static final String CTX = ApplyEngine.CTX;
    static final String SUFFIX = ".claude.json";
    private static final int MAX_NAMED = 5;

    enum Phase {
        CLAIMED,
        PREPARED,
        MOVING,
        INDEXES,
        ROLLBACK
    }

    /** A regular file the part moves, relative to the Claude Code home (and to {@code <backup>.files/claude/}). */
    record FileRef(String path, long size, String sha256) {}

    /** An index the part rewrites (relative path), its bytes' SHA-256 before and after, the entries it removes. */
    record Index(String path, String before_sha256, String after_sha256, List<SessionsIndex.Removed> removed) {}

    /** The journal file's content; paths relative to {@code claude_home}. */
    record Record(
            int version,
            String plan_id,
            String backup_id,
            String phase,
            String started_at,
            long pid,
            String claude_home,
            List<String> roots,
            List<FileRef> files,
            List<Index> indexes) {
        Record in(Phase p) {
            return new Record(
                    version,
                    plan_id,
                    backup_id,
                    p.name().toLowerCase(Locale.ROOT),
                    started_at,
                    pid,
                    claude_home,
                    roots,
                    files,
                    indexes);
        }
    }

    static Path dir(StewardPaths paths) {
        return paths.stateDir().resolve("journal");
    }

    static Path file(StewardPaths paths, String backupId) {
        return dir(paths).resolve(backupId + SUFFIX);
    }

    static Path lockFile(StewardPaths paths, String backupId) {
        return dir(paths).resolve(backupId + ".claude.lock");
    }

    static Record record(
            Clock clock,
            String planId,
            String backupId,
            Path home,
            List<String> roots,
            List<FileRef> files,
            List<Index> indexes) {
        return new Record(
                1,
                planId,
                backupId,
                Phase.CLAIMED.name().toLowerCase(Locale.ROOT),
                clock.instant().toString(),
                ProcessHandle.current().pid(),
                home.toString(),
                List.copyOf(roots),
                List.copyOf(files),
                List.copyOf(indexes));
    }

    /** The journal of a part in progress in this process: its lock and its file. */
    static final class Entry {
        private final StewardPaths paths;
        private final FileChannel channel;
        private final FileLock lock;
        private Record record;
        private boolean open = true;

        private Entry(StewardPaths paths, FileChannel channel, FileLock lock, Record record) {
            this.paths = paths;
            this.channel = channel;
            this.lock = lock;
            this.record = record;
        }

        boolean isOpen() {
            return open;
        }

        Record record() {
            return record;
        }

        /** Writes the journal in phase {@code p}; a failure is a {@link StewardError} (the caller takes its part back). */
        void write(Phase p) {
            Record r = record.in(p);
            try {
                AtomicFiles.write(file(paths, r.backup_id()), Json.MAPPER.writeValueAsBytes(r));
            } catch (IOException | RuntimeException e) {
                throw new StewardError(
                        CTX, "cannot write the Claude Code apply journal in " + dir(paths) + ": " + e.getMessage(), e);
            }
            record = r;
        }

        /** The part is settled (complete, or taken back whole): the journal and its lock file go. */
        void close() {
            if (!open) return;
            open = false;
            try {
                Files.deleteIfExists(file(paths, record.backup_id()));
                AtomicFiles.fsyncDir(dir(paths));
            } catch (IOException ignored) {
                // the next call settles it: settling is idempotent
            }
            ApplyJournal.release(channel, lock);
            try {
                Files.deleteIfExists(lockFile(paths, record.backup_id()));
            } catch (IOException ignored) {
                // an empty lock file: harmless
            }
        }

        /** Leaves the journal for the next call (not everything could be put back now). */
        void abandon() {
            if (!open) return;
            open = false;
            ApplyJournal.release(channel, lock);
        }
    }

    /** Starts (or, for a part taken back after it completed, starts again) the journal, in phase {@code p}. */
    static Entry open(StewardPaths paths, Record r, Phase p) {
        FileChannel ch = null;
        try {
            AtomicFiles.ensurePrivateDir(dir(paths));
            Path lf = lockFile(paths, r.backup_id());
            ch = FileChannel.open(lf, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            AtomicFiles.setMode(lf, AtomicFiles.FILE_MODE);
            FileLock lock = ch.lock();
            Entry e = new Entry(paths, ch, lock, r);
            e.write(p);
            return e;
        } catch (IOException | RuntimeException e) {
            if (ch != null) ApplyJournal.release(ch, null);
            throw new StewardError(
                    CTX,
                    "cannot start the Claude Code apply journal in " + dir(paths) + ": "
                            + (e instanceof StewardError ? e.getMessage() : Json.problem(e)) + "; nothing was changed",
                    e);
        }
    }

    /**
     * Settles every unfinished Claude Code journal of this state dir (parts still running elsewhere are left alone);
     * one notice per journal. A no-op without a journal dir.
     */
    static List<String> recover(StewardPaths paths) {
        List<String> notices = new ArrayList<>();
        for (Path f : journalFiles(paths)) {
            String name = f.getFileName().toString();
            String id = name.substring(0, name.length() - SUFFIX.length());
            Path lf = lockFile(paths, id);
            FileChannel ch = null;
            FileLock lock = null;
            try {
                ch = FileChannel.open(lf, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                try {
                    lock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null; // a part of this process holds it
                }
                if (lock == null || !Files.isRegularFile(f)) continue;
                notices.add(settle(paths, f));
            } catch (IOException | RuntimeException e) {
                notices.add("session_apply: an interrupted apply's Claude Code part (journal " + f
                        + ") could not be settled yet: "
                        + (e instanceof IOException && e.getMessage() != null ? e.getMessage() : Json.problem(e)));
            } finally {
                if (ch != null) ApplyJournal.release(ch, lock);
                if (lock != null) {
                    try {
                        if (!Files.exists(f)) Files.deleteIfExists(lf);
                    } catch (IOException ignored) {
                        // harmless
                    }
                }
            }
        }
        return notices;
    }

    static List<Path> journalFiles(StewardPaths paths) {
        Path d = dir(paths);
        if (!Files.isDirectory(d)) return List.of();
        try (var s = Files.list(d)) {
            return s.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.endsWith(SUFFIX)
                                && SessionBackup.isBackupId(n.substring(0, n.length() - SUFFIX.length()));
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Rolls one unfinished part back (its lock held) and removes its journal; returns the notice. */
    static String settle(StewardPaths paths, Path f) throws IOException {
        Record r;
        String damage;
        try {
            r = Json.MAPPER.readValue(Files.readAllBytes(f), Record.class);
            damage = damage(r, f);
        } catch (RuntimeException e) {
            r = null;
            damage = Json.problem(e);
        }
        // written atomically by Steward: a journal that does not read is not ours to guess about
        if (damage != null) throw new IOException("unreadable journal " + f + " (" + damage + "); it is left as it is");
        if (paths.claudeHome() == null)
            throw new IOException("no Claude Code home is configured (the journal names " + r.claude_home() + ")");
        Path home = paths.claudeHome().toAbsolutePath().normalize();
        Path named = Path.of(r.claude_home());
        if (!sameDir(home, named))
            throw new IOException("its Claude Code home " + named + " is not the configured one (" + home + ")");
        SessionBackup bk = new SessionBackup(paths.stateDir());
        Path filesRoot = bk.filesDir(r.backup_id()).resolve("claude");

        // 1. files: a root whose place is free goes back whole; then file by file, never over anything
        Set<String> movedBack = new HashSet<>();
        int back = 0;
        for (int i = r.roots().size() - 1; i >= 0; i--) {
            String root = r.roots().get(i);
            Path from = home.resolve(root);
            Path to = filesRoot.resolve(root);
            if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS) && Files.exists(to, LinkOption.NOFOLLOW_LINKS)) {
                FileMoves.move(to, from);
                for (FileRef x : r.files()) if (under(x.path(), root)) movedBack.add(x.path());
            }
        }
        List<String> kept = new ArrayList<>();
        List<String> differ = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (FileRef x : r.files()) {
            Path orig = home.resolve(x.path());
            Path saved = filesRoot.resolve(x.path());
            if (Files.isRegularFile(saved, LinkOption.NOFOLLOW_LINKS)) {
                if (!Files.exists(orig, LinkOption.NOFOLLOW_LINKS)) {
                    FileMoves.move(saved, orig);
                    movedBack.add(x.path());
                } else if (Files.isRegularFile(orig, LinkOption.NOFOLLOW_LINKS)
                        && FileMoves.sha256(orig).equals(x.sha256())) {
                    // the original is whole where it was: the copy is one a move left behind
                    Files.delete(saved);
                    AtomicFiles.fsyncDir(saved.getParent());
                    continue;
                } else {
                    kept.add(x.path()); // something was written at its place since: both stay
                    continue;
                }
            }
            if (movedBack.contains(x.path())) {
                back++;
                if (!Files.isRegularFile(orig, LinkOption.NOFOLLOW_LINKS)
                        || Files.size(orig) != x.size()
                        || !FileMoves.sha256(orig).equals(x.sha256())) differ.add(x.path());
            } else if (!Files.exists(orig, LinkOption.NOFOLLOW_LINKS)) {
                missing.add(x.path());
            }
        }

        Crashpoint.reach("recover.claude-files-back");

        // 2. indexes: the original where the rewritten bytes are, the removed entries re-inserted where Claude Code
        // rewrote it since
        int restored = 0;
        List<String> indexNotes = new ArrayList<>();
        List<Path> savedIndexes = new ArrayList<>();
        for (Index ix : r.indexes()) {
            Path file = home.resolve(ix.path());
            Path saved = filesRoot.resolve(ix.path());
            savedIndexes.add(saved);
            if (!Files.isRegularFile(file)) {
                indexNotes.add(ix.path() + " is gone; left so");
                continue;
            }
            byte[] now = Files.readAllBytes(file);
            String sha = FileMoves.sha256(now);
            if (sha.equals(ix.before_sha256())) continue; // never rewritten
            byte[] put = null;
            if (sha.equals(ix.after_sha256()) && Files.isRegularFile(saved)) {
                byte[] original = Files.readAllBytes(saved);
                if (FileMoves.sha256(original).equals(ix.before_sha256())) put = original;
            }
            if (put == null) {
                SessionsIndex.Read cur = SessionsIndex.parse(file, now);
                if (!cur.usable()) {
                    indexNotes.add(ix.path() + " cannot be parsed now (" + cur.error() + "); left as it is");
                    continue;
                }
                put = SessionsIndex.with(cur, ix.removed());
                if (Arrays.equals(put, now)) continue;
            }
            Set<PosixFilePermission> mode = mode(file);
            AtomicFiles.write(file, put);
            if (mode != null) AtomicFiles.setMode(file, mode);
            restored++;
        }

        // 3. the backup's Claude Code part goes once nothing of it is needed; the plan is released for a retry
        if (kept.isEmpty()) bk.discardUnapplied(r.backup_id(), false, savedIndexes);
        boolean released = new PlanStore(paths.stateDir()).releaseIfUsed(r.plan_id());
        Files.deleteIfExists(f);
        AtomicFiles.fsyncDir(f.getParent());

        StringBuilder n = new StringBuilder("session_apply: an apply of plan " + r.plan_id()
                + " was interrupted while it moved Claude Code sessions into backup " + r.backup_id() + " (phase "
                + r.phase() + "); it is taken back: ");
        n.append(back).append(" files moved back into ").append(home);
        n.append(", ").append(restored).append(' ').append(SessionsIndex.FILE).append(" restored");
        if (!differ.isEmpty())
            n.append("; ")
                    .append(differ.size())
                    .append(" moved back differ from what was backed up: ")
                    .append(named(differ));
        if (!missing.isEmpty())
            n.append("; ")
                    .append(missing.size())
                    .append(" are neither in the home nor in the backup: ")
                    .append(named(missing));
        if (!indexNotes.isEmpty()) n.append("; ").append(String.join("; ", indexNotes));
        if (!kept.isEmpty())
            n.append("; ")
                    .append(kept.size())
                    .append(" stay in backup ")
                    .append(r.backup_id())
                    .append(" because a different file was written at their place since (both kept, compare them): ")
                    .append(named(kept));
        else n.append("; the backup's Claude Code part is removed");
        n.append(released ? "; the plan can be applied again." : "; run session_audit again.");
        return n.toString();
    }

    /** Why a journal cannot be acted on, or null: every list there, every path relative and inside its root. */
    private static String damage(Record r, Path f) {
        if (r == null) return "empty";
        if (r.roots() == null || r.files() == null || r.indexes() == null) return "no list of roots, files or indexes";
        if (r.roots().contains(null) || r.files().contains(null) || r.indexes().contains(null))
            return "a null in its lists";
        if (!SessionBackup.isBackupId(r.backup_id())) return "no backup id";
        String name = f.getFileName().toString();
        if (!name.equals(r.backup_id() + SUFFIX)) return "it names backup " + r.backup_id();
        if (r.claude_home() == null || !Path.of(r.claude_home()).isAbsolute()) return "no Claude Code home";
        for (String p : r.roots()) if (!relative(p)) return "a path outside the home: " + p;
        for (FileRef x : r.files()) {
            if (!relative(x.path()) || x.sha256() == null) return "a path outside the home: " + x.path();
            if (r.roots().stream().noneMatch(root -> under(x.path(), root)))
                return "a file under none of its roots: " + x.path();
        }
        for (Index ix : r.indexes()) {
            if (!relative(ix.path())
                    || !ix.path().endsWith("/" + SessionsIndex.FILE)
                    || ix.removed() == null
                    || ix.removed().contains(null)) return "an index it cannot restore: " + ix.path();
        }
        return null;
    }

    /** A relative path with no {@code .}, {@code ..} or empty part (a name may begin with '-': project dirs do). */
    static boolean relative(String s) {
        if (s == null || s.isEmpty() || s.startsWith("/") || s.contains("\\") || s.contains("\u0000")) return false;
        for (String part : s.split("/", -1)) if (part.isEmpty() || part.equals(".") || part.equals("..")) return false;
        return true;
    }

    private static boolean under(String path, String root) {
        return path.equals(root) || path.startsWith(root + "/");
    }

    private static String named(List<String> paths) {
        String s = String.join(", ", paths.subList(0, Math.min(MAX_NAMED, paths.size())));
        return paths.size() > MAX_NAMED ? s + " and " + (paths.size() - MAX_NAMED) + " more" : s;
    }

    private static boolean sameDir(Path a, Path b) {
        if (a.equals(b.toAbsolutePath().normalize())) return true;
        try {
            return Files.isDirectory(a) && Files.isDirectory(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    private static Set<PosixFilePermission> mode(Path f) {
        try {
            return Files.getPosixFilePermissions(f);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }
}
