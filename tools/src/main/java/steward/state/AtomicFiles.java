package steward.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
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
        Path dir = target.toAbsolutePath().getParent();
        ensurePrivateDir(dir);
        Path tmp = dir.resolve(
                "." + target.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-"
                        + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                setMode(tmp, FILE_MODE);
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) ch.write(buf);
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("atomic rename not supported in " + dir, e);
            }
            fsyncDir(dir);
        } finally {
            Files.deleteIfExists(tmp);
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
    private static final Pattern TEMP = Pattern.compile("\\..+\\.tmp-(\\d+)-[0-9a-f]+");

    /**
     * Removes the temp files a killed Steward process left under {@code root} (its own pattern, and only when that
     * process no longer runs). Returns how many were removed; never throws.
     */
    public static int removeStaleTemps(Path root) {
        int[] n = {0};
        try (var s = Files.walk(root, 4)) {
            s.filter(p -> {
                        var m = TEMP.matcher(p.getFileName().toString());
                        return m.matches() && !alive(Long.parseLong(m.group(1))) && Files.isRegularFile(p);
                    })
                    .forEach(p -> {
                        try {
                            if (Files.deleteIfExists(p)) n[0]++;
                        } catch (IOException ignored) {
                            // not ours to fight over
                        }
                    });
        } catch (IOException | RuntimeException ignored) {
            // housekeeping only
        }
        return n[0];
    }

    private static boolean alive(long pid) {
        return pid == ProcessHandle.current().pid()
                || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    public static void fsyncDir(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // some file systems refuse to open a directory; the rename is still atomic
        }
    }
}
