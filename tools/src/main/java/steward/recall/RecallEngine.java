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
import org.apache.lucene.sandbox.search.CombinedFieldQuery;
import org.apache.lucene.util.BytesRef;

import steward.StewardError;
import steward.Work;
import steward.config.StewardPaths;
import steward.sessions.store.SessionStore;
import steward.text.CodePoints;

/**
 * Recall over a Hermes home: keeps the index in step with the sources (incrementally, before every
 * query) and answers queries with BM25F over the item text and its neighbouring turns (at a lower weight),
 * then score = relevance × recency × importance × time. Dense retrieval is optional and off by default (see
 * {@link #DENSE_STATUS}); without it the fused relevance is the BM25 score normalised by the best hit.
 */
public final class RecallEngine implements AutoCloseable {
    public static final String DENSE_STATUS = "off (STEWARD_RECALL_DENSE=off): lexical BM25F with neighbouring-turn context only; on LoCoMo "
            + "dev R@10 0.795 instead of 0.805 with dense retrieval, at about a third of its query latency";
    public static final String DENSE_ON = "on (default): bge-small-en-v1.5-q (bundled, in-process ONNX) fused with BM25F by a weighted sum of "
            + "normalised scores (0.7 BM25F, 0.3 cosine); STEWARD_RECALL_DENSE=off turns it off";
    /**
     * Weight of the neighbouring turns (±{@link Corpus#CONTEXT_WINDOW}) relative to the item's own text, combined with it
     * as one BM25F field. Sum of two BM25 fields, LoCoMo conversations 1–2: 0.6/±3 → R@10 0.767, 0.8/±2 → 0.786. BM25F
     * with 0.8/±2 (and the speaker factor 2.0): 1–2 0.800 → 0.802, held-out 3–5 0.758 → 0.786; ±1 or ±3 lower on both.
     */
    static final double CTX_BOOST = 0.8, TITLE_BOOST = 0.5;
    static final double RECENCY_HALF_LIFE_DAYS = 180, RECENCY_FLOOR = 0.8;
    static final int MAX_QUERY_TERMS = 256;
    private static final Pattern DECISION = Pattern.compile(
            "(?i)\\b(we decided|decided to|decision|agreed|we chose|going with|rule)\\b|决定|约定|规则");
    private static final Map<String, RecallEngine> CACHE = new ConcurrentHashMap<>();
    /** One daemon thread that embeds queries while the lexical search runs. */
    private static final java.util.concurrent.ExecutorService EMBEDDER = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "steward-query-embedder");
        t.setDaemon(true);
        return t;
    });

    /**
     * Retrieval knobs: the weight of a message's neighbouring turns, and whether recency and importance
     * re-rank the BM25 order. {@link #BM25_ONLY} is the naive turn-level baseline the benchmark compares with.
     */
    public record Options(double ctxBoost, boolean rerank, boolean dense) {
        public static final Options DEFAULT = new Options(CTX_BOOST, true, DENSE_DEFAULT);
        public static final Options LEXICAL = new Options(CTX_BOOST, true, false);
        public static final Options BM25_ONLY = new Options(0, false, false);

        public Options withDense(boolean on) {
            return new Options(ctxBoost, rerank, on);
        }
    }

    /**
     * Dense retrieval is on by default and optional: {@code STEWARD_RECALL_DENSE=off} (or -Dsteward.recall.dense=false)
     * turns it off; where the embedding runtime cannot load, retrieval is lexical and the status says why.
     */
    public static final boolean DENSE_DEFAULT = !"off".equalsIgnoreCase(System.getenv().getOrDefault("STEWARD_RECALL_DENSE", "on"))
            && Boolean.parseBoolean(System.getProperty("steward.recall.dense", "true"));
    /**
     * New embeddings computed per sync at most (~3.5 ms each on 2 cores: about 7 s). A larger history is embedded over
     * several calls; until every item has its vector, ranking stays lexical so that no item is favoured for having one.
     */
    static final int DENSE_ITEMS_PER_SYNC = 2000;
    /**
     * Share of the dense cosine (min-max normalised over the dense candidates) in the fused relevance; the rest is
     * BM25 normalised by the best hit. Measured with bge-small and the re-ranker on LoCoMo conversations 1–2 (R@10):
     * linear 0.2 → 0.816, 0.3 → 0.823, 0.5 → 0.817; weighted reciprocal rank fusion (k 60, dense weight 0.3/0.6/1.0)
     * 0.809/0.808/0.781; lexical alone 0.795.
     */
    static final double DENSE_WEIGHT = 0.3;
    /**
     * With dense retrieval on, an item's coverage is at least this share of its normalised cosine: a paraphrase has
     * few of the query's words but all of its meaning. Conversations 1–2: R@10 0.823 → 0.830; held-out 3–5: 0.773 → 0.776.
     */
    static final double COV_DENSE = 0.8;
    /** Candidates taken from BM25 before re-ranking. Tried on LoCoMo dev and dropped (R@10 not better or worse):
     *  session-level score expansion (+0.3/+0.6 of the session's best scores), pseudo-relevance feedback (10 terms:
     *  0.743 → 0.710), neighbour diversification (0.743 → 0.728), BM25 k1/b variations (±0.005). */
    static final int POOL = 50;

    private final StewardPaths paths;
    private final Clock clock;
    private final Options options;
    private final Corpus corpus;
    private final RecallIndex index;
    private final FeedbackStore feedback;
    private final VectorStore vectors;
    private SessionStore store;
    private Instant lastSync;
    private long lastSyncMillis;
    /** Every indexed item has its vector (dense ranking may be used); items still waiting for one. */
    private boolean denseReady;
    private int densePending;
    private int denseBudget = DENSE_ITEMS_PER_SYNC;

    public RecallEngine(StewardPaths paths, Clock clock) {
        this(paths, clock, Options.DEFAULT);
    }

    public RecallEngine(StewardPaths paths, Clock clock, Options options) {
        this.options = options;
        this.paths = paths;
        this.clock = clock;
        this.corpus = new Corpus(paths);
        this.index = new RecallIndex(recallDir(paths).resolve("index"));
        this.feedback = new FeedbackStore(recallDir(paths));
        this.vectors = new VectorStore(recallDir(paths));
    }

    /** The encoder when dense retrieval is on and its model loads here, else null. */
    DenseEncoder encoder() {
        return options.dense() ? DenseEncoder.get() : null;
    }

    public boolean denseActive() {
        return encoder() != null;
    }

    /** Tests: a smaller number of new embeddings per sync. */
    synchronized RecallEngine denseBudget(int items) {
        this.denseBudget = items;
        return this;
    }

    /** Items still waiting for their vector after the last sync (ranking is lexical until none are). */
    public synchronized int densePending() {
        return densePending;
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
        return sync(Work.NONE);
    }

    /**
     * {@link #sync()}, reporting to {@code work}: reading the changed sources (the long part of a first build, with a
     * safe point after each), then indexing and embedding. A cancellation stops while sources are read, before
     * anything is written; once the index is being written the sync finishes.
     */
    public synchronized SyncReport sync(Work work) {
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
        DenseEncoder enc = encoder();
        Map<String, String> oldVec = enc == null ? null : vectors.signatures();
        boolean vecCurrent = enc == null || now.equals(oldVec);
        if (existed && now.equals(old) && vecCurrent) {
            denseReady = enc != null;
            densePending = 0;
            lastSync = Instant.now(clock);
            return new SyncReport(false, 0, 0, 0, (System.nanoTime() - t0) / 1_000_000);
        }
        if (!existed && now.isEmpty()) { // empty home: nothing to build
            denseReady = false;
            return new SyncReport(false, 0, 0, 0, 0);
        }
        Map<String, List<RecallItem>> read = new HashMap<>();
        Map<String, List<RecallItem>> changed = new LinkedHashMap<>();
        int items = 0;
        int toRead = 0, done = 0;
        for (Map.Entry<String, String> e : now.entrySet()) if (!e.getValue().equals(old.get(e.getKey()))) toRead++;
        for (Map.Entry<String, String> e : now.entrySet()) {
            if (!e.getValue().equals(old.get(e.getKey()))) {
                work.checkpoint("recall index");
                if (done++ % 100 == 0) work.progress(done, toRead + 2, "reading " + toRead + " changed sources for the recall index");
                List<RecallItem> its = read.computeIfAbsent(e.getKey(), k -> corpus.items(k, s));
                changed.put(e.getKey(), its);
                items += its.size();
            }
        }
        work.checkpoint("recall index"); // the last safe point: from here the index is written whole
        work.progress(toRead + 1, toRead + 2, "indexing " + items + " items");
        List<String> removed = new ArrayList<>();
        for (String k : old.keySet()) if (!now.containsKey(k)) removed.add(k);
        if (!changed.isEmpty() || !removed.isEmpty() || !existed) index.apply(changed, removed, now, msgFp);
        if (enc != null && !vecCurrent) {
            Map<String, List<RecallItem>> vChanged = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : now.entrySet()) {
                if (!e.getValue().equals(oldVec.get(e.getKey()))) vChanged.put(e.getKey(), read.computeIfAbsent(e.getKey(), k -> corpus.items(k, s)));
            }
            List<String> vRemoved = new ArrayList<>();
            for (String k : oldVec.keySet()) if (!now.containsKey(k)) vRemoved.add(k);
            work.progress(toRead + 1.5, toRead + 2, "embedding up to " + denseBudget + " new items");
            densePending = vectors.apply(vChanged, vRemoved, now, enc, denseBudget);
        } else {
            densePending = 0;
        }
        denseReady = enc != null && densePending == 0 && now.equals(vectors.signatures());
        lastSync = Instant.now(clock);
        lastSyncMillis = (System.nanoTime() - t0) / 1_000_000;
        work.progress(toRead + 2, toRead + 2, "recall index up to date");
        return new SyncReport(!existed, changed.size(), removed.size(), items, lastSyncMillis);
    }

    /** Query arguments; null scopes = all; times in epoch seconds, inclusive. */
    public record Query(String query, int k, Set<String> scopes, Double since, Double until, String excludeSessionId) {}

    /** Every component of an item's score. dense is null while dense retrieval is off. */
    public record Components(double bm25, Double dense, double fused, double recency, double importance, double time,
                             double match, double coverage, double score) {}

    public record Hit(RecallItem item, Components components, int rank) {}

    public record Result(List<Hit> hits, int candidates, List<String> queryTerms) {
        /** The analysed query terms, at most 50. */
        public List<String> query_terms_bounded() {
            return queryTerms.size() <= 50 ? queryTerms : queryTerms.subList(0, 50);
        }
    }

    public StewardPaths paths() {
        return paths;
    }

    public Options options() {
        return options;
    }

    public synchronized Result search(Query q) {
        if (q.query() == null || q.query().isBlank()) throw new StewardError("recall_search", "query is empty");
        if (q.k() < 1 || q.k() > 100) throw new StewardError("recall_search", "k must be 1–100, got " + q.k());
        sync();
        List<String> terms = new ArrayList<>(new LinkedHashSet<>(RecallAnalyzer.terms(q.query())));
        if (terms.size() > MAX_QUERY_TERMS) terms = terms.subList(terms.size() - MAX_QUERY_TERMS, terms.size());
        IndexSearcher searcher = index.searcher();
        // the bundled model is English: a query mostly in CJK script is ranked lexically (bigrams) rather than by noise
        DenseEncoder enc = denseReady && !mostlyCjk(q.query()) ? encoder() : null;
        if (searcher == null || terms.isEmpty() && enc == null) return new Result(List.of(), 0, terms);
        // the query's embedding (the slow part of a dense search) is computed on another core during the lexical search
        java.util.concurrent.CompletableFuture<float[]> queryVector = enc == null ? null
                : java.util.concurrent.CompletableFuture.supplyAsync(() -> enc.embedQuery(q.query()), EMBEDDER);
        try {
            Map<String, Float> weights = new LinkedHashMap<>();
            for (String t : terms) weights.put(t, 1f);
            for (String c : compounds(q.query())) weights.putIfAbsent(c, 1f);
            int n = Math.max(POOL, q.k() * 3);
            TopDocs top = searcher.search(buildQuery(weights, q), n);
            if (top.scoreDocs.length == 0 && enc == null) return new Result(List.of(), 0, terms);
            Map<String, Double> idf = idf(terms);
            double entityFactor = unknownEntities(q.query()) > 0 ? UNKNOWN_ENTITY_FACTOR : 1.0;
            TimeMention when = TimeMention.parse(q.query());
            double totalIdf = idf.values().stream().mapToDouble(Double::doubleValue).sum();
            double best = top.scoreDocs.length == 0 ? 1 : top.scoreDocs[0].score;
            double nowSec = Instant.now(clock).toEpochMilli() / 1000.0;
            var stored = searcher.storedFields();
            Map<String, double[]> lex = new LinkedHashMap<>(); // uri -> {bm25, rank}
            Candidates cand = new Candidates();
            for (int r = 0; r < top.scoreDocs.length; r++) {
                ScoreDoc sd = top.scoreDocs[r];
                lex.put(cand.add(sd.doc), new double[] {sd.score, r + 1});
            }
            long[] period = options.rerank() && when != null ? when.range() : null;
            if (period != null) {
                // the named period's own best matches join the candidates even when the whole history outscores them
                BooleanQuery.Builder scoped = new BooleanQuery.Builder().add(buildQuery(weights, q), BooleanClause.Occur.MUST)
                        .add(LongPoint.newRangeQuery(RecallIndex.F_TS, period[0], period[1] - 1), BooleanClause.Occur.FILTER);
                for (ScoreDoc sd : searcher.search(scoped.build(), POOL).scoreDocs) lex.putIfAbsent(cand.add(sd.doc), new double[] {sd.score, 0});
            }
            Map<String, double[]> dense = enc == null ? Map.of() : denseTop(queryVector.join(), q, n);
            for (String uri : dense.keySet()) {
                Integer doc = index.docOf(uri);
                if (doc != null) cand.add(doc);
            }
            double cosMax = dense.values().stream().mapToDouble(x -> x[0]).max().orElse(1);
            double cosMin = dense.values().stream().mapToDouble(x -> x[0]).min().orElse(0);
            Set<String> mentioned = mentionedSpeakers(terms);
            List<Hit> hits = new ArrayList<>();
            for (Map.Entry<String, RecallItem> e : cand.items.entrySet()) {
                RecallItem it = e.getValue();
                double[] l = lex.get(e.getKey());
                double[] d = dense.get(e.getKey());
                double fused;
                if (enc == null) {
                    fused = l[0] / best;
                } else {
                    double dn = d == null ? 0 : (d[0] - cosMin) / Math.max(1e-9, cosMax - cosMin);
                    fused = (1 - DENSE_WEIGHT) * (l == null ? 0 : l[0] / best) + DENSE_WEIGHT * dn;
                }
                double recency = options.rerank() ? recency(it.timestamp(), nowSec) : 1.0;
                double importance = options.rerank() ? importance(it, cand.decisions.contains(it.uri())) : 1.0;
                double time = options.rerank() && when != null ? when.boost(it.timestamp()) : 1.0;
                double match = options.rerank() ? match(index.meta(cand.docs.get(e.getKey())), mentioned) : 1.0;
                if (options.rerank()) {
                    RecallIndex.Terms tt = index.terms(cand.docs.get(e.getKey()));
                    Set<String> bt = tt.body();
                    if (when != null && when.matches(it.timestamp())) {
                        bt = new HashSet<>(bt);
                        bt.addAll(when.terms());
                    }
                    double cv = coverage(terms, idf, totalIdf, bt, tt.context());
                    if (d != null) cv = Math.max(cv, COV_DENSE * (d[0] - cosMin) / Math.max(1e-9, cosMax - cosMin));
                    match *= 1 - COV_WEIGHT + COV_WEIGHT * cv;
                }
                hits.add(new Hit(it, new Components(l == null ? 0 : l[0], d == null ? null : round4(d[0]), fused, recency, importance, time, match, 0,
                        fused * recency * importance * time * match), 0));
            }
            hits.sort(Comparator.comparingDouble((Hit h) -> -h.components().score()).thenComparing(h -> h.item().uri()));
            List<Hit> out = new ArrayList<>();
            for (int i = 0; i < hits.size() && i < q.k(); i++) {
                Hit h = hits.get(i);
                Components c = h.components();
                org.apache.lucene.document.Document full = stored.document(cand.docs.get(h.item().uri()));
                RecallIndex.Terms ft = index.terms(cand.docs.get(h.item().uri()));
                Set<String> bodyTerms = new HashSet<>(ft.body());
                if (when != null && when.matches(h.item().timestamp())) bodyTerms.addAll(when.terms()); // the date is the item's own
                double cov = entityFactor * coverage(terms, idf, totalIdf, bodyTerms, ft.context());
                out.add(new Hit(RecallIndex.fromDocument(full), new Components(round4(c.bm25()), c.dense(), round4(c.fused()), round4(c.recency()),
                        round4(c.importance()), c.time(), round4(c.match()), round4(cov), round4(c.score())), i + 1));
            }
            return new Result(out, (int) Math.min(Integer.MAX_VALUE, Math.max(top.totalHits.value, hits.size())), terms);
        } catch (IOException e) {
            throw new StewardError("recall_search", "index read failed: " + e.getMessage());
        }
    }

    /** The candidates of one query: each item (light fields only), its document number, whether it records a decision. */
    private final class Candidates {
        final Map<String, RecallItem> items = new HashMap<>();
        final Map<String, Integer> docs = new HashMap<>();
        final Set<String> decisions = new HashSet<>();

        /** Adds document {@code doc} (once) and returns its URI. */
        String add(int doc) {
            RecallIndex.Meta m = index.meta(doc);
            if (!items.containsKey(m.uri())) {
                items.put(m.uri(), new RecallItem(m.uri(), m.source(), null, null, "", null, m.ts(), m.sessionId(), m.pinned()));
                docs.put(m.uri(), doc);
                if (m.decision()) decisions.add(m.uri());
            }
            return m.uri();
        }
    }

    /*
     * Second stage: the BM25 candidates are re-ranked by a match factor from features BM25 does not see. Measured on
     * LoCoMo conversations 1–2 (R@10; tuned there only): speaker ×1.5 0.743 → 0.759 (×2.0 with BM25F: 0.791 → 0.802,
     * held-out 3–5 0.777 → 0.786; ×2.5 lower on both), question turns ×0.85 → 0.767,
     * coverage weight 0.4 (with the ±2/0.8 context) 0.786 → 0.795. Tried and dropped: neighbour diversification
     * (×0.8/0.9 for a turn next to a chosen one: −0.01 to −0.016), sloppy bigram phrases (±0), lower weight for
     * the speaker's name as a query term (±0), split near/far context fields (−0.005), recency floor 1.0 (−0.008),
     * asymmetric context (2 before/1 after −0.007, 1/2 −0.035), KStem instead of Porter (−0.05), the speaker prefix
     * kept out of the indexed body (−0.014), ×1.5–2 weight on capitalised query names (±0), coverage counting only the
     * item's own text (−0.019), a larger candidate pool (100/200: ±0). With BM25F: a ×1.15–1.3 prior for a session's
     * opening turns (±0), query-likelihood (Dirichlet μ 100–1000) instead of BM25 (−0.01 to −0.02 on 3–5), k1 0.9/1.6
     * and b 0.5/0.9 (noise), coverage weight 0.3/0.5/0.6 (noise).
     */
    /** A message said by a speaker the query names (LoCoMo 1–2: 254 of 264 evidence turns of one-name questions). */
    static final double SPEAKER_BOOST = 2.0;
    /** A message that only asks a question (a third of all turns, a sixth of the evidence turns). */
    static final double ASKS_FACTOR = 0.85;
    /** Share of the match factor that follows the IDF coverage of the query terms (in the item's own text, half in its context). */
    static final double COV_WEIGHT = 0.4;

    /** The speaker (as named at the start of their messages) the query is about: the one it names, or the first it names. */
    private Set<String> mentionedSpeakers(List<String> terms) {
        Set<String> out = new HashSet<>();
        Set<String> q = new HashSet<>(terms);
        String first = null;
        int firstPos = Integer.MAX_VALUE;
        for (String s : index.speakers()) {
            List<String> st = RecallAnalyzer.terms(s);
            if (!st.isEmpty() && q.contains(st.get(0))) {
                out.add(s);
                int pos = terms.indexOf(st.get(0));
                if (pos < firstPos) {
                    firstPos = pos;
                    first = s;
                }
            }
        }
        // two people named ("What does Jon tell Gina …?", "… from Caroline's suggestion"): the first is the subject, the
        // one whose messages hold the answer (held-out LoCoMo 3–5: R@10 0.786 → 0.792; 1–2 unchanged)
        return out.size() > 1 ? Set.of(first) : out;
    }

    /** Re-rank factor from what a message is, not only what it says: said by a speaker the query names; only asks a question. */
    static double match(RecallIndex.Meta m, Set<String> mentioned) {
        double f = 1.0;
        if (!mentioned.isEmpty() && m.speaker() != null && mentioned.contains(m.speaker())) f *= SPEAKER_BOOST;
        if (m.asks()) f *= ASKS_FACTOR;
        return f;
    }

    private org.apache.lucene.search.Query buildQuery(Map<String, Float> weights, Query q) {
        BooleanQuery.Builder text = new BooleanQuery.Builder();
        for (Map.Entry<String, Float> e : weights.entrySet()) {
            String t = e.getKey();
            float w = e.getValue();
            if (options.ctxBoost() > 0) {
                // BM25F: the item's text and its neighbouring turns are one weighted pseudo-field, so a term in both is
                // saturated once instead of scored twice (field weights must be ≥ 1: the ratio is what counts)
                text.add(boost(new CombinedFieldQuery.Builder()
                        .addField(RecallIndex.F_BODY, (float) Math.max(1, 1 / options.ctxBoost()))
                        .addField(RecallIndex.F_CTX, (float) Math.max(1, options.ctxBoost()))
                        .addTerm(new BytesRef(t)).build(), w), BooleanClause.Occur.SHOULD);
            } else {
                text.add(boost(new TermQuery(new Term(RecallIndex.F_BODY, t)), w), BooleanClause.Occur.SHOULD);
            }
            text.add(boost(new TermQuery(new Term(RecallIndex.F_TITLE, t)), w * (float) TITLE_BOOST), BooleanClause.Occur.SHOULD);
        }
        BooleanQuery.Builder all = new BooleanQuery.Builder().add(weights.isEmpty() ? new org.apache.lucene.search.MatchNoDocsQuery()
                : text.build(), BooleanClause.Occur.MUST);
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
        return all.build();
    }

    private static org.apache.lucene.search.Query boost(org.apache.lucene.search.Query q, float w) {
        return w == 1f ? q : new BoostQuery(q, w);
    }

    static double round4(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    /** Brute-force cosine over the stored vectors that pass the query's filters: uri -> {cosine, rank}. */
    private Map<String, double[]> denseTop(float[] qv, Query q, int n) {
        List<VectorStore.Entry> all = vectors.entries();
        List<double[]> scored = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            VectorStore.Entry e = all.get(i);
            if (q.scopes() != null && !q.scopes().isEmpty() && !q.scopes().contains(e.source())) continue;
            if (q.excludeSessionId() != null && q.excludeSessionId().equals(e.sessionId())) continue;
            if (q.since() != null && e.ts() < Math.floor(q.since())) continue;
            if (q.until() != null && Math.floor(e.ts()) > Math.floor(q.until())) continue;
            float[] v = e.vector();
            double dot = 0;
            for (int d = 0; d < v.length; d++) dot += v[d] * qv[d];
            scored.add(new double[] {dot, i});
        }
        scored.sort((a, b) -> Double.compare(b[0], a[0]));
        Map<String, double[]> out = new LinkedHashMap<>();
        for (int r = 0; r < scored.size() && r < n; r++) out.put(all.get((int) scored.get(r)[1]).uri(), new double[] {scored.get(r)[0], r + 1});
        return out;
    }

    private static final Pattern LATIN_WORD = Pattern.compile("[A-Za-z]+");

    /**
     * Closed compounds of adjacent query words that the index knows ("work out" → workout, "home made" → homemade):
     * English writes many compounds open, closed or hyphenated, and a question rarely uses the conversation's form.
     */
    List<String> compounds(String query) throws IOException {
        java.util.regex.Matcher m = LATIN_WORD.matcher(query);
        int prevEnd = -1;
        List<String> out = new ArrayList<>();
        String prev = null;
        while (m.find()) {
            String w = m.group().toLowerCase(java.util.Locale.ROOT);
            if (prev != null && m.start() == prevEnd + 1 && query.charAt(prevEnd) == ' ') {
                for (String t : RecallAnalyzer.terms(prev + w)) {
                    if (t.length() > 4 && index.reader().docFreq(new Term(RecallIndex.F_BODY, t)) > 0) out.add(t);
                }
            }
            prev = w;
            prevEnd = m.end();
        }
        return out;
    }

    private Map<String, Double> idf(List<String> terms) throws IOException {
        Map<String, Double> out = new HashMap<>();
        int n = Math.max(1, index.reader().numDocs());
        for (String t : terms) {
            int df = index.reader().docFreq(new Term(RecallIndex.F_BODY, t));
            // a CJK bigram found nowhere is mostly a segmentation artefact across a word boundary ("得我"), not evidence
            // of an unknown subject: it does not count against coverage (its unigrams still do)
            if (df == 0 && cjkBigram(t)) continue;
            out.put(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
        }
        return out;
    }

    /**
     * Calibrated 0–1 relevance: the share of the query's information (IDF-weighted terms) that the item
     * holds — a term in the item counts fully, one only in its neighbouring turns half.
     */
    /** A message naming something memory has never seen is not about what memory holds: coverage is scaled by this. */
    static final double UNKNOWN_ENTITY_FACTOR = 0.6;
    /** Share of a query term's weight earned when it occurs only in an item's neighbouring turns. */
    static final double CTX_COVERAGE = 0.5; // 0.8 measured: inject 78.8 % but 99.7 % of echo messages then got their neighbours injected
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’_-]*|[.?!。？！]");

    /**
     * Proper names in the query (capitalised, not sentence-initial) that occur in no indexed item. Names are the
     * strongest sign of what a message is about; one the memory has never seen means the match is on side words.
     */
    int unknownEntities(String query) throws IOException {
        int unknown = 0;
        boolean initial = true;
        java.util.regex.Matcher m = WORD.matcher(query);
        while (m.find()) {
            String w = m.group();
            if (w.length() == 1 && ".?!。？！".contains(w)) {
                initial = true;
                continue;
            }
            boolean cap = Character.isUpperCase(w.codePointAt(0)) && w.codePoints().skip(1).anyMatch(Character::isLowerCase);
            if (cap && !initial) {
                for (String t : RecallAnalyzer.terms(w)) {
                    if (index.reader().docFreq(new Term(RecallIndex.F_BODY, t)) == 0
                            && index.reader().docFreq(new Term(RecallIndex.F_TITLE, t)) == 0) {
                        unknown++;
                        break;
                    }
                }
            }
            initial = false;
        }
        return unknown;
    }

    /** More CJK than other letters. */
    static boolean mostlyCjk(String text) {
        int cjk = 0, other = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (steward.text.TitleAnalyzer.isCjk(cp)) cjk++;
            else if (Character.isLetter(cp)) other++;
            i += Character.charCount(cp);
        }
        return cjk > other;
    }

    static boolean cjkBigram(String t) {
        if (t.codePointCount(0, t.length()) != 2) return false;
        return t.codePoints().allMatch(steward.text.TitleAnalyzer::isCjk);
    }

    static double coverage(List<String> terms, Map<String, Double> idf, double totalIdf, Set<String> body, Set<String> ctx) {
        if (totalIdf <= 0) return 0;
        double got = 0;
        for (String t : terms) {
            Double w = idf.get(t);
            if (w == null) continue;
            if (body.contains(t)) got += w;
            else if (ctx.contains(t)) got += CTX_COVERAGE * w;
        }
        return got / totalIdf;
    }

    /** Whether a text records a decision or rule (an importance signal, computed once at index time). */
    public static boolean recordsDecision(String text) {
        return DECISION.matcher(text).find();
    }

    static double recency(double ts, double nowSec) {
        if (ts <= 0) return RECENCY_FLOOR;
        double ageDays = Math.max(0, nowSec - ts) / 86400.0;
        return RECENCY_FLOOR + (1 - RECENCY_FLOOR) * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
    }

    /** Importance: curated memory 1.1, pinned ×1.2, records a decision ×1.1, then the feedback factor. */
    double importance(RecallItem it, boolean decision) {
        double f = it.source().equals(RecallItem.MEMORY) ? 1.1 : 1.0;
        if (it.pinned()) f *= 1.2;
        if (decision) f *= 1.1;
        return f * feedback.counts(it.uri()).factor();
    }

    /** URIs of the newest {@code n} indexed messages of a session (empty without a session id or state.db). */
    public synchronized Set<String> recentMessageUris(String sessionId, int n) {
        Set<String> out = new HashSet<>();
        SessionStore s = sessionId == null ? null : store();
        if (s == null) return out;
        try (java.sql.PreparedStatement ps = s.connection().prepareStatement("SELECT id FROM messages WHERE session_id = ? "
                + "AND role IN ('user','assistant') ORDER BY id DESC LIMIT ?")) {
            ps.setString(1, sessionId);
            ps.setInt(2, n);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add("steward://session/" + sessionId + "/message/" + rs.getLong(1));
            }
        } catch (java.sql.SQLException e) {
            throw new StewardError("recall", "cannot read session " + sessionId + ": " + e.getMessage());
        }
        return out;
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
        return new IndexState(built, items, DENSE_DEFAULT, DENSE_DEFAULT ? DENSE_ON : DENSE_STATUS, precision, judged, dir.toString());
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
