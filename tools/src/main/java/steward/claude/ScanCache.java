package steward.claude;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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
    private static final int VERSION = 1;

    private final Path file;
    private final Map<String, Entry> loaded;
    private final Map<String, Entry> seen = new ConcurrentHashMap<>();
    private volatile boolean dirty;

    record Entry(long size, long mtimeNanos, TranscriptFacts facts) {}

    private ScanCache(Path file, Map<String, Entry> loaded) {
        this.file = file;
        this.loaded = loaded;
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
            byte[] bytes = Files.readAllBytes(file);
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            if (in.readInt() != MAGIC || in.readInt() != VERSION) return new ScanCache(file, m);
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                String key = str(in);
                long size = in.readLong();
                long mtime = in.readLong();
                TranscriptFacts f = new TranscriptFacts(
                        str(in),
                        str(in),
                        str(in),
                        str(in),
                        in.readDouble(),
                        in.readDouble(),
                        str(in),
                        str(in),
                        in.readInt(),
                        in.readBoolean(),
                        in.readInt(),
                        in.readBoolean(),
                        in.readBoolean(),
                        str(in),
                        in.readInt(),
                        in.readBoolean());
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
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + seen.size() * 160);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(seen.size());
        for (Map.Entry<String, Entry> me : seen.entrySet()) {
            Entry e = me.getValue();
            TranscriptFacts f = e.facts;
            str(out, me.getKey());
            out.writeLong(e.size);
            out.writeLong(e.mtimeNanos);
            str(out, f.sessionId());
            str(out, f.cwd());
            str(out, f.gitBranch());
            str(out, f.agentId());
            out.writeDouble(f.firstEpoch());
            out.writeDouble(f.lastEpoch());
            str(out, f.title());
            str(out, f.titleKind());
            out.writeInt(f.messages());
            out.writeBoolean(f.exact());
            out.writeInt(f.sidechainMessages());
            out.writeBoolean(f.allSidechain());
            out.writeBoolean(f.continuation());
            str(out, f.continuedIn());
            out.writeInt(f.malformed());
            out.writeBoolean(f.openTail());
        }
        out.flush();
        AtomicFiles.write(file, bytes.toByteArray());
        dirty = false;
    }

    private static void str(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String str(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) return null;
        if (n > 1 << 24) throw new IOException("implausible string length " + n);
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
