package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import steward.StewardError;
import steward.Work;
import steward.json.Json;
import steward.state.AtomicFiles;

/**
 * Embeds the indexed texts that have no vector yet, a batch at a time, curated memory and skills first, then the
 * newest messages: a background job, never on a tool call's path. Knows what is pending by comparing the index's text
 * hashes with the vector store's keys (rescanned when the index changed), and compacts the store when most of its rows
 * belong to texts no longer indexed.
 */
final class Embedder {
    /** A rescan for new texts happens at most this often while a queue is being worked through. */
    static final long RESCAN_MS = 10_000;

    private final RecallIndex index;
    private final VectorStore vectors;
    private final DenseModel model;
    private long scannedVersion = -1, scannedAt;
    private long[] queue = new long[0]; // text hashes, in the order to embed them
    private int next;
    private int garbage;

    Embedder(RecallIndex index, VectorStore vectors, DenseModel model) {
        this.index = index;
        this.vectors = vectors;
        this.model = model;
    }

    /** What the last scan found, kept in the vector dir so that a one-shot process need not scan again. */
    record Snapshot(long version, int pending, int rows) {}

    /** This process's count of texts waiting, and the index version it is of; published without the lock. */
    private record Progress(long version, int pending) {}

    private volatile Progress progress;

    /**
     * Texts still waiting for their vector as known now, without a scan and without waiting for the embedder's lock (a
     * tool call's path: the background embedder holds the lock while it picks texts): this process's count of the
     * current index, else another process's snapshot of it; null when neither is of the current index.
     */
    Integer pendingNow() {
        IndexSearcher s = index.acquire();
        if (s == null) return 0;
        try {
            long v = ((DirectoryReader) s.getIndexReader()).getVersion();
            Progress p = progress;
            if (p != null && p.version() == v) return p.pending();
            Snapshot snap = readSnapshot();
            return snap != null && snap.version() == v
                    ? Math.max(0, snap.pending() - Math.max(0, vectors.size() - snap.rows()))
                    : null;
        } finally {
            index.release(s);
        }
    }

    /** This process's last count, of whatever index version (null before its first scan). */
    Integer pendingLastCounted() {
        Progress p = progress;
        return p == null ? null : p.pending();
    }

    /**
     * Texts still waiting for their vector. From this process's last scan of the current index, else from the snapshot
     * another process left for the same index version (less the rows stored since), else from a scan.
     */
    synchronized int pending() {
        IndexSearcher s = index.acquire();
        if (s == null) return 0;
        try {
            long v = ((DirectoryReader) s.getIndexReader()).getVersion();
            if (v != scannedVersion) {
                Snapshot snap = readSnapshot();
                if (snap != null && snap.version() == v)
                    return Math.max(0, snap.pending() - Math.max(0, vectors.size() - snap.rows()));
                scan(s, v);
            }
            return publish();
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read the index: " + e.getMessage());
        } finally {
            index.release(s);
        }
    }

    /** Vector rows whose text is no longer indexed (as of the last scan). */
    synchronized int garbage() {
        return garbage;
    }

    /** Grows as needed; primitive, so a million texts cost megabytes, not a hundred. */
    private static final class Longs {
        long[] a = new long[1024];
        int n;

        void add(long v) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            a[n++] = v;
        }
    }

    private void scan(IndexSearcher s, long version) throws IOException {
        Longs all = new Longs(), missing = new Longs(), order = new Longs();
        RecallIndex.forEachTextHash(s.getIndexReader(), (doc, key, ts, source) -> {
            all.add(key);
            if (vectors.contains(key)) return;
            boolean curated = RecallItem.memory(source) || RecallItem.SKILL.equals(source);
            // curated first, then newest first (minutes since the epoch, negated)
            int prio = curated ? Integer.MIN_VALUE : (int) -Math.min(Integer.MAX_VALUE, Math.max(0, (long) (ts / 60)));
            order.add((long) prio << 32 | (missing.n & 0xffffffffL));
            missing.add(key);
        });
        long[] live = Arrays.copyOf(all.a, all.n);
        Arrays.sort(live);
        long[] ord = Arrays.copyOf(order.a, order.n);
        Arrays.sort(ord);
        long[] distinct = Arrays.copyOf(missing.a, missing.n);
        Arrays.sort(distinct);
        boolean[] taken = new boolean[distinct.length];
        Longs q = new Longs();
        for (long o : ord) {
            long key = missing.a[(int) o];
            int at = Arrays.binarySearch(distinct, key);
            if (taken[at]) continue;
            taken[at] = true;
            q.add(key);
        }
        queue = Arrays.copyOf(q.a, q.n);
        next = 0;
        int g = 0;
        for (long k : vectors.keys()) if (Arrays.binarySearch(live, k) < 0) g++;
        garbage = g;
        scannedVersion = version;
        scannedAt = System.currentTimeMillis();
        publish();
        writeSnapshot(new Snapshot(version, queue.length, vectors.size()));
    }

    /** Publishes (and returns) the count of this process's queue: the texts not taken yet. Under the lock. */
    private int publish() {
        int n = queue.length - next;
        progress = new Progress(scannedVersion, n);
        return n;
    }

    private Path snapshotFile() {
        return vectors.dir().resolve("pending.json");
    }

    private Snapshot readSnapshot() {
        try {
            Path f = snapshotFile();
            return Files.isRegularFile(f) ? Json.MAPPER.readValue(Files.readAllBytes(f), Snapshot.class) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private void writeSnapshot(Snapshot s) {
        if (!Files.isDirectory(vectors.dir()) && s.pending() == 0) return;
        try {
            AtomicFiles.write(snapshotFile(), Json.MAPPER.writeValueAsBytes(s));
        } catch (IOException | RuntimeException ignored) {
            // only an optimisation for other processes
        }
    }

    /**
     * Embeds up to {@code max} pending texts and stores their vectors; returns how many were stored (0 when nothing is
     * pending or the model cannot be loaded).
     */
    int step(int max, Work work) {
        long[] keys;
        List<String> texts = new ArrayList<>();
        synchronized (this) {
            IndexSearcher s = index.acquire();
            if (s == null) return 0;
            try {
                long v = ((DirectoryReader) s.getIndexReader()).getVersion();
                boolean stale = v != scannedVersion
                        && (next >= queue.length || System.currentTimeMillis() - scannedAt > RESCAN_MS);
                if (stale || scannedVersion < 0) scan(s, v);
                List<Long> chosen = new ArrayList<>();
                while (next < queue.length && chosen.size() < max) {
                    long k = queue[next++];
                    if (vectors.contains(k)) continue; // done by another process (a lookup, before any index query)
                    ScoreDoc[] hit = s.search(LongPoint.newExactQuery(RecallIndex.F_THASH, k), 1).scoreDocs;
                    if (hit.length == 0) continue; // gone
                    chosen.add(k);
                    texts.add(RecallIndex.stored(s, hit[0].doc)[1]);
                }
                publish();
                keys = chosen.stream().mapToLong(Long::longValue).toArray();
            } catch (IOException e) {
                throw new StewardError("recall", "cannot read the index: " + e.getMessage());
            } finally {
                index.release(s);
            }
        }
        if (keys.length == 0) {
            maybeCompact();
            return 0;
        }
        work.checkpoint("recall embedding");
        List<float[]> vs = model.embedAll(texts);
        if (vs == null) return 0;
        return vectors.append(keys, vs);
    }

    /** Rewrites the vector files without dead rows once they outnumber the live ones (and number over 10,000). */
    private void maybeCompact() {
        int g;
        synchronized (this) {
            g = garbage;
        }
        if (g <= 10_000 || g <= vectors.size() - g) return;
        Longs all = new Longs();
        IndexSearcher s = index.acquire();
        if (s == null) return;
        try {
            RecallIndex.forEachTextHash(s.getIndexReader(), (doc, key, ts, source) -> all.add(key));
        } catch (IOException e) {
            return;
        } finally {
            index.release(s);
        }
        long[] live = Arrays.copyOf(all.a, all.n);
        Arrays.sort(live);
        vectors.compact(k -> Arrays.binarySearch(live, k) >= 0);
        synchronized (this) {
            garbage = 0;
        }
    }
}
