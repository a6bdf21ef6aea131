package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IntroSorter;
import steward.StewardError;
import steward.state.AtomicFiles;

/**
 * The Lucene index under {@code <state dir>/recall/index}. What ranking reads of every candidate lives in doc values
 * (URI, source, session, time, flags, speaker, text hashes), so a query decompresses stored text only for the items it
 * returns; which query terms an item holds is read from the postings. The writer is opened only while changes are
 * applied and closed after the commit, so several Steward processes can share one index; readers are refreshed through
 * a {@link SearcherManager}. The commit's user data holds the source tokens it was built from.
 */
final class RecallIndex implements AutoCloseable {
    static final String F_URI = "uri",
            F_KEY = "key",
            F_SOURCE = "source",
            F_SESSION = "session",
            F_TITLE = "title",
            F_BODY = "body",
            F_CTX = "ctx",
            F_TS = "ts",
            F_TS_DV = "ts_dv",
            F_FLAGS = "flags",
            F_SPEAKER = "speaker",
            F_THASH = "thash",
            F_THASH_DV = "thash_dv",
            F_NHASH = "nhash",
            F_SIMHASH = "simhash";
    static final int PINNED = 1, DECISION = 2, ASKS = 4;
    /** The document layout; an index written with another layout is rebuilt from scratch on the next sync. */
    static final String FORMAT = "5"; // 4: ids and normal hashes keep meaningful symbols; 5: not a confidence prefix
    /** "Name: text" — a chat line that names its speaker (gateway transcripts, imported chats). */
    private static final Pattern SPEAKER =
            Pattern.compile("\\A\\s*(\\p{Lu}[\\p{L}\\p{M}'’.-]*(?: \\p{Lu}[\\p{L}\\p{M}'’.-]*){0,2}):\\s");
    /** Lucene's BM25 defaults; measured on LoCoMo dev: b 0.4 or k1 0.8 changed R@10 by under 0.005. */
    static final float K1 = 1.2f, B = 0.75f;

    private final Path dir;
    private Directory directory;
    private SearcherManager manager;
    /** Per-reader derived data (recurring speakers), for the current and the previous reader only. */
    private final Map<Object, Set<String>> speakerCache = new LinkedHashMap<>(4, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Set<String>> eldest) {
            return size() > 2;
        }
    };

    /**
     * For a process that runs a query or two and exits (a one-shot {@code steward call}): the index is read with
     * positional reads ({@link NIOFSDirectory}) instead of mapped, so the pages a query touches stay in the page cache
     * and out of the process (a mapped 1M-message index left 35–50 MB resident after one query, with the 64 KB the
     * kernel maps around each fault). A long-lived process maps it (faster queries).
     */
    private final boolean oneShot;

    RecallIndex(Path dir) {
        this(dir, false);
    }

    RecallIndex(Path dir, boolean oneShot) {
        this.dir = dir;
        this.oneShot = oneShot;
    }

    private Directory openDirectory() throws IOException {
        return oneShot ? new NIOFSDirectory(dir) : FSDirectory.open(dir);
    }

    Path dir() {
        return dir;
    }

    boolean exists() {
        if (!Files.isDirectory(dir)) return false;
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith("segments_"));
        } catch (IOException e) {
            return false;
        }
    }

    /** Opens the reader side when an index exists; picks up commits made since (by this or another process). */
    synchronized boolean open() {
        try {
            if (manager == null) {
                if (!exists()) return false;
                if (directory == null) directory = openDirectory();
                manager = new SearcherManager(directory, new SearcherFactory() {
                    @Override
                    public IndexSearcher newSearcher(IndexReader r, IndexReader previous) {
                        IndexSearcher s = new IndexSearcher(r);
                        s.setSimilarity(new org.apache.lucene.search.similarities.BM25Similarity(K1, B));
                        return s;
                    }
                });
            } else if (newerCommitOnDisk()) {
                manager.maybeRefreshBlocking();
            }
            return true;
        } catch (IOException e) {
            throw new StewardError(
                    "recall",
                    "cannot open the index at " + dir + ": " + e.getMessage()
                            + " (delete the directory to rebuild it)");
        }
    }

    /**
     * Whether a commit newer than the current reader's is on disk (made by another process): one directory listing,
     * where asking the searcher manager to refresh reads the commit itself (3–7 ms on this machine).
     */
    private boolean newerCommitOnDisk() throws IOException {
        long onDisk = org.apache.lucene.index.SegmentInfos.getLastCommitGeneration(directory.listAll());
        IndexSearcher s = manager.acquire();
        try {
            return onDisk
                    != ((DirectoryReader) s.getIndexReader()).getIndexCommit().getGeneration();
        } finally {
            manager.release(s);
        }
    }

    /** The writer of a first build, before its commit: searches read what it has written so far (near-real-time). */
    private volatile IndexWriter building;

    /**
     * The current searcher (release it with {@link #release}); null when there is no index. While a first build runs in
     * this process and nothing is committed yet: a near-real-time view of what it has written so far.
     */
    synchronized IndexSearcher acquire() {
        if (manager == null && !open()) {
            IndexWriter b = building;
            if (b == null) return null;
            try {
                IndexSearcher s = new IndexSearcher(DirectoryReader.open(b));
                s.setSimilarity(new org.apache.lucene.search.similarities.BM25Similarity(K1, B));
                return s;
            } catch (IOException | RuntimeException e) {
                return null; // the build just ended (committed or rolled back): nothing to read yet
            }
        }
        try {
            return manager.acquire();
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read the index at " + dir + ": " + e.getMessage());
        }
    }

    void release(IndexSearcher s) {
        SearcherManager m;
        synchronized (this) {
            m = manager;
        }
        try {
            if (m != null && s != null) m.release(s);
            else if (s != null) s.getIndexReader().decRef();
        } catch (IOException ignored) {
            // released
        }
    }

    private synchronized void refreshNow() throws IOException {
        if (manager == null) open();
        else manager.maybeRefreshBlocking();
    }

    /** The user data of the newest commit on disk (empty when there is none). */
    Map<String, String> committed() {
        IndexSearcher s = acquire();
        if (s == null) return Map.of();
        try {
            return ((DirectoryReader) s.getIndexReader()).getIndexCommit().getUserData();
        } catch (IOException e) {
            return Map.of();
        } finally {
            release(s);
        }
    }

    /** A write session: a Sink for the sources, committed or rolled back as a whole. */
    final class Writer implements RecallSource.Sink, AutoCloseable {
        private IndexWriter w;
        private final boolean fresh;
        int written, deleted;

        Writer(boolean fresh) {
            this.fresh = fresh;
        }

        private IndexWriter w() throws IOException {
            if (w == null) {
                AtomicFiles.ensurePrivateDir(dir.getParent());
                AtomicFiles.ensurePrivateDir(dir);
                synchronized (RecallIndex.this) {
                    if (directory == null) directory = openDirectory();
                }
                IndexWriterConfig cfg = new IndexWriterConfig(RecallAnalyzer.shared());
                cfg.setOpenMode(
                        fresh ? IndexWriterConfig.OpenMode.CREATE : IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
                cfg.setRAMBufferSizeMB(32);
                cfg.setCommitOnClose(false);
                try {
                    w = new IndexWriter(directory, cfg);
                } catch (LockObtainFailedException e) {
                    throw new Busy();
                }
                if (fresh) building = w;
            }
            return w;
        }

        boolean opened() {
            return w != null;
        }

        @Override
        public void replaceGroup(String key, List<RecallItem> items) {
            try {
                IndexWriter iw = w();
                iw.deleteDocuments(new Term(F_KEY, key));
                for (RecallItem it : items) iw.addDocument(toDocument(it));
                written += items.size();
            } catch (IOException e) {
                throw failed(e);
            }
        }

        @Override
        public void deleteGroup(String key) {
            try {
                w().deleteDocuments(new Term(F_KEY, key));
                deleted++;
            } catch (IOException e) {
                throw failed(e);
            }
        }

        @Override
        public void upsert(RecallItem item) {
            try {
                w().updateDocument(new Term(F_URI, item.uri()), toDocument(item));
                written++;
            } catch (IOException e) {
                throw failed(e);
            }
        }

        /** Commits everything written, with this user data, and makes it visible to new searches. */
        void commit(Map<String, String> data) {
            try {
                IndexWriter iw = w();
                iw.setLiveCommitData(new HashMap<>(data).entrySet());
                iw.commit();
                building = null;
                iw.close();
                w = null;
                privatise();
                refreshNow();
            } catch (IOException e) {
                throw failed(e);
            }
        }

        /** Drops everything written since the last commit. */
        void rollback() {
            if (w == null) return;
            if (building == w) building = null;
            try {
                w.rollback();
            } catch (IOException ignored) {
                // rolled back
            }
            w = null;
        }

        @Override
        public void close() {
            rollback();
        }

        private StewardError failed(IOException e) {
            return new StewardError("recall", "cannot update the index at " + dir + ": " + e.getMessage());
        }
    }

    /** The index is being written by another Steward process. */
    static final class Busy extends StewardError {
        private static final long serialVersionUID = 1L;

        Busy() {
            super("recall", "the index is being updated by another Steward process");
        }
    }

    Writer writer(boolean fresh) {
        return new Writer(fresh);
    }

    /** Lucene creates files with the process umask; Steward's state is private to the user. */
    private void privatise() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> AtomicFiles.setMode(p, AtomicFiles.FILE_MODE));
        }
    }

    static Document toDocument(RecallItem it) {
        Document d = new Document();
        d.add(new StringField(F_URI, it.uri(), Field.Store.NO));
        d.add(new BinaryDocValuesField(F_URI, new BytesRef(it.uri())));
        d.add(new StringField(F_KEY, it.key(), Field.Store.NO));
        d.add(new StringField(F_SOURCE, it.source(), Field.Store.NO));
        d.add(new SortedDocValuesField(F_SOURCE, new BytesRef(it.source())));
        if (it.sessionId() != null) {
            d.add(new StringField(F_SESSION, it.sessionId(), Field.Store.NO));
            d.add(new SortedDocValuesField(F_SESSION, new BytesRef(it.sessionId())));
        }
        d.add(new TextField(F_TITLE, it.title() == null ? "" : it.title(), Field.Store.YES));
        d.add(new TextField(F_BODY, it.text(), Field.Store.YES));
        d.add(new TextField(F_CTX, it.context() == null ? "" : it.context(), Field.Store.NO));
        d.add(new LongPoint(F_TS, (long) Math.floor(it.timestamp())));
        d.add(new NumericDocValuesField(F_TS_DV, Double.doubleToRawLongBits(it.timestamp())));
        int flags = (it.pinned() ? PINNED : 0) | (RecallEngine.recordsDecision(it.text()) ? DECISION : 0);
        if (RecallItem.CLAUDE_SESSION.equals(it.source()) && asks(it.text())) flags |= ASKS;
        if (RecallItem.SESSION.equals(it.source())) {
            String who = speaker(it.text());
            if (who != null) {
                d.add(new StringField(F_SPEAKER, who, Field.Store.NO));
                d.add(new SortedDocValuesField(F_SPEAKER, new BytesRef(who)));
            }
            if (asks(it.text())) flags |= ASKS;
        }
        d.add(new NumericDocValuesField(F_FLAGS, flags));
        long th = Identity.textHash(it.text());
        d.add(new LongPoint(F_THASH, th));
        d.add(new NumericDocValuesField(F_THASH_DV, th));
        d.add(new NumericDocValuesField(F_NHASH, Identity.normalHash(it.text())));
        d.add(new NumericDocValuesField(F_SIMHASH, Identity.simHash(Identity.words(it.text()))));
        return d;
    }

    /** The speaker a message names at its start ("Name: …"), lower-cased; null when it names none. */
    static String speaker(String text) {
        Matcher m = SPEAKER.matcher(text == null ? "" : text);
        return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : null;
    }

    /** Whether a message only asks: its last sentence is a question (a question records less than a statement). */
    static boolean asks(String text) {
        String t = text == null ? "" : text.strip();
        int bracket = t.lastIndexOf(" [shared ");
        if (bracket > 0 && t.endsWith("]")) t = t.substring(0, bracket).strip();
        return t.endsWith("?") || t.endsWith("？");
    }

    /**
     * The speakers that start a real share of the session messages (at least 3 and 2 %): a chat's participants,
     * not a one-off "Remember: …" or "Plan: …" line.
     */
    static Set<String> recurringSpeakers(Map<String, Integer> counts, int messages) {
        Set<String> out = new HashSet<>();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (e.getValue() >= Math.max(3, 0.02 * messages)) out.add(e.getKey());
        }
        return out;
    }

    /** The recurring speakers of this reader's messages (computed once per reader). */
    Set<String> speakers(IndexReader r) throws IOException {
        Object key =
                r.getReaderCacheHelper() == null ? r : r.getReaderCacheHelper().getKey();
        synchronized (speakerCache) {
            Set<String> s = speakerCache.get(key);
            if (s != null) return s;
        }
        Map<String, Integer> counts = new HashMap<>();
        for (LeafReaderContext leaf : r.leaves()) {
            Terms t = leaf.reader().terms(F_SPEAKER);
            if (t == null) continue;
            TermsEnum te = t.iterator();
            for (BytesRef b = te.next(); b != null; b = te.next())
                counts.merge(b.utf8ToString(), te.docFreq(), Integer::sum);
        }
        int messages = r.docFreq(new Term(F_SOURCE, RecallItem.SESSION));
        Set<String> s = recurringSpeakers(counts, messages);
        synchronized (speakerCache) {
            speakerCache.put(key, s);
        }
        return s;
    }

    /** What ranking needs of a document, read from doc values. */
    record Meta(
            int doc,
            String uri,
            String source,
            String sessionId,
            double ts,
            int flags,
            String speaker,
            long textHash,
            long normalHash,
            long simHash) {
        boolean pinned() {
            return (flags & PINNED) != 0;
        }

        boolean decision() {
            return (flags & DECISION) != 0;
        }

        boolean asks() {
            return (flags & ASKS) != 0;
        }
    }

    /** The meta of each document (any order; read leaf by leaf in document order). */
    static Map<Integer, Meta> meta(IndexReader r, Collection<Integer> docs) throws IOException {
        int[] sorted =
                docs.stream().mapToInt(Integer::intValue).sorted().distinct().toArray();
        Map<Integer, Meta> out = new HashMap<>();
        List<LeafReaderContext> leaves = r.leaves();
        int i = 0;
        while (i < sorted.length) {
            LeafReaderContext ctx = leaves.get(ReaderUtil.subIndex(sorted[i], leaves));
            LeafReader lr = ctx.reader();
            BinaryDocValues uri = lr.getBinaryDocValues(F_URI);
            SortedDocValues source = lr.getSortedDocValues(F_SOURCE),
                    session = lr.getSortedDocValues(F_SESSION),
                    speaker = lr.getSortedDocValues(F_SPEAKER);
            NumericDocValues ts = lr.getNumericDocValues(F_TS_DV),
                    flags = lr.getNumericDocValues(F_FLAGS),
                    th = lr.getNumericDocValues(F_THASH_DV),
                    nh = lr.getNumericDocValues(F_NHASH),
                    sh = lr.getNumericDocValues(F_SIMHASH);
            int end = ctx.docBase + lr.maxDoc();
            for (; i < sorted.length && sorted[i] < end; i++) {
                int d = sorted[i] - ctx.docBase;
                out.put(
                        sorted[i],
                        new Meta(
                                sorted[i],
                                uri != null && uri.advanceExact(d)
                                        ? uri.binaryValue().utf8ToString()
                                        : null,
                                str(source, d),
                                str(session, d),
                                ts != null && ts.advanceExact(d) ? Double.longBitsToDouble(ts.longValue()) : 0,
                                (int) num(flags, d),
                                str(speaker, d),
                                num(th, d),
                                num(nh, d),
                                num(sh, d)));
            }
        }
        return out;
    }

    private static String str(SortedDocValues dv, int d) throws IOException {
        return dv != null && dv.advanceExact(d) ? dv.lookupOrd(dv.ordValue()).utf8ToString() : null;
    }

    private static long num(NumericDocValues dv, int d) throws IOException {
        return dv != null && dv.advanceExact(d) ? dv.longValue() : 0;
    }

    /**
     * For each term, which of the documents hold it in their own text or title ({@code [0]}) and in their neighbouring
     * turns ({@code [1]}), read from the postings. {@code docs} must be sorted.
     */
    static Map<String, boolean[][]> holds(IndexReader r, List<String> terms, int[] docs) throws IOException {
        Map<String, boolean[][]> out = new HashMap<>();
        for (String t : terms) out.put(t, new boolean[][] {new boolean[docs.length], new boolean[docs.length]});
        List<LeafReaderContext> leaves = r.leaves();
        int i = 0;
        while (i < docs.length) {
            LeafReaderContext ctx = leaves.get(ReaderUtil.subIndex(docs[i], leaves));
            int end = ctx.docBase + ctx.reader().maxDoc(), from = i;
            while (i < docs.length && docs[i] < end) i++;
            for (String field : new String[] {F_BODY, F_TITLE, F_CTX}) {
                Terms ts = ctx.reader().terms(field);
                if (ts == null) continue;
                TermsEnum te = ts.iterator(); // one per leaf and field, reused for every term
                int which = field.equals(F_CTX) ? 1 : 0;
                for (String t : terms) {
                    if (te.seekExact(new BytesRef(t)))
                        mark(te.postings(null, PostingsEnum.NONE), ctx.docBase, docs, from, i, out.get(t)[which]);
                }
            }
        }
        return out;
    }

    private static void mark(PostingsEnum pe, int docBase, int[] docs, int from, int to, boolean[] into)
            throws IOException {
        int cur = -1;
        for (int k = from; k < to; k++) {
            int d = docs[k] - docBase;
            if (cur < d) cur = pe.advance(d);
            if (cur == PostingsEnum.NO_MORE_DOCS) return;
            if (cur == d) into[k] = true;
        }
    }

    /**
     * Per segment (by its core, shared by every reader that holds it): each document's text hash, sorted, with the
     * document. Dense retrieval turns the nearest vectors' text hashes into documents with it (a binary search per hash)
     * instead of a point query that visits a whole BKD leaf per hash. Built on a segment's first lookup, dropped when the
     * segment closes; deleted documents are skipped at lookup (the live docs belong to the reader, not the core).
     */
    private final Map<Object, HashTable> hashTables = new ConcurrentHashMap<>();

    /** One segment's text hashes, ascending, and the segment-local document of each (ties by document). */
    record HashTable(long[] hashes, int[] docs) {
        static HashTable of(LeafReader lr) throws IOException {
            NumericDocValues dv = lr.getNumericDocValues(F_THASH_DV);
            long[] h = new long[lr.maxDoc()];
            int[] d = new int[lr.maxDoc()];
            int n = 0;
            if (dv != null) {
                for (int doc = dv.nextDoc(); doc != NumericDocValues.NO_MORE_DOCS; doc = dv.nextDoc()) {
                    h[n] = dv.longValue();
                    d[n++] = doc;
                }
            }
            long[] hs = Arrays.copyOf(h, n);
            int[] ds = Arrays.copyOf(d, n);
            new IntroSorter() {
                long pivotHash;
                int pivotDoc;

                @Override
                protected void swap(int i, int j) {
                    long t = hs[i];
                    hs[i] = hs[j];
                    hs[j] = t;
                    int u = ds[i];
                    ds[i] = ds[j];
                    ds[j] = u;
                }

                @Override
                protected int compare(int i, int j) {
                    int c = Long.compare(hs[i], hs[j]);
                    return c != 0 ? c : Integer.compare(ds[i], ds[j]);
                }

                @Override
                protected void setPivot(int i) {
                    pivotHash = hs[i];
                    pivotDoc = ds[i];
                }

                @Override
                protected int comparePivot(int j) {
                    int c = Long.compare(pivotHash, hs[j]);
                    return c != 0 ? c : Integer.compare(pivotDoc, ds[j]);
                }
            }.sort(0, n);
            return new HashTable(hs, ds);
        }

        /** The first index holding a hash ≥ {@code key}. */
        int lowerBound(long key) {
            int lo = 0, hi = hashes.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (hashes[mid] < key) lo = mid + 1;
                else hi = mid;
            }
            return lo;
        }
    }

    private HashTable hashTable(LeafReader lr) throws IOException {
        IndexReader.CacheHelper core = lr.getCoreCacheHelper();
        if (core == null) return HashTable.of(lr);
        Object key = core.getKey();
        HashTable t = hashTables.get(key);
        if (t == null) {
            t = HashTable.of(lr);
            if (hashTables.putIfAbsent(key, t) == null) core.addClosedListener(hashTables::remove);
        }
        return t;
    }

    /** Documents (global ids, ascending) and the text hash of each. */
    record HashHits(int[] docs, long[] hashes) {}

    /** Lookups by text hash so far: the first one of a process is answered without building the tables. */
    private final AtomicLong hashLookups = new AtomicLong();

    /**
     * The live documents of this reader whose text hash is one of {@code keys}, in document order. The first lookup of
     * this index's life runs the point query (a one-shot {@code steward call} ranks once, and building the tables there,
     * cold, would cost more than it saves); later ones read the per-segment tables.
     */
    HashHits withTextHashes(IndexSearcher s, long[] keys) throws IOException {
        return hashLookups.getAndIncrement() == 0 ? byPoints(s, keys) : byTables(s.getIndexReader(), keys);
    }

    /** {@link #withTextHashes} through the point query over every segment. */
    static HashHits byPoints(IndexSearcher s, long[] keys) throws IOException {
        Weight w = s.createWeight(s.rewrite(LongPoint.newSetQuery(F_THASH, keys)), ScoreMode.COMPLETE_NO_SCORES, 1f);
        int n = 0;
        int[] docs = new int[16];
        long[] hashes = new long[16];
        for (LeafReaderContext ctx : s.getIndexReader().leaves()) {
            Scorer sc = w.scorer(ctx);
            if (sc == null) continue;
            var live = ctx.reader().getLiveDocs();
            NumericDocValues th = ctx.reader().getNumericDocValues(F_THASH_DV);
            DocIdSetIterator it = sc.iterator();
            for (int d = it.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = it.nextDoc()) {
                if (live != null && !live.get(d)) continue;
                if (n == docs.length) {
                    docs = Arrays.copyOf(docs, n * 2);
                    hashes = Arrays.copyOf(hashes, n * 2);
                }
                docs[n] = ctx.docBase + d;
                hashes[n++] = num(th, d);
            }
        }
        return new HashHits(Arrays.copyOf(docs, n), Arrays.copyOf(hashes, n));
    }

    /** {@link #withTextHashes} through the per-segment tables (built on a segment's first use). */
    HashHits byTables(IndexReader r, long[] keys) throws IOException {
        long[] sorted = Arrays.stream(keys).sorted().distinct().toArray();
        int n = 0;
        long[] packed = new long[16]; // per leaf: segment doc << 32 | index into sorted, so that sorting orders by doc
        int[] docs = new int[16];
        long[] hashes = new long[16];
        for (LeafReaderContext ctx : r.leaves()) {
            LeafReader lr = ctx.reader();
            HashTable t = hashTable(lr);
            var live = lr.getLiveDocs();
            int m = 0;
            for (int i = 0; i < sorted.length; i++) {
                for (int j = t.lowerBound(sorted[i]); j < t.hashes().length && t.hashes()[j] == sorted[i]; j++) {
                    int d = t.docs()[j];
                    if (live != null && !live.get(d)) continue;
                    if (m == packed.length) packed = Arrays.copyOf(packed, m * 2);
                    packed[m++] = (long) d << 32 | i;
                }
            }
            Arrays.sort(packed, 0, m);
            if (n + m > docs.length) {
                docs = Arrays.copyOf(docs, Math.max(n + m, docs.length * 2));
                hashes = Arrays.copyOf(hashes, docs.length);
            }
            for (int k = 0; k < m; k++) {
                docs[n] = ctx.docBase + (int) (packed[k] >>> 32);
                hashes[n++] = sorted[(int) packed[k]];
            }
        }
        return new HashHits(Arrays.copyOf(docs, n), Arrays.copyOf(hashes, n));
    }

    /** Stored title and text of one document. */
    static String[] stored(IndexSearcher s, int doc) throws IOException {
        Document d = s.storedFields().document(doc, Set.of(F_TITLE, F_BODY));
        return new String[] {d.get(F_TITLE), d.get(F_BODY) == null ? "" : d.get(F_BODY)};
    }

    /** Every document's text hash and time, for the embedder (one pass over doc values). */
    static void forEachTextHash(IndexReader r, TextHashVisitor v) throws IOException {
        for (LeafReaderContext ctx : r.leaves()) {
            LeafReader lr = ctx.reader();
            NumericDocValues th = lr.getNumericDocValues(F_THASH_DV), ts = lr.getNumericDocValues(F_TS_DV);
            SortedDocValues source = lr.getSortedDocValues(F_SOURCE);
            var live = lr.getLiveDocs();
            if (th == null) continue;
            for (int d = th.nextDoc(); d != NumericDocValues.NO_MORE_DOCS; d = th.nextDoc()) {
                if (live != null && !live.get(d)) continue;
                double t = ts != null && ts.advanceExact(d) ? Double.longBitsToDouble(ts.longValue()) : 0;
                String src = str(source, d);
                v.visit(ctx.docBase + d, th.longValue(), t, src);
            }
        }
    }

    interface TextHashVisitor {
        void visit(int doc, long textHash, double ts, String source);
    }

    /** URIs of the newest {@code n} items of a session of this kind (by time), from doc values. */
    Set<String> newest(String sessionId, String kind, int n) {
        Set<String> out = new HashSet<>();
        IndexSearcher s = acquire();
        if (s == null) return out;
        try {
            org.apache.lucene.search.BooleanQuery q = new org.apache.lucene.search.BooleanQuery.Builder()
                    .add(
                            new org.apache.lucene.search.TermQuery(new Term(F_SESSION, sessionId)),
                            org.apache.lucene.search.BooleanClause.Occur.FILTER)
                    .add(
                            new org.apache.lucene.search.TermQuery(new Term(F_SOURCE, kind)),
                            org.apache.lucene.search.BooleanClause.Occur.FILTER)
                    .build();
            // times are non-negative doubles: their raw bits sort as longs in the same order
            org.apache.lucene.search.TopDocs top = s.search(
                    q,
                    Math.max(1, n),
                    new org.apache.lucene.search.Sort(new org.apache.lucene.search.SortField(
                            F_TS_DV, org.apache.lucene.search.SortField.Type.LONG, true)));
            List<Integer> docs = new ArrayList<>();
            for (org.apache.lucene.search.ScoreDoc d : top.scoreDocs) docs.add(d.doc);
            for (Meta m : meta(s.getIndexReader(), docs).values()) if (m.uri() != null) out.add(m.uri());
        } catch (IOException e) {
            // unreadable index: no own turns known
        } finally {
            release(s);
        }
        return out;
    }

    /** Counts per source, for steward_status. */
    Map<String, Integer> counts(List<String> kinds) {
        Map<String, Integer> out = new TreeMap<>();
        IndexSearcher s = acquire();
        try {
            // live documents only: docFreq also counts the deleted copies of re-indexed items until segments merge
            for (String k : kinds) out.put(k, s == null ? 0 : s.count(new TermQuery(new Term(F_SOURCE, k))));
        } catch (IOException e) {
            for (String k : kinds) out.putIfAbsent(k, 0);
        } finally {
            release(s);
        }
        return out;
    }

    /** Bytes of the index files on disk. */
    long bytesOnDisk() {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.list(dir)) {
            return s.mapToLong(p -> {
                        try {
                            return Files.size(p);
                        } catch (IOException e) {
                            return 0;
                        }
                    })
                    .sum();
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (manager != null) manager.close();
            if (directory != null) directory.close();
        } catch (IOException ignored) {
            // closing
        }
        manager = null;
        directory = null;
        synchronized (speakerCache) {
            speakerCache.clear();
        }
        hashTables.clear();
    }

    static List<Integer> asList(int[] a) {
        List<Integer> out = new ArrayList<>(a.length);
        for (int x : a) out.add(x);
        return out;
    }

    static int[] sortedDistinct(Collection<Integer> docs) {
        int[] a = docs.stream().mapToInt(Integer::intValue).toArray();
        Arrays.sort(a);
        return Arrays.stream(a).distinct().toArray();
    }
}
