package steward.recall;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongPredicate;
import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;

/**
 * Dense vectors, compact ({@code <state dir>/recall/vectors/}), memory-mapped by a long-lived process and read by a
 * one-shot one. Each row is keyed by the 64-bit hash of the exact text it embeds (so a text is embedded once however
 * many items say it, and an unchanged text is never embedded again) and stored twice: as int8 with a per-row scale (388
 * bytes; the exact score), and as 384 sign bits (48 bytes; a first pass over every row by Hamming distance when there
 * are many). Files are append-only; a small header written atomically after the rows are on disk says how many rows are
 * valid, so a reader never sees a torn row and a crash mid-append loses only the unfinished batch. Rows are appended
 * under a file lock, so two Steward processes never write at once; readers need no lock. Rows whose text is no longer
 * indexed stay until the store is compacted.
 */
final class VectorStore implements AutoCloseable {
    static final int FORMAT = 2;
    static final int DIM = DenseModel.DIM, ROW = DIM + 4, BITS_LONGS = DIM / 64, BITS = BITS_LONGS * 8;
    /** Up to this many rows every row is scored exactly; above it the sign bits choose the rows to score. */
    static final int EXACT_ROWS = 20_000;
    /** Rows kept from the sign-bit pass per wanted result (at least {@link #MIN_RESCORE}). */
    static final int RESCORE_PER_RESULT = 16, MIN_RESCORE = 800;

    record Header(int format, String model, int dim, long rows, int gen) {}

    /** One scored row: the text hash it embeds and its cosine with the query. */
    record Scored(long key, double cosine) {}

    private final Path dir;
    private Header header;
    private FileTime headerStamp;
    private MappedByteBuffer keys, rows;
    private int mapped;
    private LongIntMap index; // key -> row, built on first need
    /**
     * The sign bits of the first {@link #signRows} rows on the heap (48 bytes a row), read by {@link #readSignBits}: the
     * pass reads them from a {@code long[]} twice as fast as from a mapped file under the launcher's C1-only JIT (32 → 17
     * ms for 687,000 rows).
     */
    private long[] signWords = new long[0];

    private int signRows;

    /**
     * For a process that runs a query or two and exits (a one-shot {@code steward call}): a search reads what it needs
     * from the files ({@link ReadRows}) and keeps nothing (no sign bits on the heap, no key index), so a one-shot
     * search's resident size does not grow with the history. A long-lived process keeps them (faster queries).
     */
    private final boolean oneShot;

    VectorStore(Path recallDir) {
        this(recallDir, false);
    }

    VectorStore(Path recallDir, boolean oneShot) {
        this.dir = recallDir.resolve("vectors");
        this.oneShot = oneShot;
    }

    Path dir() {
        return dir;
    }

    private Path headerFile() {
        return dir.resolve("header.json");
    }

    private Path file(int gen, String ext) {
        return dir.resolve("g" + gen + "." + ext);
    }

    /** Rows readable now (re-reads the header when another process appended). */
    synchronized int size() {
        refresh();
        return mapped;
    }

    /** Bytes of the vector files on disk. */
    synchronized long bytesOnDisk() {
        refresh();
        if (header == null) return 0;
        long n = 0;
        for (String ext : List.of("keys", "i8", "bits")) {
            try {
                n += Files.size(file(header.gen(), ext));
            } catch (IOException ignored) {
                // absent
            }
        }
        return n;
    }

    private void refresh() {
        Path h = headerFile();
        try {
            // one stat per look (a query looks more than once): whether the header is there, and its time
            BasicFileAttributes attrs;
            try {
                attrs = Files.readAttributes(h, BasicFileAttributes.class);
            } catch (IOException absent) {
                attrs = null;
            }
            if (attrs == null || !attrs.isRegularFile()) {
                if (header != null) unmap();
                header = null;
                return;
            }
            FileTime stamp = attrs.lastModifiedTime();
            if (header != null && stamp.equals(headerStamp)) return;
            Header fresh = Json.MAPPER.readValue(Files.readAllBytes(h), Header.class);
            headerStamp = stamp;
            if (fresh.format() != FORMAT || !DenseModel.MODEL.equals(fresh.model()) || fresh.dim() != DIM) {
                header = null; // another model or layout: its rows are not comparable, they are recomputed
                unmap();
                return;
            }
            if (header == null || header.gen() != fresh.gen() || fresh.rows() < mapped) unmap();
            header = fresh;
            map((int) fresh.rows());
        } catch (IOException | RuntimeException e) {
            unmap();
            header = null;
        }
    }

    private void map(int n) throws IOException {
        if (n == mapped && keys != null) return;
        int from = mapped;
        keys = mapFile(file(header.gen(), "keys"), (long) n * 8);
        rows = mapFile(file(header.gen(), "i8"), (long) n * ROW);
        readSignBits(n);
        mapped = n;
        if (index != null) for (int r = from; r < n; r++) index.put(keys.getLong(r * 8), r);
    }

    /**
     * Reads the sign bits of rows {@link #signRows} to {@code n} onto the heap once the store is past {@link #EXACT_ROWS}
     * (below it every row is scored exactly and the bits are not read). They are read, not mapped: a mapped copy would
     * stay resident beside the heap's (33 MB each at 687,000 rows).
     */
    private void readSignBits(int n) throws IOException {
        try (FileChannel ch = FileChannel.open(file(header.gen(), "bits"), StandardOpenOption.READ)) {
            if (ch.size() < (long) n * BITS)
                throw new IOException(file(header.gen(), "bits") + " is shorter than its header says");
            if (oneShot || n <= EXACT_ROWS || n == signRows) return;
            long[] grown = Arrays.copyOf(signWords, n * BITS_LONGS);
            ByteBuffer b = ByteBuffer.allocate(4_096 * BITS).order(ByteOrder.LITTLE_ENDIAN);
            for (int r = signRows; r < n; ) { // 4,096 rows at a time: no second copy of the bits on the heap
                int m = Math.min(4_096, n - r);
                b.clear().limit(m * BITS);
                readFully(ch, b, (long) r * BITS);
                b.flip().asLongBuffer().get(grown, r * BITS_LONGS, m * BITS_LONGS);
                r += m;
            }
            signWords = grown;
            signRows = n;
        }
    }

    private static MappedByteBuffer mapFile(Path f, long len) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            if (ch.size() < len) throw new IOException(f + " is shorter than its header says");
            MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, 0, len);
            b.order(ByteOrder.LITTLE_ENDIAN);
            return b;
        }
    }

    private void unmap() {
        keys = rows = null;
        mapped = 0;
        index = null;
        signWords = new long[0];
        signRows = 0;
    }

    /** {@link #signWords}, which {@link #map} keeps covering every row once there are more than {@link #EXACT_ROWS}. */
    private long[] signWords() {
        if (signRows != mapped)
            throw new IllegalStateException("sign bits read for " + signRows + " of " + mapped + " rows");
        return signWords;
    }

    /** Whether a vector for this text hash is stored. */
    synchronized boolean contains(long key) {
        return row(key) >= 0;
    }

    private int row(long key) {
        refresh();
        if (mapped == 0) return -1;
        if (index == null) {
            index = new LongIntMap(Math.max(16, mapped * 2));
            for (int r = 0; r < mapped; r++) index.put(keys.getLong(r * 8), r);
        }
        return index.get(key);
    }

    /** The stored keys (for the embedder to tell what is missing and what is garbage). */
    synchronized long[] keys() {
        refresh();
        long[] out = new long[mapped];
        for (int r = 0; r < mapped; r++) out[r] = keys.getLong(r * 8);
        return out;
    }

    /**
     * Appends vectors for keys not stored yet (under the writer lock; another process's rows are picked up first).
     * Returns how many rows were added.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    synchronized int append(long[] ks, List<float[]> vs) {
        try {
            AtomicFiles.ensurePrivateDir(dir);
            try (FileChannel lockCh = FileChannel.open(
                            dir.resolve("write.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = lockCh.lock()) {
                AtomicFiles.setMode(dir.resolve("write.lock"), AtomicFiles.FILE_MODE);
                headerStamp = null; // re-read: another process may have appended
                refresh();
                Header h = header != null ? header : new Header(FORMAT, DenseModel.MODEL, DIM, 0, nextGen());
                List<Integer> fresh = new ArrayList<>();
                Set<Long> seen = new HashSet<>();
                for (int i = 0; i < ks.length; i++)
                    if ((mapped == 0 || row(ks[i]) < 0) && seen.add(ks[i])) fresh.add(i);
                if (fresh.isEmpty()) return 0;
                long base = h.rows();
                ByteBuffer kb = ByteBuffer.allocate(fresh.size() * 8).order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer rb = ByteBuffer.allocate(fresh.size() * ROW).order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer bb = ByteBuffer.allocate(fresh.size() * BITS).order(ByteOrder.LITTLE_ENDIAN);
                for (int i : fresh) {
                    kb.putLong(ks[i]);
                    quantise(vs.get(i), rb);
                    for (long w : signBits(vs.get(i))) bb.putLong(w);
                }
                write(file(h.gen(), "keys"), base * 8, kb.flip());
                write(file(h.gen(), "i8"), base * ROW, rb.flip());
                write(file(h.gen(), "bits"), base * BITS, bb.flip());
                Header next = new Header(FORMAT, DenseModel.MODEL, DIM, base + fresh.size(), h.gen());
                AtomicFiles.write(headerFile(), Json.MAPPER.writeValueAsBytes(next));
                headerStamp = null;
                refresh();
                return fresh.size();
            }
        } catch (IOException e) {
            throw new StewardError("recall", "cannot write vectors under " + dir + ": " + e.getMessage());
        }
    }

    private int nextGen() throws IOException {
        int g = 1;
        if (Files.isDirectory(dir)) {
            try (var s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String n = p.getFileName().toString();
                    if (n.matches("g\\d+\\.(keys|i8|bits)"))
                        g = Math.max(g, Integer.parseInt(n.substring(1, n.indexOf('.'))) + 1);
                }
            }
        }
        return g;
    }

    private static void write(Path f, long at, ByteBuffer b) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            AtomicFiles.setMode(f, AtomicFiles.FILE_MODE);
            if (ch.size() > at) ch.truncate(at); // the tail of a batch that never got into the header
            long pos = at;
            while (b.hasRemaining()) pos += ch.write(b, pos);
            ch.force(false);
        }
    }

    /**
     * Keeps only the rows whose key {@code live} holds, in a new generation of files (the old ones are removed; a reader
     * that still maps them keeps a valid view until it re-reads the header). Returns the rows dropped.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    synchronized int compact(LongPredicate live) {
        try (FileChannel lockCh = FileChannel.open(
                        dir.resolve("write.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = lockCh.lock()) {
            headerStamp = null;
            refresh();
            if (header == null || mapped == 0) return 0;
            int gen = nextGen();
            int kept = 0;
            try (FileChannel k = open(file(gen, "keys"));
                    FileChannel r = open(file(gen, "i8"));
                    FileChannel b = open(file(gen, "bits"));
                    FileChannel oldBits = FileChannel.open(file(header.gen(), "bits"), StandardOpenOption.READ)) {
                byte[] row = new byte[ROW], bit = new byte[BITS];
                ByteBuffer key = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < mapped; i++) {
                    long kv = keys.getLong(i * 8);
                    if (!live.test(kv)) continue;
                    key.clear();
                    key.putLong(kv).flip();
                    k.write(key);
                    rows.get(i * ROW, row);
                    r.write(ByteBuffer.wrap(row));
                    ByteBuffer bb = ByteBuffer.wrap(bit);
                    readFully(oldBits, bb, (long) i * BITS);
                    b.write(bb.flip());
                    kept++;
                }
                k.force(false);
                r.force(false);
                b.force(false);
            }
            int old = header.gen(), dropped = mapped - kept;
            AtomicFiles.write(
                    headerFile(), Json.MAPPER.writeValueAsBytes(new Header(FORMAT, DenseModel.MODEL, DIM, kept, gen)));
            headerStamp = null;
            unmap();
            refresh();
            for (String ext : List.of("keys", "i8", "bits")) Files.deleteIfExists(file(old, ext));
            return dropped;
        } catch (IOException | OverlappingFileLockException e) {
            throw new StewardError("recall", "cannot compact vectors under " + dir + ": " + e.getMessage());
        }
    }

    private static FileChannel open(Path f) throws IOException {
        FileChannel ch = FileChannel.open(
                f, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        AtomicFiles.setMode(f, AtomicFiles.FILE_MODE);
        return ch;
    }

    /** int8 with a per-row scale: value ≈ scale × q. */
    static void quantise(float[] v, ByteBuffer out) {
        float max = 0;
        for (float x : v) max = Math.max(max, Math.abs(x));
        float scale = max == 0 ? 1 : max / 127f;
        for (float x : v) out.put((byte) Math.round(x / scale));
        out.putFloat(scale);
    }

    static long[] signBits(float[] v) {
        long[] out = new long[BITS_LONGS];
        for (int d = 0; d < DIM; d++) if (v[d] > 0) out[d >> 6] |= 1L << (d & 63);
        return out;
    }

    /** The stored (dequantised) vector of a key, or null. */
    synchronized float[] vector(long key) {
        int r = row(key);
        if (r < 0) return null;
        float[] v = new float[DIM];
        float scale = rows.getFloat(r * ROW + DIM);
        for (int d = 0; d < DIM; d++) v[d] = rows.get(r * ROW + d) * scale;
        return v;
    }

    /** The cosine of the query with the stored vector of each key (null where none is stored). */
    synchronized Map<Long, Double> cosines(float[] q, Collection<Long> ks) {
        if (oneShot && index == null) return reading(() -> cosinesByReading(q, ks), new HashMap<>());
        Map<Long, Double> out = new HashMap<>();
        byte[] buf = new byte[ROW];
        QueryVector qv = QueryVector.of(q);
        for (long k : ks) {
            int r = row(k);
            if (r >= 0) out.put(k, dot(qv, r, buf));
        }
        return out;
    }

    /**
     * The {@code n} rows nearest to the query (cosine), best first. Up to {@link #EXACT_ROWS} rows all are scored
     * exactly; above, the rows nearest by sign-bit Hamming distance ({@link #RESCORE_PER_RESULT} per result) are.
     */
    synchronized List<Scored> nearest(float[] q, int n) {
        return nearest(q, n, false);
    }

    /** {@link #nearest(float[], int)}; {@code exact}: every row scored whatever their number (a bench's baseline). */
    synchronized List<Scored> nearest(float[] q, int n, boolean exact) {
        refresh();
        if (mapped == 0 || n <= 0) return List.of();
        if (!oneShot) return reading(() -> nearest(q, n, exact, new MappedRows()), List.of());
        return reading(
                () -> {
                    try (ReadRows rs = new ReadRows(header.gen())) {
                        return nearest(q, n, exact, rs);
                    }
                },
                List.of());
    }

    private List<Scored> nearest(float[] q, int n, boolean exact, Rows rs) throws IOException {
        int[] chosen;
        if (exact || mapped <= EXACT_ROWS) {
            chosen = new int[mapped];
            for (int i = 0; i < mapped; i++) chosen[i] = i;
        } else {
            chosen = rs.bySignBits(signBits(q), Math.max(MIN_RESCORE, n * RESCORE_PER_RESULT));
        }
        QueryVector qv = QueryVector.of(q);
        double[] score = new double[chosen.length];
        rs.score(qv, chosen, score);
        int[] best = best(score, n);
        List<Scored> out = new ArrayList<>(best.length);
        for (int i : best) out.add(new Scored(rs.key(chosen[i]), score[i]));
        return out;
    }

    /** Where a search takes the rows from: mapped and on the heap, or read from the files ({@link #oneShot}). */
    private interface Rows {
        /** The {@code m} rows nearest to the query's sign bits by Hamming distance, in row order. */
        int[] bySignBits(long[] qb, int m) throws IOException;

        /** Scores the rows {@code chosen} (in row order) into {@code score}, in pieces shared with the helper thread. */
        void score(QueryVector qv, int[] chosen, double[] score);

        long key(int row) throws IOException;
    }

    /** The rows as a long-lived process keeps them: mapped files, the sign bits on the heap. */
    private final class MappedRows implements Rows {
        private final MappedByteBuffer rs = rows, ks = keys;

        @Override
        public int[] bySignBits(long[] qb, int m) {
            return byHamming(qb, m);
        }

        @Override
        public void score(QueryVector qv, int[] chosen, double[] score) {
            inParts(chosen.length, (from, to) -> {
                byte[] buf = new byte[ROW];
                for (int i = from; i < to; i++) score[i] = dot(rs, qv, chosen[i], buf);
            });
        }

        @Override
        public long key(int row) {
            return ks.getLong(row * 8);
        }
    }

    /**
     * The rows as a one-shot process reads them: the same rows chosen and scored the same way, with positional reads
     * instead of mapped or kept on the heap. The sign bits are read 4,096 rows at a time into a buffer of each scan piece,
     * and only the rows to score are read; mapped, every row the rescoring touched would stay resident with the 64 KB the
     * kernel maps around each fault (3,200 rows a query: up to 200 MB at 687,000 rows), and the sign bits would stay on
     * the heap (33 MB). Slower per query (each row a read), which a process that runs one query does not feel beside its
     * start.
     */
    private final class ReadRows implements Rows, AutoCloseable {
        private final int gen;
        private final FileChannel rowCh, keyCh;
        private final ByteBuffer key = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

        ReadRows(int gen) throws IOException {
            this.gen = gen;
            this.rowCh = FileChannel.open(file(gen, "i8"), StandardOpenOption.READ);
            try {
                this.keyCh = FileChannel.open(file(gen, "keys"), StandardOpenOption.READ);
            } catch (IOException e) {
                rowCh.close();
                throw e;
            }
        }

        @Override
        public int[] bySignBits(long[] qb, int m) throws IOException {
            try (FileChannel bitCh = FileChannel.open(file(gen, "bits"), StandardOpenOption.READ)) {
                return byHamming(qb, m, bitCh);
            }
        }

        @Override
        public void score(QueryVector qv, int[] chosen, double[] score) {
            inParts(chosen.length, (from, to) -> {
                // chosen rows are in row order: a run of consecutive rows (every row, below EXACT_ROWS) is one read
                ByteBuffer buf = ByteBuffer.allocate(RUN * ROW).order(ByteOrder.LITTLE_ENDIAN);
                byte[] one = new byte[ROW];
                for (int i = from; i < to; ) {
                    int j = i + 1;
                    while (j < to && j - i < RUN && chosen[j] == chosen[i] + (j - i)) j++;
                    readRows(rowCh, buf.clear().limit((j - i) * ROW), (long) chosen[i] * ROW);
                    for (int k = i; k < j; k++) {
                        buf.get((k - i) * ROW, one);
                        score[k] = dot(qv.v(), one) * qv.scale() * buf.getFloat((k - i) * ROW + DIM);
                    }
                    i = j;
                }
            });
        }

        @Override
        public long key(int row) throws IOException {
            readFully(keyCh, key.clear(), (long) row * 8);
            return key.getLong(0);
        }

        @Override
        public void close() throws IOException {
            try (rowCh;
                    keyCh) {
                // both closed
            }
        }
    }

    /** {@link #cosines} for a one-shot process: the keys file read once in blocks, no index of every key built. */
    private Map<Long, Double> cosinesByReading(float[] q, Collection<Long> ks) throws IOException {
        Map<Long, Double> out = new HashMap<>();
        if (ks.isEmpty()) return out;
        Set<Long> wanted = new HashSet<>(ks);
        QueryVector qv = QueryVector.of(q);
        int gen = header.gen();
        try (FileChannel keyCh = FileChannel.open(file(gen, "keys"), StandardOpenOption.READ);
                FileChannel rowCh = FileChannel.open(file(gen, "i8"), StandardOpenOption.READ)) {
            ByteBuffer block = ByteBuffer.allocate(8_192 * 8).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer row = ByteBuffer.allocate(ROW).order(ByteOrder.LITTLE_ENDIAN);
            for (int r = 0; r < mapped && out.size() < wanted.size(); ) {
                int m = Math.min(8_192, mapped - r);
                readFully(keyCh, block.clear().limit(m * 8), (long) r * 8);
                for (int i = 0; i < m; i++) {
                    long k = block.getLong(i * 8);
                    if (wanted.contains(k) && !out.containsKey(k)) {
                        readFully(rowCh, row.clear(), (long) (r + i) * ROW);
                        out.put(k, dot(qv.v(), row.array()) * qv.scale() * row.getFloat(DIM));
                    }
                }
                r += m;
            }
            return out;
        }
    }

    private interface Read<T> {
        T run() throws IOException;
    }

    /**
     * A one-shot read of the current generation's files; when another process compacted them away meanwhile, once more
     * from the new generation ({@code none} when no rows are left).
     */
    private <T> T reading(Read<T> read, T none) {
        try {
            try {
                return read.run();
            } catch (NoSuchFileException compacted) {
                headerStamp = null;
                refresh();
                return mapped == 0 ? none : read.run();
            }
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read vectors under " + dir + ": " + e.getMessage());
        }
    }

    /** Rows a one-shot search reads at once when they are consecutive. */
    private static final int RUN = 512;

    /** {@link #readFully} inside a scan piece (which cannot throw a checked exception). */
    private void readRows(FileChannel ch, ByteBuffer b, long at) {
        try {
            readFully(ch, b, at);
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read vectors under " + dir + ": " + e.getMessage());
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining())
            if (ch.read(b, at + b.position()) < 0) throw new IOException("a vector file ended early");
    }

    /**
     * The positions of the {@code n} highest scores, highest first, ties in position order (what a stable sort of every
     * position would put first), kept in a bounded heap instead of sorting them all.
     */
    static int[] best(double[] score, int n) {
        int k = Math.min(n, score.length);
        if (k <= 0) return new int[0];
        // a min-heap of the best k so far: its root is the worst of them (lowest score, then the later position)
        int[] heap = new int[k];
        int size = 0;
        for (int i = 0; i < score.length; i++) {
            if (size < k) {
                heap[size] = i;
                up(heap, size++, score);
            } else if (before(i, heap[0], score)) {
                heap[0] = i;
                down(heap, k, score);
            }
        }
        Integer[] order = new Integer[k];
        for (int i = 0; i < k; i++) order[i] = heap[i];
        Arrays.sort(order, (a, b) -> before(a, b, score) ? -1 : before(b, a, score) ? 1 : 0);
        int[] out = new int[k];
        for (int i = 0; i < k; i++) out[i] = order[i];
        return out;
    }

    /** Whether position {@code a} ranks before {@code b}: a higher score, or the same and an earlier position. */
    private static boolean before(int a, int b, double[] score) {
        int c = Double.compare(score[a], score[b]);
        return c > 0 || c == 0 && a < b;
    }

    private static void up(int[] heap, int i, double[] score) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(heap[parent], heap[i], score)) return;
            int t = heap[parent];
            heap[parent] = heap[i];
            heap[i] = t;
            i = parent;
        }
    }

    private static void down(int[] heap, int size, double[] score) {
        int i = 0;
        while (true) {
            int l = 2 * i + 1, r = l + 1, worst = i;
            if (l < size && before(heap[worst], heap[l], score)) worst = l;
            if (r < size && before(heap[worst], heap[r], score)) worst = r;
            if (worst == i) return;
            int t = heap[worst];
            heap[worst] = heap[i];
            heap[i] = t;
            i = worst;
        }
    }

    /**
     * The query as int16 with one scale (value ≈ scale × v): its dot product with an int8 row is a sum of integers, exact
     * in any order, so it runs on four independent sums (a float sum in dimension order waited on each addition: 5 ms of
     * a 10 ms query at 5,000 rows). Rounding the query to 16 bits moves a cosine by about 1e-4 of its value, far below
     * the int8 rows' own rounding. |v| ≤ 32767 and |row| ≤ 128: a row's sum stays below 1.7e9, inside an int.
     */
    record QueryVector(short[] v, double scale) {
        static QueryVector of(float[] q) {
            float max = 0;
            for (float x : q) max = Math.max(max, Math.abs(x));
            double scale = max == 0 ? 1 : max / 32767.0;
            short[] v = new short[q.length];
            for (int d = 0; d < q.length; d++) v[d] = (short) Math.round(q[d] / scale);
            return new QueryVector(v, scale);
        }
    }

    /** The query's dot product with row {@code r}. */
    private double dot(QueryVector q, int r, byte[] buf) {
        return dot(rows, q, r, buf);
    }

    private static double dot(MappedByteBuffer rows, QueryVector q, int r, byte[] buf) {
        rows.get(r * ROW, buf);
        return dot(q.v(), buf) * q.scale() * rows.getFloat(r * ROW + DIM);
    }

    /**
     * Rows a scan takes before it is shared with a second thread. recall-scale at 100k messages (5,160 rows, scored
     * exactly) p50 6.8 ms unshared vs 5.3 ms shared (the calling thread waits for the scan idle, so the helper takes its
     * core); bench vectors on the scan alone at 5,000 rows: the same wall time and half as much CPU again; at 687,000
     * rows (the sign-bit pass) p50 20.8 → 10.9 ms at the same CPU.
     */
    static final int PARALLEL_ROWS = 2_048;

    private static final int PARTS = 8;

    /** The second thread of a scan; it only helps, so a busy helper never delays a scan (see {@link #inParts}). */
    private static final ExecutorService HELPER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "steward-vector-scan");
        t.setDaemon(true);
        return t;
    });

    /** A scan of the positions {@code [from, to)}. */
    interface Part {
        void scan(int from, int to);
    }

    /**
     * Runs {@code part} over {@code [0, n)} in {@link #PARTS} pieces taken in turn by the calling thread and the helper
     * thread (on a 2-core machine the query's two stages leave one core idle while the vectors are scanned). The caller
     * takes pieces until none is left and then waits only for pieces the helper started, so a helper busy with another
     * query changes nothing but the speed. Each piece writes its own positions: the result does not depend on who ran
     * which.
     */
    static void inParts(int n, Part part) {
        if (n < PARALLEL_ROWS) {
            part.scan(0, n);
            return;
        }
        int size = (n + PARTS - 1) / PARTS;
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(PARTS);
        AtomicReference<RuntimeException> failed = new AtomicReference<>();
        Runnable take = () -> {
            for (int p; (p = next.getAndIncrement()) < PARTS; ) {
                try {
                    part.scan(Math.min(n, p * size), Math.min(n, (p + 1) * size));
                } catch (RuntimeException e) {
                    failed.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }
        };
        try {
            HELPER.execute(take);
        } catch (RejectedExecutionException e) {
            // no helper: the caller scans alone
        }
        take.run();
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the helper's piece is still being written: wait for it all the same
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        if (failed.get() != null) throw failed.get();
    }

    /** The integer dot product of a query and a row's first {@link #DIM} bytes. */
    static int dot(short[] q, byte[] row) {
        int a = 0, b = 0, c = 0, e = 0;
        for (int d = 0; d < DIM; d += 4) {
            a += q[d] * row[d];
            b += q[d + 1] * row[d + 1];
            c += q[d + 2] * row[d + 2];
            e += q[d + 3] * row[d + 3];
        }
        return a + b + c + e;
    }

    /** The {@code m} rows with the smallest Hamming distance to {@code qb}: a histogram pass, then a collecting pass. */
    private int[] byHamming(long[] qb, int m) {
        short[] d = new short[mapped];
        long[] words = signWords();
        inParts(mapped, (from, to) -> {
            for (int r = from; r < to; r++) d[r] = (short) hamming(words, r * BITS_LONGS, qb);
        });
        return nearestByDistance(d, m);
    }

    /** {@link #byHamming} reading the sign bits from the file, 4,096 rows at a time per scan piece (a one-shot search). */
    private int[] byHamming(long[] qb, int m, FileChannel bits) {
        short[] d = new short[mapped];
        inParts(mapped, (from, to) -> {
            ByteBuffer b = ByteBuffer.allocate(4_096 * BITS).order(ByteOrder.LITTLE_ENDIAN);
            long[] words = new long[4_096 * BITS_LONGS];
            for (int r = from; r < to; ) {
                int n = Math.min(4_096, to - r);
                readRows(bits, b.clear().limit(n * BITS), (long) r * BITS);
                b.flip().asLongBuffer().get(words, 0, n * BITS_LONGS);
                for (int i = 0; i < n; i++) d[r + i] = (short) hamming(words, i * BITS_LONGS, qb);
                r += n;
            }
        });
        return nearestByDistance(d, m);
    }

    private static int hamming(long[] words, int base, long[] qb) {
        int h = 0;
        for (int w = 0; w < BITS_LONGS; w++) h += Long.bitCount(words[base + w] ^ qb[w]);
        return h;
    }

    /** The {@code m} rows with the smallest distances {@code d}, in row order: a histogram pass, then a collecting pass. */
    private int[] nearestByDistance(short[] d, int m) {
        int[] hist = new int[DIM + 1];
        for (short h : d) hist[h]++;
        int limit = 0, count = 0;
        while (limit <= DIM && count + hist[limit] < m) count += hist[limit++];
        // rows at distance < limit all go in; rows at exactly limit fill the rest
        int[] out = new int[Math.min(m, mapped)];
        int k = 0, atLimit = m - count;
        for (int r = 0; r < mapped && k < out.length; r++) {
            if (d[r] < limit) out[k++] = r;
            else if (d[r] == limit && atLimit > 0) {
                out[k++] = r;
                atLimit--;
            }
        }
        return k == out.length ? out : Arrays.copyOf(out, k);
    }

    /** What the header says, for steward_status and the benches. */
    synchronized Map<String, Object> describe() {
        refresh();
        Map<String, Object> out = new TreeMap<>();
        out.put("rows", mapped);
        out.put("bytes", bytesOnDisk());
        return out;
    }

    @Override
    public synchronized void close() {
        unmap();
        header = null;
    }

    /** An open-addressing long → int map (no boxing: one million keys take 12 MB). */
    static final class LongIntMap {
        private long[] ks;
        private int[] vs;
        private boolean[] used;
        private int size;

        LongIntMap(int capacity) {
            int c = Integer.highestOneBit(Math.max(16, capacity) - 1) << 1;
            ks = new long[c];
            vs = new int[c];
            used = new boolean[c];
        }

        private static int mix(long k) {
            k ^= k >>> 33;
            k *= 0xff51afd7ed558ccdL;
            k ^= k >>> 33;
            return (int) k;
        }

        int get(long k) {
            int mask = ks.length - 1;
            for (int i = mix(k) & mask; used[i]; i = (i + 1) & mask) if (ks[i] == k) return vs[i];
            return -1;
        }

        void put(long k, int v) {
            if ((size + 1) * 2 > ks.length) grow();
            int mask = ks.length - 1;
            int i = mix(k) & mask;
            while (used[i] && ks[i] != k) i = (i + 1) & mask;
            if (!used[i]) size++;
            used[i] = true;
            ks[i] = k;
            vs[i] = v;
        }

        private void grow() {
            long[] ok = ks;
            int[] ov = vs;
            boolean[] ou = used;
            ks = new long[ok.length * 2];
            vs = new int[ok.length * 2];
            used = new boolean[ok.length * 2];
            size = 0;
            for (int i = 0; i < ok.length; i++) if (ou[i]) put(ok[i], ov[i]);
        }
    }
}
