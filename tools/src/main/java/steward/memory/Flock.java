package steward.memory;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.file.Path;
import steward.state.AtomicFiles;
import steward.state.IoErrors;

/**
 * A real {@code flock(2)} exclusive lock on a lock file, the way Hermes locks {@code MEMORY.md.lock}
 * ({@code fcntl.flock(fd, LOCK_EX)}). Java's {@code FileChannel.lock} is an fcntl/OFD record lock, which on
 * Linux does not exclude a {@code flock} holder, so libc is called through JNA. Every acquisition opens its own
 * file description, so threads of one JVM exclude each other exactly as separate processes do.
 */
public final class Flock implements AutoCloseable {
    private static final int O_RDWR = 2;
    private static final int O_CREAT = 0100;
    private static final int O_CLOEXEC = 02000000;
    private static final int LOCK_EX = 2;
    private static final int LOCK_NB = 4;
    private static final int LOCK_UN = 8;
    private static final int EINTR = 4;
    private static final int EWOULDBLOCK = 11;
    /** How long a write waits for another holder (Hermes waits forever; a hung holder should not hang a tool call). */
    public static final long DEFAULT_TIMEOUT_MS = 60_000;

    interface CLib extends Library {
        int open(String path, int flags, int mode) throws LastErrorException;

        int flock(int fd, int operation) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    private static volatile CLib libc;

    private static CLib libc() {
        CLib l = libc;
        if (l == null) {
            synchronized (Flock.class) {
                if (libc == null) libc = Native.load("c", CLib.class);
                l = libc;
            }
        }
        return l;
    }

    private int fd;

    private Flock(int fd) {
        this.fd = fd;
    }

    /** Waits (up to {@link #DEFAULT_TIMEOUT_MS}) until the exclusive lock on {@code lockFile} is held; creates the file (0600) if needed. */
    public static Flock exclusive(Path lockFile) throws IOException {
        return exclusive(lockFile, DEFAULT_TIMEOUT_MS);
    }

    public static Flock exclusive(Path lockFile, long timeoutMs) throws IOException {
        AtomicFiles.ensurePrivateDir(lockFile.toAbsolutePath().getParent());
        CLib c = libc();
        int fd;
        try {
            fd = c.open(lockFile.toString(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        } catch (LastErrorException e) {
            throw new IOException(IoErrors.errno(e.getErrorCode()) + ": cannot open lock file " + lockFile, e);
        }
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        long sleepMicros = 50;
        while (true) {
            try {
                c.flock(fd, LOCK_EX | LOCK_NB);
                return new Flock(fd);
            } catch (LastErrorException e) {
                int err = e.getErrorCode();
                if (err != EINTR && err != EWOULDBLOCK) {
                    closeQuietly(c, fd);
                    throw new IOException("cannot lock " + lockFile + ": " + IoErrors.errno(err), e);
                }
            }
            if (System.nanoTime() > deadline) {
                closeQuietly(c, fd);
                throw new IOException(
                        lockFile.getFileName() + " has been locked by another process for " + timeoutMs / 1000
                                + " s (a Hermes session or another writer); nothing was written, retry later");
            }
            try {
                Thread.sleep(sleepMicros / 1000, (int) (sleepMicros % 1000) * 1000);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                closeQuietly(c, fd);
                throw new IOException("interrupted while waiting for " + lockFile, ie);
            }
            sleepMicros = Math.min(sleepMicros * 2, 20_000);
        }
    }

    private static void closeQuietly(CLib c, int fd) {
        try {
            c.close(fd);
        } catch (LastErrorException ignored) {
            // already failing
        }
    }

    @Override
    public void close() {
        if (fd < 0) return;
        CLib c = libc();
        try {
            c.flock(fd, LOCK_UN);
        } catch (LastErrorException ignored) {
            // closing the descriptor releases the lock anyway
        }
        try {
            c.close(fd);
        } catch (LastErrorException ignored) {
            // nothing more to do
        }
        fd = -1;
    }
}
