package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

import steward.StewardError;
import steward.config.StewardPaths;
import steward.sessions.store.SessionStore;
import steward.text.CodePoints;

/**
 * Recall over a Hermes home: keeps the index in step with the sources (incrementally, before every
 * query) and answers queries with BM25 over the item text (its neighbouring turns at a lower weight),
 * then score = relevance × recency × importance. Dense retrieval is not part of this build (see
 * {@link #DENSE_STATUS}); the fused relevance is the BM25 score normalised by the best hit.
 */
public final class RecallEngine implements AutoCloseable {
    public static final String DENSE_STATUS = "off: lexical BM25 only (no embedding model is bundled in this build)";
    static final double CTX_BOOST = 0.3, TITLE_BOOST = 0.5;
    static final double RECENCY_HALF_LIFE_DAYS = 180, RECENCY_FLOOR = 0.8;
    static final int MAX_QUERY_TERMS = 256;
    private static final Pattern DECISION = Pattern.compile(
            "(?i)\\b(we decided|decided to|decision|agreed|we chose|going with|rule)\\b|决定|约定|规则");
    private static final Map<String, RecallEngine> CACHE = new ConcurrentHashMap<>();

    private final StewardPaths paths;
    private final Clock clock;
    private final Corpus corpus;
    private final RecallIndex index;
    private final FeedbackStore feedback;
    private SessionStore store;
    private Instant lastSync;
    private long lastSyncMillis;

    public RecallEngine(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
        this.corpus = new Corpus(paths);
        this.index = new RecallIndex(recallDir(paths).resolve("index"));
        this.feedback = new FeedbackStore(recallDir(paths));
    }

    /** One engine per (home, state dir, clock), kept warm across tool calls of a server process. */
    public static RecallEngine shared(StewardPaths paths, Clock clock) {
        String key = paths.hermesHome() + "\u0000" + paths.stateDir() + "\u0000" + clock;
        return CACHE.computeIfAbsent(key, k -> new RecallEngine(paths, clock));
    }

    public static Path recallDir(StewardPaths paths) {
        return paths.stateDir().resolve("recall");
    }

    public FeedbackStore feedback() {
        return feedback;
    }

    public Clock clock() {
        return clock;
    }

    private SessionStore store() {
        if (store == null && Files.isRegularFile(paths.stateDb())) store = SessionStore.openReadOnly(paths.stateDb());
        return store;
    }

    /** What the last sync changed. */
    public record SyncReport(boolean built, int changedGroups, int removedGroups, int items, long millis) {}

    /** Brings the index in step with the sources: new and changed groups re-indexed, vanished ones deleted. */
    public synchronized SyncReport sync() {
        long t0 = System.nanoTime();
        index.openIfPresent();
        boolean existed = index.exists();
        SessionStore s = store();
        Map<String, String> fileSigs = corpus.fileSignatures();
        String msgFp = Corpus.messageFingerprint(s);
        Map<String, String> old = index.signatures();
        Map<String, String> now = new TreeMap<>(fileSigs);
        if (existed && msgFp.equals(index.messageFingerprint())) {
            for (Map.Entry<String, String> e : old.entrySet()) if (e.getKey().startsWith("session:")) now.put(e.getKey(), e.getValue());
        } else {
            now.putAll(Corpus.sessionSignatures(s));
        }
        if (existed && now.equals(old)) {
            lastSync = Instant.now(clock);
            return new SyncReport(false, 0, 0, 0, (System.nanoTime() - t0) / 1_000_000);
        }
        if (!existed && now.isEmpty()) return new SyncReport(false, 0, 0, 0, 0); // empty home: nothing to build
        Map<String, List<RecallItem>> changed = new LinkedHashMap<>();
        int items = 0;
        for (Map.Entry<String, String> e : now.entrySet()) {
            if (!e.getValue().equals(old.get(e.getKey()))) {
                List<RecallItem> its = corpus.items(e.getKey(), s);
                changed.put(e.getKey(), its);
                items += its.size();
            }
        }
        List<String> removed = new ArrayList<>();
        for (String k : old.keySet()) if (!now.containsKey(k)) removed.add(k);
        index.apply(changed, removed, now, msgFp);
        lastSync = Instant.now(clock);
        lastSyncMillis = (System.nanoTime() - t0) / 1_000_000;
        return new SyncReport(!existed, changed.size(), removed.size(), items, lastSyncMillis);
    }

    /** Query arguments; null scopes = all; times in epoch seconds, inclusive. */
    public record Query(String query, int k, Set<String> scopes, Double since, Double until, String excludeSessionId) {}

    /** Every component of an item's score. dense is null while dense retrieval is off. */
    public record Components(double bm25, Double dense, double fused, double recency, double importance,
                             double coverage, double score) {}

    public record Hit(RecallItem item, Components components, int rank) {}

    public record Result(List<Hit> hits, int candidates, List<String> queryTerms) {}

    public synchronized Result search(Query q) {
        if (q.query() == null || q.query().isBlank()) throw new StewardError("recall_search", "query is empty");
        if (q.k() < 1 || q.k() > 100) throw new StewardError("recall_search", "k must be 1–100, got " + q.k());
        sync();
        List<String> terms = new ArrayList<>(new LinkedHashSet<>(RecallAnalyzer.terms(q.query())));
        if (terms.size() > MAX_QUERY_TERMS) terms = terms.subList(terms.size() - MAX_QUERY_TERMS, terms.size());
        IndexSearcher searcher = index.searcher();
        if (searcher == null || terms.isEmpty()) return new Result(List.of(), 0, terms);
        try {
            BooleanQuery.Builder text = new BooleanQuery.Builder();
            for (String t : terms) {
                text.add(new TermQuery(new Term(RecallIndex.F_BODY, t)), BooleanClause.Occur.SHOULD);
                text.add(new BoostQuery(new TermQuery(new Term(RecallIndex.F_CTX, t)), (float) CTX_BOOST), BooleanClause.Occur.SHOULD);
                text.add(new BoostQuery(new TermQuery(new Term(RecallIndex.F_TITLE, t)), (float) TITLE_BOOST), BooleanClause.Occur.SHOULD);
            }
            BooleanQuery.Builder all = new BooleanQuery.Builder().add(text.build(), BooleanClause.Occur.MUST);
            if (q.scopes() != null && !q.scopes().isEmpty()) {
                BooleanQuery.Builder sc = new BooleanQuery.Builder();
                for (String s : q.scopes()) sc.add(new TermQuery(new Term(RecallIndex.F_SOURCE, s)), BooleanClause.Occur.SHOULD);
                all.add(sc.build(), BooleanClause.Occur.FILTER);
            }
            if (q.since() != null || q.until() != null) {
                long lo = q.since() == null ? Long.MIN_VALUE : (long) Math.floor(q.since());
                long hi = q.until() == null ? Long.MAX_VALUE : (long) Math.floor(q.until());
                all.add(LongPoint.newRangeQuery(RecallIndex.F_TS, lo, hi), BooleanClause.Occur.FILTER);
            }
            if (q.excludeSessionId() != null) {
                all.add(new TermQuery(new Term(RecallIndex.F_SESSION, q.excludeSessionId())), BooleanClause.Occur.MUST_NOT);
            }
            org.apache.lucene.search.Query query = all.build();
            int n = Math.max(50, q.k() * 3);
            TopDocs top = searcher.search(query, n);
            if (top.scoreDocs.length == 0) return new Result(List.of(), 0, terms);
            Map<String, Double> idf = idf(terms);
            double totalIdf = idf.values().stream().mapToDouble(Double::doubleValue).sum();
            double best = top.scoreDocs[0].score;
            double nowSec = Instant.now(clock).toEpochMilli() / 1000.0;
            var stored = searcher.storedFields();
            List<Hit> hits = new ArrayList<>();
            for (ScoreDoc sd : top.scoreDocs) {
                RecallItem it = RecallIndex.fromDocument(stored.document(sd.doc));
                double fused = sd.score / best;
                double recency = recency(it.timestamp(), nowSec);
                double importance = importance(it);
                double coverage = coverage(terms, idf, totalIdf, it);
                hits.add(new Hit(it, new Components(sd.score, null, fused, recency, importance, coverage,
                        fused * recency * importance), 0));
            }
            hits.sort(Comparator.comparingDouble((Hit h) -> -h.components().score()).thenComparing(h -> h.item().uri()));
            List<Hit> out = new ArrayList<>();
            for (int i = 0; i < hits.size() && i < q.k(); i++) out.add(new Hit(hits.get(i).item(), hits.get(i).components(), i + 1));
            return new Result(out, (int) Math.min(Integer.MAX_VALUE, top.totalHits.value), terms);
        } catch (IOException e) {
            throw new StewardError("recall_search", "index read failed: " + e.getMessage());
        }
    }

    private Map<String, Double> idf(List<String> terms) throws IOException {
        Map<String, Double> out = new HashMap<>();
        int n = Math.max(1, index.reader().numDocs());
        for (String t : terms) {
            int df = index.reader().docFreq(new Term(RecallIndex.F_BODY, t));
            out.put(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
        }
        return out;
    }

    /**
     * Calibrated 0–1 relevance: the share of the query's information (IDF-weighted terms) that the item
     * holds — a term in the item counts fully, one only in its neighbouring turns half.
     */
    static double coverage(List<String> terms, Map<String, Double> idf, double totalIdf, RecallItem it) {
        if (totalIdf <= 0) return 0;
        Set<String> body = new HashSet<>(RecallAnalyzer.terms(it.text()));
        body.addAll(RecallAnalyzer.terms(it.title()));
        Set<String> ctx = it.context() == null || it.context().isEmpty() ? Set.of() : new HashSet<>(RecallAnalyzer.terms(it.context()));
        double got = 0;
        for (String t : terms) {
            if (body.contains(t)) got += idf.get(t);
            else if (ctx.contains(t)) got += 0.5 * idf.get(t);
        }
        return got / totalIdf;
    }

    static double recency(double ts, double nowSec) {
        if (ts <= 0) return RECENCY_FLOOR;
        double ageDays = Math.max(0, nowSec - ts) / 86400.0;
        return RECENCY_FLOOR + (1 - RECENCY_FLOOR) * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
    }

    /** Importance: curated memory 1.1, pinned ×1.2, records a decision ×1.1, then the feedback factor. */
    double importance(RecallItem it) {
        double f = it.source().equals(RecallItem.MEMORY) ? 1.1 : 1.0;
        if (it.pinned()) f *= 1.2;
        if (DECISION.matcher(it.text()).find()) f *= 1.1;
        return f * feedback.counts(it.uri()).factor();
    }

    /** Reads an item back from its source by URI; null when it no longer exists. */
    public synchronized RecallItem resolve(String uri) {
        return corpus.resolve(uri, store());
    }

    /** Index state for steward_status, without building anything. */
    public record IndexState(boolean built, Map<String, Integer> items, boolean denseEnabled, String dense,
                             Double injectionPrecision, int feedbackJudged, String path) {}

    public static IndexState state(StewardPaths paths) {
        Path dir = recallDir(paths).resolve("index");
        RecallIndex idx = new RecallIndex(dir);
        Map<String, Integer> items = new TreeMap<>();
        for (String s : List.of(RecallItem.MEMORY, RecallItem.SKILL, RecallItem.SESSION, RecallItem.LOG)) items.put(s, 0);
        boolean built = idx.exists();
        if (built) {
            try {
                idx.openIfPresent();
                for (String s : List.of(RecallItem.MEMORY, RecallItem.SKILL, RecallItem.SESSION, RecallItem.LOG)) {
                    items.put(s, idx.searcher().count(new TermQuery(new Term(RecallIndex.F_SOURCE, s))));
                }
            } catch (IOException | StewardError e) {
                built = false;
            } finally {
                idx.close();
            }
        }
        FeedbackStore fb = new FeedbackStore(recallDir(paths));
        Double precision;
        int judged;
        try {
            precision = fb.precision();
            judged = fb.judged();
        } catch (StewardError e) {
            precision = null;
            judged = 0;
        }
        return new IndexState(built, items, false, DENSE_STATUS, precision, judged, dir.toString());
    }

    public static String snippet(String text, int max) {
        String t = text.replaceAll("\\s+", " ").strip();
        return CodePoints.length(t) <= max ? t : CodePoints.prefix(t, max - 1) + "…";
    }

    @Override
    public synchronized void close() {
        index.close();
        if (store != null) store.close();
        store = null;
    }
}
