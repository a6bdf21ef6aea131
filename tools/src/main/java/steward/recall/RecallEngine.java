package steward.recall;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import org.apache.lucene.search.IndexSearcher;
import steward.StewardError;
import steward.Work;
import steward.config.StewardPaths;
import steward.state.AtomicFiles;
import steward.text.CodePoints;

/**
 * Recall over one home: an {@link Indexer} keeps the index in step with the sources, a {@link QueryAnalyser} reads the
 * query, a {@link Ranker} ranks; an {@link Embedder} gives texts their vectors when asked to (by the background indexer,
 * never on a call's path). Everything it holds belongs to it and is closed with it: no static state.
 */
public final class RecallEngine implements AutoCloseable {
    /**
     * The floors of a real match (see {@link Confidence}). Calibrated on the no-memory DEV turns
     * ({@code fixtures/recall/no-memory-dev.txt}: nonsense, generic requests, chit-chat, none about anything stored; the
     * evaluation set is another file, never used here) against the ten LoCoMo homes (five conversations, with and without
     * name prefixes), dense on: of the floor triples that keep "good match" on at most 5 % of the DEV turns (4.8 % here),
     * the one that passes the most LoCoMo questions (82.7 %).
     */
    public static final double LEXICAL_FLOOR = 0.4, INFORMATION_FLOOR = 1.2, SEMANTIC_FLOOR = 0.74;
    /** Below every floor, recall_search shows at most this many items, each marked weak. */
    public static final int WEAK_MAX = 3;

    private static final Pattern DECISION =
            Pattern.compile("(?i)\\b(we decided|decided to|decision|agreed|we chose|going with|rule)\\b|决定|约定|规则");

    /**
     * Retrieval knobs: the weight of a message's neighbouring turns, whether recency and importance re-rank the BM25
     * order, and whether dense retrieval may be used. {@link #BM25_ONLY} is the naive turn-level baseline.
     */
    public record Options(double ctxBoost, boolean rerank, boolean dense) {
        public static final Options DEFAULT = new Options(Ranker.CTX_BOOST, true, true);
        public static final Options LEXICAL = new Options(Ranker.CTX_BOOST, true, false);
        public static final Options BM25_ONLY = new Options(0, false, false);

        public Options withDense(boolean on) {
            return new Options(ctxBoost, rerank, on);
        }
    }

    /** Query arguments; null scopes = all; times in epoch seconds, inclusive. */
    public record Query(String query, int k, Set<String> scopes, Double since, Double until, String excludeSessionId) {}

    /** Every component of an item's score. dense is null while dense retrieval is off. */
    public record Components(
            double bm25,
            Double dense,
            double fused,
            double recency,
            double importance,
            double time,
            double match,
            double coverage,
            double score) {}

    /** A ranked item; {@code weak}: below both floors; near-duplicates folded into it, counted, the first URIs listed. */
    public record Hit(
            RecallItem item,
            Components components,
            int rank,
            boolean weak,
            int duplicates,
            List<String> duplicateUris) {}

    /**
     * Whether anything cleared a floor, with the best coverage, information and cosine seen and the floors themselves;
     * {@code queryInformation}: what the whole query is worth, in the same units.
     * Lexically an item matches when it holds at least {@link #LEXICAL_FLOOR} of the query's IDF-weighted terms and that
     * share is worth at least {@link #INFORMATION_FLOOR} rare terms (summed IDF over the IDF of a term one item holds: a
     * common word matched in full is not a match);
     * semantically when its cosine reaches {@link #SEMANTIC_FLOOR}.
     */
    public record Confidence(
            boolean good,
            double bestCoverage,
            double bestInformation,
            Double bestCosine,
            double lexicalFloor,
            double informationFloor,
            Double semanticFloor,
            double queryInformation) {
        static Confidence none(boolean dense) {
            return new Confidence(
                    false,
                    0,
                    0,
                    dense ? 0.0 : null,
                    LEXICAL_FLOOR,
                    INFORMATION_FLOOR,
                    dense ? SEMANTIC_FLOOR : null,
                    0);
        }

        /** The information an item with this coverage holds (coverage × the query's information). */
        public double information(double coverage) {
            return coverage * queryInformation;
        }

        /** Whether an item with these figures clears a floor. */
        static boolean strong(double coverage, double information, Double cosine) {
            return coverage >= LEXICAL_FLOOR && information >= INFORMATION_FLOOR
                    || cosine != null && cosine >= SEMANTIC_FLOOR;
        }

        public String verdict() {
            return good ? "good match" : "no good match";
        }
    }

    public record Result(List<Hit> hits, int candidates, List<String> queryTerms, Confidence confidence) {
        /** The analysed query terms, at most 50. */
        public List<String> query_terms_bounded() {
            return queryTerms.size() <= 50 ? queryTerms : queryTerms.subList(0, 50);
        }
    }

    private final StewardPaths paths;
    private final Clock clock;
    private final Options options;
    private final RecallIndex index;
    private final HermesFiles files;
    private final HermesSessions sessions;
    /** The Claude Code home's source; null when no Claude Code home is configured. */
    private final ClaudeRecall claude;

    private final Indexer indexer;
    private final VectorStore vectors;
    private final DenseModel model;
    private final boolean ownsModel;
    private final Embedder embedder;
    private final FeedbackStore feedback;
    private final Ranker ranker;
    private ExecutorService queryEmbedder;
    private volatile SyncReport lastSync;

    /** An engine with its own model (loaded only if needed); dense as {@code options} says. */
    public RecallEngine(StewardPaths paths, Clock clock, Options options) {
        this(
                paths,
                clock,
                options,
                new DenseModel(recallDir(paths).resolve("model"), RecallSettings.DEFAULT_EMBED_CHARS, options.dense()),
                true);
    }

    /** An engine sharing the process's model. */
    public RecallEngine(StewardPaths paths, Clock clock, Options options, DenseModel model) {
        this(paths, clock, options, model, false);
    }

    private RecallEngine(StewardPaths paths, Clock clock, Options options, DenseModel model, boolean ownsModel) {
        this.paths = paths;
        this.clock = clock;
        this.options = options;
        this.model = model;
        this.ownsModel = ownsModel;
        Path dir = recallDir(paths);
        // temp files a killed indexer left (sources, vectors, the model): only stale ones, bounded
        AtomicFiles.removeStaleTemps(dir, 3);
        // a one-shot process (its model lean) reads the index and the vectors a query needs instead of mapping and
        // keeping them
        boolean oneShot = model != null && model.lean();
        this.index = new RecallIndex(dir.resolve("index"), oneShot);
        this.files = new HermesFiles(paths);
        this.sessions = new HermesSessions(paths.stateDb());
        this.claude = paths.claudeHome() == null ? null : new ClaudeRecall(paths.claudeHome());
        this.indexer =
                new Indexer(index, claude == null ? List.of(files, sessions) : List.of(files, sessions, claude), dir);
        this.vectors = new VectorStore(dir, oneShot);
        this.embedder = new Embedder(index, vectors, model);
        this.feedback = new FeedbackStore(dir, files);
        this.ranker = new Ranker(options);
    }

    public static Path recallDir(StewardPaths paths) {
        return paths.stateDir().resolve("recall");
    }

    /** The index (tests read term statistics from it). */
    RecallIndex index() {
        return index;
    }

    public StewardPaths paths() {
        return paths;
    }

    public Clock clock() {
        return clock;
    }

    public Options options() {
        return options;
    }

    public FeedbackStore feedback() {
        return feedback;
    }

    public DenseModel model() {
        return model;
    }

    /** The background embedding step (tests). */
    Embedder embedder() {
        return embedder;
    }

    /** Dense retrieval is asked for and its model has not failed here (it may not be loaded yet). */
    public boolean denseEnabled() {
        return options.dense() && model != null && model.usable();
    }

    /** Brings the index in step with the sources (a cheap check when nothing changed). */
    public SyncReport sync(Work work) {
        lastSync = indexer.sync(work, false);
        return lastSync;
    }

    public SyncReport sync() {
        return sync(Work.NONE);
    }

    private volatile BackgroundIndexer background;

    /** The background indexer that keeps this engine's index from now on (tool calls then never write it). */
    void keptBy(BackgroundIndexer b) {
        background = b;
    }

    /**
     * What a tool call does before ranking. With a background indexer (the long-lived server): never writes and never
     * waits: it wakes the indexer when a source moved and reports what is not searched yet (a first build's progress,
     * changes not yet written). Without one (a one-shot {@code steward call}, tests, benches): a sync, cheap when nothing
     * changed.
     */
    public SyncReport syncForCall(Work work) {
        return syncForCall(work, null);
    }

    /**
     * {@link #syncForCall(Work)} for the sources that hold these kinds only (null: every source): a call over memory
     * reads neither state.db nor the Claude Code home, and its report speaks of the sources it searches. A source
     * another process holds locked costs the call at most a short wait ({@link HermesSessions#READ_WAIT_MS}): what is
     * indexed of it is ranked and said to be maybe stale.
     */
    public SyncReport syncForCall(Work work, Set<String> kinds) {
        Set<String> only = null;
        if (kinds != null && !kinds.isEmpty()) {
            only = new LinkedHashSet<>();
            for (RecallSource s : indexer.sources()) for (String k : s.kinds()) if (kinds.contains(k)) only.add(s.id());
        }
        BackgroundIndexer b = background;
        if (b == null || !b.alive()) {
            lastSync = indexer.sync(work, false, only);
            return lastSync;
        }
        SyncReport r = indexer.peek(only);
        if (r.stale()) b.wake();
        return r;
    }

    /**
     * Has the sources that can watch their files for changes do so (true) or stop (false): the long-lived server's
     * background indexer watches while it runs, so that a sync with nothing changed is a look at a queue; a one-shot
     * process never starts watching and stats files as before. Whether any source now watches.
     */
    public boolean watchSources(boolean on) {
        return claude != null && claude.watch(on);
    }

    /** A full comparison of every source (the background indexer's periodic reconciliation). */
    SyncReport reconcile(Work work) {
        lastSync = indexer.sync(work, true);
        return lastSync;
    }

    public SyncReport lastSync() {
        return lastSync;
    }

    /** What the sources could not be read for at the last sync ("hermes-sessions" → why). */
    public Map<String, String> sourceErrors() {
        return indexer.errors();
    }

    /** Whether a sync (e.g. the first build) is running now, and its progress. */
    public double[] indexProgress() {
        return indexer.running() ? indexer.progress() : null;
    }

    /** Texts still waiting for their vector (0 with dense retrieval off). */
    public int densePending() {
        if (!denseEnabled()) return 0;
        // without waiting for the background embedder: the count of the current index, else the last one made here;
        // a process that has counted nothing yet (a one-shot call without another process's snapshot) counts now
        Integer n = embedder.pendingNow();
        if (n == null) n = embedder.pendingLastCounted();
        return n != null ? n : embedder.pending();
    }

    /** Stored vectors. */
    public int denseVectors() {
        return options.dense() ? vectors.size() : 0;
    }

    /** Embeds up to {@code max} waiting texts (background only); the count stored. */
    public int embedPending(int max, Work work) {
        return denseEnabled() ? embedder.step(max, work) : 0;
    }

    public long indexBytes() {
        return index.bytesOnDisk();
    }

    public long vectorBytes() {
        return vectors.bytesOnDisk();
    }

    public Map<String, Integer> counts() {
        return index.counts(RecallItem.KINDS);
    }

    public boolean built() {
        return index.exists();
    }

    /** Whether the next sync builds the index from nothing (none yet, or one of another format). */
    boolean firstBuildPending() {
        return indexer.fresh();
    }

    public Result search(Query q) {
        return search(q, Work.NONE);
    }

    /** Syncs (cheaply when nothing changed), then ranks. Never waits for embedding. */
    public Result search(Query q, Work work) {
        if (CodePoints.blank(q.query())) throw new StewardError("recall_search", "query is empty");
        if (q.k() < 1 || q.k() > 100) throw new StewardError("recall_search", "k must be 1–100, got " + q.k());
        syncForCall(work);
        return rank(q);
    }

    /**
     * Ranks against the index as it is (no sync). What the index holds of a source the last sync could not read at all
     * (an unreadable or replaced {@code state.db}) is left out: it cannot be verified now, and the result's warnings say
     * that source was not searched.
     */
    public Result rank(Query q) {
        Set<String> gone = unreadableKinds();
        if (!gone.isEmpty()) {
            Set<String> scopes =
                    new LinkedHashSet<>(q.scopes() == null || q.scopes().isEmpty() ? kinds() : q.scopes());
            scopes.removeAll(gone);
            if (scopes.isEmpty())
                return new Result(List.of(), 0, RecallAnalyzer.terms(q.query()), Confidence.none(false));
            q = new Query(q.query(), q.k(), scopes, q.since(), q.until(), q.excludeSessionId());
        }
        return rankIndexed(q);
    }

    /** The kinds of the sources whose last sync could not read them. */
    private Set<String> unreadableKinds() {
        Set<String> ids = indexer.unreadable();
        if (ids.isEmpty()) return Set.of();
        Set<String> out = new LinkedHashSet<>();
        for (RecallSource s : indexer.sources()) if (ids.contains(s.id())) out.addAll(s.kinds());
        return out;
    }

    private Result rankIndexed(Query q) {
        // the query's embedding and its nearest vectors (the slow part of a dense search) are computed on another core
        // during the lexical search. The bundled model is English: a query mostly in CJK script is ranked lexically
        // (bigrams) rather than by noise, and so is one the model cannot place (emoji, punctuation, one character, stop
        // words alone: see QueryAnalyser.denseUsable), whose embedding is noise close to unrelated texts; the model is
        // not even asked
        Ranker.Dense dense = null;
        if (denseEnabled() && QueryAnalyser.denseUsable(q.query()) && vectors.size() > 0) {
            ExecutorService on = queryEmbedder();
            CompletableFuture<float[]> qv = CompletableFuture.supplyAsync(() -> model.embedQuery(q.query()), on);
            int wanted = Ranker.nearestWanted(q);
            CompletableFuture<List<VectorStore.Scored>> near =
                    qv.thenApplyAsync(v -> v == null ? List.<VectorStore.Scored>of() : vectors.nearest(v, wanted), on);
            // complete only when known of this index without waiting (unknown: candidates without a vector are
            // looked up, as while texts wait)
            dense = new Ranker.Dense(
                    qv, near, vectors, index, Integer.valueOf(0).equals(embedder.pendingNow()));
        }
        IndexSearcher s = index.acquire();
        if (s == null) return new Result(List.of(), 0, RecallAnalyzer.terms(q.query()), Confidence.none(false));
        try {
            QueryAnalyser.Analysis a =
                    QueryAnalyser.analyse(q.query(), s.getIndexReader(), index.speakers(s.getIndexReader()));
            if (a.weights().isEmpty() && dense == null)
                return new Result(List.of(), 0, a.terms(), Confidence.none(false));
            double now = Instant.now(clock).toEpochMilli() / 1000.0;
            return ranker.rank(a, q, s, dense, feedbackOnce(), now);
        } catch (IOException e) {
            throw new StewardError("recall_search", "index read failed: " + e.getMessage());
        } finally {
            index.release(s);
        }
    }

    /**
     * The feedback factor of each candidate from one look at the feedback file per ranking (its first candidate's), not
     * one per candidate (two stats each, 100–400 candidates a query).
     */
    private ToDoubleFunction<String> feedbackOnce() {
        return new ToDoubleFunction<>() {
            private FeedbackStore.State state;

            @Override
            public double applyAsDouble(String uri) {
                // a damaged feedback file ranks as if it were empty (the search's warnings say so)
                if (state == null) state = feedback.read().state();
                return state.items()
                        .getOrDefault(uri, FeedbackStore.Counts.NONE)
                        .factor();
            }
        };
    }

    private synchronized ExecutorService queryEmbedder() {
        if (queryEmbedder == null) {
            queryEmbedder = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "steward-query-embedder");
                t.setDaemon(true);
                return t;
            });
        }
        return queryEmbedder;
    }

    /** Closed compounds of adjacent query words the index knows (see {@link QueryAnalyser#compounds}). */
    List<String> compounds(String query) throws IOException {
        IndexSearcher s = index.acquire();
        try {
            return s == null ? List.of() : QueryAnalyser.compounds(query, s.getIndexReader());
        } finally {
            index.release(s);
        }
    }

    /** Whether a text records a decision or rule (an importance signal, computed once at index time). */
    public static boolean recordsDecision(String text) {
        return DECISION.matcher(text).find();
    }

    /**
     * URIs of the newest {@code n} indexed messages of a session: a Hermes session's from state.db (from the index when
     * state.db cannot be read now: the gate this serves must not fail the call), a Claude Code session's from the index
     * (empty without a session id).
     */
    public Set<String> recentMessageUris(String sessionId, int n) {
        Set<String> out;
        try {
            out = sessions.recentMessageUris(sessionId, n);
        } catch (StewardError e) {
            out = index.newest(sessionId, RecallItem.SESSION, n);
        }
        if (claude != null && sessionId != null) out.addAll(index.newest(sessionId, RecallItem.CLAUDE_SESSION, n));
        return out;
    }

    /**
     * Of the Hermes sessions these items come from, those no longer in state.db (a session_apply or Hermes deleted them
     * since they were indexed); empty when state.db cannot be read now (nothing is dropped for it then).
     */
    public Set<String> goneSessions(Collection<RecallItem> items) {
        Set<String> ids = new HashSet<>();
        for (RecallItem it : items)
            if (RecallItem.SESSION.equals(it.source()) && it.sessionId() != null) ids.add(it.sessionId());
        try {
            return sessions.gone(ids);
        } catch (StewardError e) {
            return Set.of();
        }
    }

    /** The Claude Code source, or null (tests, the bench). */
    ClaudeRecall claudeSource() {
        return claude;
    }

    /** Reads an item back from its source by URI; null when it no longer exists. */
    public RecallItem resolve(String uri) {
        if (uri == null || !uri.startsWith("steward://"))
            throw new StewardError("recall", "not a steward:// URI: " + uri);
        for (RecallSource s : indexer.sources()) if (s.owns(uri)) return s.resolve(uri);
        throw new StewardError("recall", "unknown source in URI " + uri);
    }

    private static final java.util.regex.Pattern LOG_DAY =
            java.util.regex.Pattern.compile("steward://log/(\\d{4}-\\d{2}-\\d{2})");

    /**
     * The items a URI stands for: the previous release's whole-day log URI ({@code steward://log/<date>}) stands for
     * each entry of that day now; any other URI for the item it resolves to (none when it no longer exists).
     */
    public List<RecallItem> resolveAll(String uri) {
        if (uri != null) {
            java.util.regex.Matcher m = LOG_DAY.matcher(uri);
            if (m.matches()) return files.dayEntries(m.group(1));
        }
        RecallItem it = resolve(uri);
        return it == null ? List.of() : List.of(it);
    }

    public static String snippet(String text, int max) {
        String t = text.replaceAll("\\s+", " ").strip();
        return CodePoints.length(t) <= max ? t : CodePoints.prefix(t, max - 1) + "…";
    }

    @Override
    public synchronized void close() {
        if (queryEmbedder != null) queryEmbedder.shutdownNow();
        queryEmbedder = null;
        indexer.close();
        index.close();
        vectors.close();
        if (ownsModel && model != null) model.close();
    }

    /** Kinds of items this engine's sources yield. */
    public List<String> kinds() {
        List<String> out = new ArrayList<>();
        for (RecallSource s : indexer.sources()) out.addAll(s.kinds());
        return out;
    }
}
