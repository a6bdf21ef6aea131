package steward.memory;

import java.io.IOException;
import java.nio.file.Path;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;

import steward.state.AtomicFiles;

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
    private static final int LOCK_UN = 8;
    private static final int EINTR = 4;

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

    /** Blocks until the exclusive lock on {@code lockFile} is held; creates the file (0600) if needed. */
    public static Flock exclusive(Path lockFile) throws IOException {
        AtomicFiles.ensurePrivateDir(lockFile.toAbsolutePath().getParent());
        CLib c = libc();
        int fd;
        try {
            fd = c.open(lockFile.toString(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        } catch (LastErrorException e) {
            throw new IOException("cannot open lock file " + lockFile + ": errno " + e.getErrorCode(), e);
        }
        while (true) {
            try {
                c.flock(fd, LOCK_EX);
                return new Flock(fd);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == EINTR) continue;
                try { c.close(fd); } catch (LastErrorException ignored) { /* already failing */ }
                throw new IOException("flock(" + lockFile + ") failed: errno " + e.getErrorCode(), e);
            }
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
