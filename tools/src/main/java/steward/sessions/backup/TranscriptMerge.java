package steward.sessions.backup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import steward.state.AtomicFiles;
import steward.state.FileMoves;

/**
 * Puts a backed-up Claude Code transcript back under the lines written at its path since it was moved: Claude Code
 * appends to a session's transcript by path, so a window still open on a session Steward moved creates a new file that
 * holds only the new turns. The whole transcript is the backup's bytes followed by that file's bytes; this writes it
 * (a temp file, fsynced, renamed over the path) and then copies over whatever was appended to the replaced file
 * between the read and the rename, so no line is lost and nothing is overwritten that is not also kept.
 */
final class TranscriptMerge {
    private TranscriptMerge() {}

    /** How long the replaced file is watched for appends that opened it before the rename. */
    static final long SETTLE_MS = 200;

    /** What became of the path. */
    enum Result {
        /** The file at the path already begins with the backup's bytes: nothing to do. */
        ALREADY_THERE,
        /** The backup's bytes were put before the file's. */
        MERGED
    }

    /** Whether {@code name} is a transcript Claude Code appends to (JSON lines). */
    static boolean mergeable(String name) {
        return name.endsWith(".jsonl");
    }

    /**
     * Merges {@code saved} (the backup's copy, whose SHA-256 must be {@code sha256}) under {@code live} (written at the
     * path since). The backup's copy is left where it is.
     */
    static Result merge(Path saved, Path live, String sha256) throws IOException {
        if (sha256 != null && !FileMoves.sha256(saved).equals(sha256))
            throw new IOException(saved + " in the backup does not match its hash");
        if (FileMoves.startsWith(live, saved)) return Result.ALREADY_THERE;
        Set<PosixFilePermission> mode = null;
        try {
            mode = Files.getPosixFilePermissions(live, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException ignored) {
            // not POSIX
        }
        long savedSize = Files.size(saved);
        boolean newline = savedSize > 0 && !endsWithNewline(saved, savedSize);
        try (FileChannel old = FileChannel.open(live, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long read = old.size();
            InputStream head = Files.newInputStream(saved, LinkOption.NOFOLLOW_LINKS);
            InputStream sep = new ByteArrayInputStream(newline ? new byte[] {'\n'} : new byte[0]);
            InputStream tail = bounded(old, read);
            try (InputStream all = new SequenceInputStream(Collections.enumeration(List.of(head, sep, tail)))) {
                AtomicFiles.write(live, all);
            }
            if (mode != null) AtomicFiles.setMode(live, mode);
            // a writer that opened the path before the rename appended to the replaced file: carry those bytes over
            long quiet = System.nanoTime();
            while ((System.nanoTime() - quiet) / 1_000_000 < SETTLE_MS) {
                long now = old.size();
                if (now > read) {
                    append(old, read, now, live);
                    read = now;
                    quiet = System.nanoTime();
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            long last = old.size();
            if (last > read) append(old, read, last, live);
        }
        if (!FileMoves.startsWith(live, saved))
            throw new IOException(live + " does not begin with the backup's copy after the merge");
        return Result.MERGED;
    }

    private static boolean endsWithNewline(Path f, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, size - 1);
            return b.get(0) == '\n';
        }
    }

    /** The first {@code n} bytes of {@code ch}, from position 0, without moving a shared position. */
    private static InputStream bounded(FileChannel ch, long n) throws IOException {
        ch.position(0);
        InputStream in = Channels.newInputStream(ch);
        return new InputStream() {
            long left = n;

            @Override
            public int read() throws IOException {
                if (left <= 0) return -1;
                int b = in.read();
                if (b >= 0) left--;
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                if (left <= 0) return -1;
                int r = in.read(buf, off, (int) Math.min(len, left));
                if (r > 0) left -= r;
                return r;
            }

            @Override
            public void close() {
                // the channel is closed by its owner
            }
        };
    }

    private static void append(FileChannel from, long start, long end, Path to) throws IOException {
        try (FileChannel out = FileChannel.open(to, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            long pos = start;
            while (pos < end) pos += from.transferTo(pos, end - pos, out);
            out.force(true);
        }
    }
}
