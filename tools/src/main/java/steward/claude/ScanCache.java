package steward.claude;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import steward.state.AtomicFiles;

/**
 * {@link TranscriptFacts} of transcript files keyed by their path relative to the Claude home and valid while the
 * file's size and modification time are unchanged, kept in {@code <state dir>/claude/scan-cache.bin}. A file that
 * changes is scanned again; an unreadable or foreign cache file is ignored (and replaced on the next save). Safe
 * for concurrent lookups and puts during one listing.
 */
public final class ScanCache {
    private static final int MAGIC = 0x53434331; // "SCC1"
    /** 2: lines that are not UTF-8 are decoded as Claude Code decodes them (a title there was missed). */
    private static final int VERSION = 2;

    private final Path file;
    private final Map<String, Entry> loaded;
    private final Map<String, Entry> seen;
    private volatile boolean dirty;

    record Entry(long size, long mtimeNanos, TranscriptFacts facts) {}

    private ScanCache(Path file, Map<String, Entry> loaded) {
        this.file = file;
        this.loaded = loaded;
        this.seen = new ConcurrentHashMap<>(Math.max(1024, loaded.size() * 4 / 3 + 16));
    }

    /** No cache: every lookup misses, nothing is saved. */
    public static ScanCache none() {
        return new ScanCache(null, Map.of());
    }

    public static Path defaultFile(Path stateDir) {
        return stateDir.resolve("claude").resolve("scan-cache.bin");
    }

    public static ScanCache load(Path file) {
        Map<String, Entry> m = new ConcurrentHashMap<>();
        try {
            ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)); // big-endian, as DataOutputStream wrote it
            if (in.getInt() != MAGIC || in.getInt() != VERSION) return new ScanCache(file, m);
            int n = in.getInt();
            if (n < 0 || n > in.remaining() / 16) throw new IOException("implausible entry count " + n);
            m = new ConcurrentHashMap<>(n * 4 / 3 + 16);
            for (int i = 0; i < n; i++) {
                String key = str(in);
                long size = in.getLong();
                long mtime = in.getLong();
                TranscriptFacts f = new TranscriptFacts(
                        str(in),
                        str(in),
                        str(in),
                        str(in),
                        in.getDouble(),
                        in.getDouble(),
                        str(in),
                        str(in),
                        in.getInt(),
                        in.get() != 0,
                        in.getInt(),
                        in.get() != 0,
                        in.get() != 0,
                        str(in),
                        in.getInt(),
                        in.get() != 0);
                m.put(key, new Entry(size, mtime, f));
            }
        } catch (NoSuchFileException e) {
            // first listing
        } catch (IOException | RuntimeException e) {
            m.clear(); // damaged or foreign: start over
        }
        return new ScanCache(file, m);
    }

    /** The cached facts of {@code key} if size and mtime match, else null. */
    public TranscriptFacts get(String key, long size, long mtimeNanos) {
        Entry e = loaded.get(key);
        if (e == null || e.size != size || e.mtimeNanos != mtimeNanos) return null;
        seen.put(key, e);
        return e.facts;
    }

    public void put(String key, long size, long mtimeNanos, TranscriptFacts facts) {
        seen.put(key, new Entry(size, mtimeNanos, facts));
        dirty = true;
    }

    /** Writes the entries seen in this listing (files gone since are dropped) when anything changed. */
    public void save() throws IOException {
        if (file == null) return;
        if (!dirty && seen.size() == loaded.size()) return;
        Out out = new Out(64 + seen.size() * 256);
        out.ensure(12).putInt(MAGIC).putInt(VERSION).putInt(seen.size());
        for (Map.Entry<String, Entry> me : seen.entrySet()) {
            Entry e = me.getValue();
            TranscriptFacts f = e.facts;
            out.str(me.getKey());
            out.ensure(16).putLong(e.size).putLong(e.mtimeNanos);
            out.str(f.sessionId());
            out.str(f.cwd());
            out.str(f.gitBranch());
            out.str(f.agentId());
            out.ensure(16).putDouble(f.firstEpoch()).putDouble(f.lastEpoch());
            out.str(f.title());
            out.str(f.titleKind());
            out.ensure(10)
                    .putInt(f.messages())
                    .put((byte) (f.exact() ? 1 : 0))
                    .putInt(f.sidechainMessages())
                    .put((byte) (f.allSidechain() ? 1 : 0));
            out.ensure(1).put((byte) (f.continuation() ? 1 : 0));
            out.str(f.continuedIn());
            out.ensure(5).putInt(f.malformed()).put((byte) (f.openTail() ? 1 : 0));
        }
        AtomicFiles.write(file, java.util.Arrays.copyOf(out.buf.array(), out.buf.position()));
        dirty = false;
    }

    /** A growing big-endian buffer (the layout DataOutputStream would write, without a call per byte). */
    private static final class Out {
        ByteBuffer buf;

        Out(int capacity) {
            buf = ByteBuffer.allocate(capacity);
        }

        ByteBuffer ensure(int n) {
            if (buf.remaining() < n) {
                ByteBuffer b = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n));
                buf.flip();
                b.put(buf);
                buf = b;
            }
            return buf;
        }

        void str(String s) {
            if (s == null) {
                ensure(4).putInt(-1);
                return;
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            ensure(4 + b.length).putInt(b.length).put(b);
        }
    }

    private static String str(ByteBuffer in) throws IOException {
        int n = in.getInt();
        if (n < 0) return null;
        if (n > in.remaining()) throw new IOException("implausible string length " + n);
        String s = new String(in.array(), in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }
}
