package steward.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Every file Steward writes goes through here: a temp file in the same directory, fsync, atomic
 * rename, fsync of the directory. A reader sees the old file or the new one, never a torn one.
 * Files are created private to the user (0600), directories 0700.
 */
public final class AtomicFiles {
    private AtomicFiles() {}

    public static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    public static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");

    public static void writeString(Path target, String content) throws IOException {
        write(target, content.getBytes(StandardCharsets.UTF_8));
    }

    public static void write(Path target, byte[] bytes) throws IOException {
        write(target, ch -> {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) ch.write(buf);
        });
    }

    /** Streams {@code in} to {@code target} the same way (a large file never sits on the heap whole). */
    public static void write(Path target, InputStream in) throws IOException {
        write(target, ch -> {
            byte[] b = new byte[1 << 16];
            for (int n; (n = in.read(b)) > 0; ) {
                ByteBuffer buf = ByteBuffer.wrap(b, 0, n);
                while (buf.hasRemaining()) ch.write(buf);
            }
        });
    }

    /** Writes {@code parts} one after the other (a gathering write: no copy into one array). */
    public static void write(Path target, ByteBuffer... parts) throws IOException {
        write(target, ch -> {
            for (ByteBuffer part : parts) {
                ByteBuffer buf = part.duplicate();
                while (buf.hasRemaining()) ch.write(buf);
            }
        });
    }

    /** What fills a temp file. */
    private interface Filler {
        void fill(FileChannel ch) throws IOException;
    }

    /**
     * The temp file is named {@code .<name>.tmp-<pid>-<hex>} and locked (a {@link FileChannel} lock) while it is
     * written, so a sweep in another process can tell a write in progress from a file a killed process left, even when
     * the pid has been reused; temps of this process are known by name ({@link #INFLIGHT}), never opened by a sweep.
     */
    private static void write(Path target, Filler filler) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        ensurePrivateDir(dir);
        // a killed writer's temp here goes before this process first writes here: the start-up sweep lists only the
        // state dir and Hermes' memory dirs, not the Claude Code home, skills or any other place written through here
        if (!SWEPT.contains(dir.normalize())) removeStaleTemps(dir, 1);
        Path tmp = dir.resolve("." + target.getFileName() + ".tmp-"
                        + ProcessHandle.current().pid() + "-"
                        + Long.toHexString(ThreadLocalRandom.current().nextLong()))
                .normalize();
        INFLIGHT.add(tmp);
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                lock(ch);
                setMode(tmp, FILE_MODE);
                filler.fill(ch);
                ch.force(true);
            } // closing releases the lock: from here the temp is complete, and kept by a sweep for its age
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("atomic rename not supported in " + dir, e);
            }
            fsyncDir(dir);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } finally {
                INFLIGHT.remove(tmp);
            }
        }
    }

    /** Locks a fresh temp file for its writer; a file system without locks writes unlocked (the age rule still holds). */
    private static void lock(FileChannel ch) {
        try {
            ch.tryLock();
        } catch (IOException | RuntimeException ignored) {
            // e.g. a network file system without fcntl locks
        }
    }

    /** Creates {@code dir} (and parents) if missing; directories this call creates get mode 0700. */
    public static void ensurePrivateDir(Path dir) throws IOException {
        if (Files.isDirectory(dir)) return;
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) ensurePrivateDir(parent);
        try {
            Files.createDirectory(dir);
            setMode(dir, DIR_MODE);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) throw e;
        }
    }

    public static void setMode(Path p, Set<PosixFilePermission> mode) {
        try {
            Files.setPosixFilePermissions(p, mode);
        } catch (UnsupportedOperationException | IOException ignored) {
            // non-POSIX file system: nothing more we can do
        }
    }

    /** The temp-file names {@link #write} uses: {@code .<name>.tmp-<pid>-<hex>}. */
    private static final Pattern TEMP = Pattern.compile("\\..+\\.tmp-(\\d{1,10})-[0-9a-f]{1,16}");

    /** Temp files this process is writing now (absolute, normalised). */
    private static final Set<Path> INFLIGHT = ConcurrentHashMap.newKeySet();

    /** The directories this process has swept of stale temps (absolute, normalised): each is listed once. */
    private static final Set<Path> SWEPT = ConcurrentHashMap.newKeySet();

    /** An unlocked temp file of a live pid this old is stale all the same (the pid was reused). */
    public static final Duration STALE_AFTER = Duration.ofMinutes(5);

    /** The depth {@link #removeStaleTemps(Path)} looks down to (the state dir's deepest temps are 3 levels down). */
    public static final int SWEEP_DEPTH = 4;

    /** Whether {@code name} is one of {@link #write}'s temp-file names. */
    public static boolean isTempName(String name) {
        return TEMP.matcher(name).matches();
    }

    /** {@link #removeStaleTemps(Path, int)} down to {@link #SWEEP_DEPTH}. */
    public static int removeStaleTemps(Path root) {
        return removeStaleTemps(root, SWEEP_DEPTH);
    }

    /**
     * Removes the temp files killed Steward processes left under {@code root}, at most {@code depth} levels down: only
     * regular files (never a link, a directory or a file of another name) named as {@link #write} names its temps, and
     * only when stale: not locked by a writer, and either its process is gone or it is at least {@link #STALE_AFTER}
     * old. Symbolic links are not followed, so nothing outside {@code root} is looked at. Returns how many were removed;
     * never throws.
     */
    public static int removeStaleTemps(Path root, int depth) {
        int[] n = {0};
        if (depth < 1 || !Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) return 0;
        sweep(root, depth, Instant.now(), n);
        return n[0];
    }

    /**
     * One directory: its temp files, then (depth allowing) its subdirectories. Only entries whose name has no dot are
     * looked at as directories (one {@code stat} each): Steward's own directories are named so ({@code plans},
     * {@code backups}, {@code sessions}, {@code recall}, ...), and the ones with a dot hold no file written through here
     * and can hold many ({@code backups/sessions/<id>.files/}: side files moved from Hermes' home; {@code repo.git}: the
     * memory history's repository). The recall index ({@code recall/index/}, Lucene's own files) is not listed either.
     */
    private static void sweep(Path dir, int depth, Instant now, int[] n) {
        SWEPT.add(dir.toAbsolutePath().normalize());
        java.util.List<Path> subdirs = new java.util.ArrayList<>();
        try (var s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (isTempName(name)) {
                    try {
                        if (stale(p, now) && Files.deleteIfExists(p)) n[0]++;
                    } catch (IOException | RuntimeException ignored) {
                        // not ours to fight over
                    }
                } else if (depth > 1
                        && name.indexOf('.') < 0
                        && !(name.equals("index") && "recall".equals(String.valueOf(dir.getFileName())))
                        && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    subdirs.add(p);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            return; // housekeeping only
        }
        for (Path d : subdirs) sweep(d, depth - 1, now, n);
    }

    /** Whether the temp file {@code p} (named as {@link #write} names them) was left by a process that no longer writes it. */
    static boolean stale(Path p, Instant now) throws IOException {
        var m = TEMP.matcher(p.getFileName().toString());
        if (!m.matches()) return false;
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) return false;
        long pid = Long.parseLong(m.group(1));
        boolean self = pid == ProcessHandle.current().pid();
        // this process's own temps are never opened here: closing any channel on a file drops this process's locks on
        // it
        if (self && INFLIGHT.contains(p.toAbsolutePath().normalize())) return false;
        if (locked(p)) return false;
        boolean gone = self || ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
        return gone || !a.lastModifiedTime().toInstant().plus(STALE_AFTER).isAfter(now);
    }

    /** Whether another writer holds a lock on {@code p}; true also when that cannot be told (then it is kept). */
    private static boolean locked(Path p) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            FileLock l = ch.tryLock(0, Long.MAX_VALUE, true);
            if (l == null) return true;
            l.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true; // held in this JVM
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * What says a file was replaced or changed: size, modification time and file key (the inode). A file written by
     * rename, as this class and Hermes write, is another inode, so a rewrite of the same size within one tick of the
     * file system's clock still reads as news; "-" when it cannot be read.
     */
    public static String stamp(Path file) {
        try {
            java.nio.file.attribute.BasicFileAttributes a =
                    Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
            return a.size() + ":" + a.lastModifiedTime() + ":" + a.fileKey();
        } catch (IOException e) {
            return "-";
        }
    }

    public static void fsyncDir(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // some file systems refuse to open a directory; the rename is still atomic
        }
    }

    /**
     * Where a write of a user's file lands: a symlinked file (a memory file or skill kept in a dotfiles checkout) is
     * written through to the file it points at, as Hermes' {@code atomic_replace} does, so the link stays; a link to a
     * file not there yet is followed as written, into a folder that exists (else NoSuchFileException, as Hermes fails). Steward's own state files are written where they are named.
     */
    public static Path throughLinks(Path file) throws IOException {
        if (!Files.isSymbolicLink(file)) return file;
        try {
            return file.toRealPath();
        } catch (java.nio.file.NoSuchFileException e) {
            Path p = file;
            for (int i = 0; i < 40 && Files.isSymbolicLink(p); i++) p = p.resolveSibling(Files.readSymbolicLink(p));
            // as Hermes' own write: a link into a folder that does not exist is an error, never a folder made for it
            Path parent = p.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent))
                throw new java.nio.file.NoSuchFileException(p.toString(), null, "no folder " + parent);
            return p;
        }
    }
}
