package steward.recall;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.sandbox.search.CombinedFieldQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;
import steward.recall.RecallEngine.Components;
import steward.recall.RecallEngine.Confidence;
import steward.recall.RecallEngine.Hit;
import steward.recall.RecallEngine.Options;
import steward.recall.RecallEngine.Query;
import steward.recall.RecallEngine.Result;

/**
 * Ranks the candidates of one analysed query: BM25F over an item's text and its neighbouring turns (at a lower weight),
 * fused with the dense cosine when vectors are there, then score = relevance × recency × importance × time × match.
 * Then honest confidence (does anything clear a calibrated lexical or semantic floor?), near-duplicates collapsed with a
 * count, and at most {@link #PER_SESSION_TOP} items of one session among the first {@link #TOP}.
 */
final class Ranker {
    /**
     * Weight of the neighbouring turns (±{@link HermesSessions#CONTEXT_WINDOW}) relative to the item's own text, combined
     * with it as one BM25F field. Sum of two BM25 fields, LoCoMo conversations 1–2: 0.6/±3 → R@10 0.767, 0.8/±2 → 0.786.
     * BM25F with 0.8/±2 (and the speaker factor 2.0): 1–2 0.800 → 0.802, 3–5 0.758 → 0.786; ±1 or ±3 lower on both.
     */
    static final double CTX_BOOST = 0.8, TITLE_BOOST = 0.5;

    static final double RECENCY_HALF_LIFE_DAYS = 180, RECENCY_FLOOR = 0.8;
    /**
     * Share of the dense cosine (min-max normalised over the dense candidates) in the fused relevance; the rest is BM25
     * normalised by the best hit. LoCoMo conversations 1–2 (R@10): linear 0.2 → 0.816, 0.3 → 0.823, 0.5 → 0.817;
     * weighted reciprocal rank fusion (k 60, dense weight 0.3/0.6/1.0) 0.809/0.808/0.781; lexical alone 0.795.
     */
    static final double DENSE_WEIGHT = 0.3;
    /**
     * With dense retrieval on, an item's coverage is at least this share of its normalised cosine: a paraphrase has
     * few of the query's words but all of its meaning. Conversations 1–2: R@10 0.823 → 0.830; 3–5: 0.773 → 0.776.
     */
    static final double COV_DENSE = 0.8;
    /** Candidates taken from BM25 before re-ranking. Tried on LoCoMo and dropped (R@10 not better or worse):
     *  session-level score expansion (+0.3/+0.6 of the session's best scores), pseudo-relevance feedback (10 terms:
     *  0.743 → 0.710), neighbour diversification (0.743 → 0.728), BM25 k1/b variations (±0.005). */
    static final int POOL = 50;
    /*
     * Second stage: the BM25 candidates are re-ranked by a match factor from features BM25 does not see. Measured on
     * LoCoMo conversations 1–2 (R@10): speaker ×1.5 0.743 → 0.759 (×2.0 with BM25F: 0.791 → 0.802, 3–5 0.777 → 0.786;
     * ×2.5 lower on both), question turns ×0.85 → 0.767, coverage weight 0.4 (with the ±2/0.8 context) 0.786 → 0.795.
     * Tried and dropped: neighbour diversification (×0.8/0.9 for a turn next to a chosen one: −0.01 to −0.016), sloppy
     * bigram phrases (±0), lower weight for the speaker's name as a query term (±0), split near/far context fields
     * (−0.005), recency floor 1.0 (−0.008), asymmetric context (2 before/1 after −0.007, 1/2 −0.035), KStem instead of
     * Porter (−0.05), the speaker prefix kept out of the indexed body (−0.014), ×1.5–2 weight on capitalised query names
     * (±0), coverage counting only the item's own text (−0.019), a larger candidate pool (100/200: ±0). With BM25F: a
     * ×1.15–1.3 prior for a session's opening turns (±0), query-likelihood (Dirichlet μ 100–1000) instead of BM25 (−0.01
     * to −0.02 on 3–5), k1 0.9/1.6 and b 0.5/0.9 (noise), coverage weight 0.3/0.5/0.6 (noise).
     * The speaker factor fires only on messages that start "Name: " (LoCoMo's conversion writes them; Hermes and Claude
     * Code messages do not), so it changes nothing on a store without such prefixes.
     */
    /** A message said by a speaker the query names (LoCoMo 1–2: 254 of 264 evidence turns of one-name questions). */
    static final double SPEAKER_BOOST = 2.0;
    /** A message that only asks a question (a third of all turns, a sixth of the evidence turns). */
    static final double ASKS_FACTOR = 0.85;
    /** Share of the match factor that follows the IDF coverage of the query terms (in the item's own text, half in its context). */
    static final double COV_WEIGHT = 0.4;
    /** Share of a query term's weight earned when it occurs only in an item's neighbouring turns. */
    static final double CTX_COVERAGE =
            0.5; // 0.8 measured: inject 78.8 % but 99.7 % of echo messages then got their neighbours injected

    /** The calibrated floors of a real match (see {@link RecallEngine#LEXICAL_FLOOR}). */
    static final double LEXICAL_FLOOR = RecallEngine.LEXICAL_FLOOR,
            SEMANTIC_FLOOR = RecallEngine.SEMANTIC_FLOOR,
            INFORMATION_FLOOR = RecallEngine.INFORMATION_FLOOR;
    /** Below the floors, recall_search returns at most this many items, marked weak. */
    static final int WEAK_MAX = RecallEngine.WEAK_MAX;
    /** Diversification: among the first {@code TOP} items, at most {@code PER_SESSION_TOP} from one session. */
    static final int TOP = 5, PER_SESSION_TOP = 2;
    /** Two items whose term SimHashes differ in at most this many bits are near-duplicates. */
    static final int SIMHASH_BITS = 3;

    /**
     * What ranking reads of the dense side for one query: the query's vector and its {@link #nearestWanted} nearest rows
     * (both computed off the calling thread while it runs the lexical stage).
     */
    record Dense(
            Future<float[]> query,
            Future<List<VectorStore.Scored>> nearest,
            VectorStore vectors,
            RecallIndex index,
            boolean complete) {}

    /** How many nearest vectors a query takes: more when filters may drop some of their documents. */
    static int nearestWanted(Query q) {
        int n = Math.max(POOL, q.k() * 3);
        return filtered(q) ? n * 4 : n * 2;
    }

    static boolean filtered(Query q) {
        return q.scopes() != null || q.since() != null || q.until() != null || q.excludeSessionId() != null;
    }

    private final Options options;

    Ranker(Options options) {
        this.options = options;
    }

    Result rank(
            QueryAnalyser.Analysis a,
            Query q,
            IndexSearcher searcher,
            Dense dense,
            ToDoubleFunction<String> feedback,
            double nowSec)
            throws IOException {
        List<String> terms = a.terms();
        float[] qv = null;
        boolean useDense = dense != null;
        TopDocs top = lexical(searcher, a.weights(), q, Math.max(POOL, q.k() * 3));
        Map<Integer, Double> lex = new LinkedHashMap<>();
        for (ScoreDoc sd : top.scoreDocs) lex.put(sd.doc, (double) sd.score);
        TimeMention when = a.when();
        long[] period = options.rerank() && when != null ? when.range() : null;
        if (period != null) {
            // the named period's own best matches join the candidates even when the whole history outscores them
            BooleanQuery.Builder scoped = new BooleanQuery.Builder()
                    .add(buildQuery(a.weights(), q), BooleanClause.Occur.MUST)
                    .add(
                            LongPoint.newRangeQuery(RecallIndex.F_TS, period[0], period[1] - 1),
                            BooleanClause.Occur.FILTER);
            for (ScoreDoc sd : searcher.search(scoped.build(), POOL).scoreDocs)
                lex.putIfAbsent(sd.doc, (double) sd.score);
        }
        // what the lexical candidates' scores take from the items themselves (meta, the query's words they hold,
        // recency, importance, time, match) does not need the dense side: read while the query embedder finishes
        IndexReader reader = searcher.getIndexReader();
        List<String> coverTerms = new ArrayList<>(terms);
        if (when != null) for (String t : when.terms()) if (!coverTerms.contains(t)) coverTerms.add(t);
        Map<Integer, RecallIndex.Meta> meta = new HashMap<>();
        Map<Integer, Factors> factors = new HashMap<>();
        int[] lexDocs = RecallIndex.sortedDistinct(lex.keySet());
        factors(a, reader, lexDocs, coverTerms, feedback, nowSec, meta, factors);
        Map<Integer, Double> cos = new HashMap<>();
        double cosMax = 1, cosMin = 0;
        List<VectorStore.Scored> near = List.of();
        if (useDense) {
            try {
                qv = dense.query().get();
            } catch (Exception e) {
                qv = null;
            }
            if (qv != null) near = nearest(dense);
            useDense = qv != null && near != null;
        }
        int n = Math.max(POOL, q.k() * 3);
        if (useDense) {
            boolean filtered = filtered(q);
            Map<Long, Double> byKey = new LinkedHashMap<>();
            for (VectorStore.Scored s : near) byKey.put(s.key(), s.cosine());
            if (!byKey.isEmpty()) {
                long[] keys = byKey.keySet().stream().mapToLong(Long::longValue).toArray();
                // the documents that say these texts (the first n × 8 in document order that pass the query's filters)
                RecallIndex.HashHits hits = dense.index().withTextHashes(searcher, keys);
                List<double[]> ranked = new ArrayList<>();
                if (!filtered) {
                    for (int i = 0; i < hits.docs().length && i < n * 8; i++)
                        ranked.add(new double[] {byKey.getOrDefault(hits.hashes()[i], 0.0), hits.docs()[i]});
                } else if (hits.docs().length > 0) {
                    BooleanQuery.Builder b =
                            new BooleanQuery.Builder().add(new DocSetQuery(hits.docs()), BooleanClause.Occur.MUST);
                    filters(b, q);
                    for (ScoreDoc sd : searcher.search(b.build(), n * 8).scoreDocs) {
                        long hash = hits.hashes()[Arrays.binarySearch(hits.docs(), sd.doc)];
                        ranked.add(new double[] {byKey.getOrDefault(hash, 0.0), sd.doc});
                    }
                }
                ranked.sort((x, y) -> Double.compare(y[0], x[0]));
                for (int i = 0; i < ranked.size() && i < n; i++) cos.put((int) ranked.get(i)[1], ranked.get(i)[0]);
                cosMax = cos.values().stream()
                        .mapToDouble(Double::doubleValue)
                        .max()
                        .orElse(1);
                cosMin = cos.values().stream()
                        .mapToDouble(Double::doubleValue)
                        .min()
                        .orElse(0);
            }
        }
        Set<Integer> cands = new HashSet<>(lex.keySet());
        cands.addAll(cos.keySet());
        if (cands.isEmpty()) return new Result(List.of(), 0, terms, RecallEngine.Confidence.none(useDense));
        int[] docs = RecallIndex.sortedDistinct(cands);
        // the candidates only the dense side brought
        factors(a, reader, without(docs, lexDocs), coverTerms, feedback, nowSec, meta, factors);
        Set<Long> vectorless = new HashSet<>();
        if (useDense
                && !dense.complete()) { // while texts wait for vectors: which candidates have one, and their cosine
            List<Long> missing = new ArrayList<>();
            for (int d : cands) if (!cos.containsKey(d)) missing.add(meta.get(d).textHash());
            Map<Long, Double> more = dense.vectors().cosines(qv, missing);
            for (int d : cands) {
                if (cos.containsKey(d)) continue;
                Double c = more.get(meta.get(d).textHash());
                if (c != null) cos.put(d, c);
                else vectorless.add(meta.get(d).textHash());
            }
        }
        double best = top.scoreDocs.length == 0 ? 1 : top.scoreDocs[0].score;
        List<Scored> scored = new ArrayList<>();
        for (int i = 0; i < docs.length; i++) {
            int doc = docs[i];
            RecallIndex.Meta m = meta.get(doc);
            Double l = lex.get(doc);
            Double d = cos.get(doc);
            double ln = l == null ? 0 : l / best;
            double dn = 0;
            double fused;
            if (!useDense) {
                fused = ln;
            } else {
                // an item still waiting for its vector is ranked on its lexical evidence alone (its dense share is
                // taken
                // to equal its lexical one), so that having a vector neither favours nor penalises it
                if (d != null) dn = Math.max(0, Math.min(1, (d - cosMin) / Math.max(1e-9, cosMax - cosMin)));
                else if (vectorless.contains(m.textHash())) dn = ln;
                fused = (1 - DENSE_WEIGHT) * ln + DENSE_WEIGHT * dn;
            }
            Factors f = factors.get(doc);
            double recency = f.recency(), importance = f.importance(), time = f.time(), match = f.match();
            double cov = f.cov();
            if (options.rerank()) {
                double cv = d != null ? Math.max(cov, COV_DENSE * dn) : cov;
                match *= 1 - COV_WEIGHT + COV_WEIGHT * cv;
            }
            double score = fused * recency * importance * time * match;
            scored.add(new Scored(
                    m,
                    new Components(
                            l == null ? 0 : l,
                            d == null ? null : round4(d),
                            fused,
                            recency,
                            importance,
                            time,
                            match,
                            a.entityFactor() * cov,
                            score),
                    a.entityFactor() * cov * a.totalIdf() / Math.max(1e-9, a.rareIdf())));
        }
        scored.sort(Comparator.comparingDouble((Scored s) -> -s.c.score()).thenComparing(s -> s.m.uri()));
        List<Group> groups = collapse(scored);
        final boolean withDense = useDense;
        List<Group> ordered = diversify(
                groups,
                g -> RecallEngine.Confidence.strong(
                        g.first.c.coverage(), g.first.information, withDense ? g.first.c.dense() : null));
        // honest confidence: does anything clear the lexical or the semantic floor?
        double bestCov = 0, bestInfo = 0, bestCos = 0;
        boolean good = false;
        for (Group g : ordered) {
            bestCov = Math.max(bestCov, g.first.c.coverage());
            bestInfo = Math.max(bestInfo, g.first.information);
            if (g.first.c.dense() != null) bestCos = Math.max(bestCos, g.first.c.dense());
            good |= RecallEngine.Confidence.strong(
                    g.first.c.coverage(), g.first.information, useDense ? g.first.c.dense() : null);
        }
        int limit = q.k(); // the ranking in full; recall_search shows at most WEAK_MAX of it when nothing is good
        // (RecallService)
        List<Hit> out = new ArrayList<>();
        for (int i = 0; i < ordered.size() && out.size() < limit; i++) {
            Group g = ordered.get(i);
            Components c = g.first.c;
            String[] st = RecallIndex.stored(searcher, g.first.m.doc());
            RecallItem it = new RecallItem(
                    g.first.m.uri(),
                    g.first.m.source(),
                    null,
                    st[0],
                    st[1],
                    null,
                    g.first.m.ts(),
                    g.first.m.sessionId(),
                    g.first.m.pinned());
            boolean strong =
                    RecallEngine.Confidence.strong(c.coverage(), g.first.information, useDense ? c.dense() : null);
            out.add(new Hit(
                    it,
                    new Components(
                            round4(c.bm25()),
                            c.dense(),
                            round4(c.fused()),
                            round4(c.recency()),
                            round4(c.importance()),
                            c.time(),
                            round4(c.match()),
                            round4(c.coverage()),
                            round4(c.score())),
                    out.size() + 1,
                    !strong,
                    g.dups.size(),
                    g.dups.stream().limit(3).map(s -> s.m.uri()).toList()));
        }
        long total = Math.max(top.totalHits.value, scored.size());
        return new Result(
                out,
                (int) Math.min(Integer.MAX_VALUE, total),
                terms,
                new Confidence(
                        good,
                        round4(bestCov),
                        round4(bestInfo),
                        useDense ? round4(bestCos) : null,
                        LEXICAL_FLOOR,
                        INFORMATION_FLOOR,
                        useDense ? SEMANTIC_FLOOR : null,
                        a.totalIdf() / Math.max(1e-9, a.rareIdf())));
    }

    /**
     * What an item's score takes from the item itself and the query's words, whatever the dense side says: recency,
     * importance, the named period's boost, the match factor before coverage, and the IDF coverage of the query terms.
     */
    private record Factors(double recency, double importance, double time, double match, double cov) {}

    /** The meta and {@link Factors} of {@code docs} (sorted), added to {@code meta} and {@code into}. */
    private void factors(
            QueryAnalyser.Analysis a,
            IndexReader reader,
            int[] docs,
            List<String> coverTerms,
            ToDoubleFunction<String> feedback,
            double nowSec,
            Map<Integer, RecallIndex.Meta> meta,
            Map<Integer, Factors> into)
            throws IOException {
        if (docs.length == 0) return;
        Map<Integer, RecallIndex.Meta> read = RecallIndex.meta(reader, RecallIndex.asList(docs));
        meta.putAll(read);
        Map<String, boolean[][]> holds = options.rerank() ? RecallIndex.holds(reader, coverTerms, docs) : Map.of();
        TimeMention when = a.when();
        Set<String> mentioned = a.speakers();
        for (int i = 0; i < docs.length; i++) {
            RecallIndex.Meta m = read.get(docs[i]);
            double recency = options.rerank() ? recency(m.ts(), nowSec) : 1.0;
            double importance = options.rerank() ? importance(m, feedback) : 1.0;
            double time = options.rerank() && when != null ? when.boost(m.ts()) : 1.0;
            double match = options.rerank() ? match(m, mentioned) : 1.0;
            double cov = 0;
            if (options.rerank()) {
                boolean dated = when != null && when.matches(m.ts());
                cov = coverage(a.terms(), a.idf(), a.totalIdf(), holds, i, dated ? when.terms() : Set.of());
            }
            into.put(docs[i], new Factors(recency, importance, time, match, cov));
        }
    }

    /** The elements of sorted {@code all} that are not in sorted {@code some}. */
    static int[] without(int[] all, int[] some) {
        int[] out = new int[all.length];
        int n = 0, j = 0;
        for (int x : all) {
            while (j < some.length && some[j] < x) j++;
            if (j < some.length && some[j] == x) continue;
            out[n++] = x;
        }
        return Arrays.copyOf(out, n);
    }

    /** The nearest rows; null when the wait was interrupted (ranked lexically then, as when the query's vector is). */
    private static List<VectorStore.Scored> nearest(Dense dense) {
        try {
            return dense.nearest().get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * {@code information}: the summed IDF of the query terms the item holds (neighbouring turns half, × the entity factor),
     * in units of one rare term (a term only one item holds), so that it means the same in a small home and a large one.
     */
    private record Scored(RecallIndex.Meta m, Components c, double information) {}

    /** An item and the near-duplicates folded into it (lower scored, same normalised text or near-equal terms). */
    private static final class Group {
        final Scored first;
        final List<Scored> dups = new ArrayList<>();

        Group(Scored s) {
            first = s;
        }
    }

    static List<Group> collapse(List<Scored> sorted) {
        List<Group> out = new ArrayList<>();
        Map<Long, Group> byNormal = new HashMap<>();
        for (Scored s : sorted) {
            Group g = byNormal.get(s.m.normalHash());
            if (g == null) {
                for (Group o : out) {
                    if (Long.bitCount(o.first.m.simHash() ^ s.m.simHash()) <= SIMHASH_BITS) {
                        g = o;
                        break;
                    }
                }
            }
            if (g != null) {
                g.dups.add(s);
                continue;
            }
            g = new Group(s);
            out.add(g);
            byNormal.put(s.m.normalHash(), g);
        }
        return out;
    }

    /**
     * At most {@link #PER_SESSION_TOP} items of one session among the first {@link #TOP}, unless nothing else matches: an
     * item of another session that clears no floor does not count as a match, so it never displaces a third item of a
     * session that does.
     */
    static List<Group> diversify(List<Group> groups, Predicate<Group> strong) {
        List<Group> head = new ArrayList<>(), rest = new ArrayList<>();
        Map<String, Integer> perSession = new HashMap<>();
        // the items that clear a floor first, then the others: each pass capped per session, its held-back items
        // filling the
        // top before the next pass starts (a weak item of another session never displaces a third matching item of one)
        for (boolean pass : new boolean[] {true, false}) {
            List<Group> deferred = new ArrayList<>();
            for (Group g : groups) {
                if (strong.test(g) != pass) continue;
                String sid = g.first.m.sessionId();
                if (head.size() >= TOP) {
                    rest.add(g);
                } else if (sid != null && perSession.getOrDefault(sid, 0) >= PER_SESSION_TOP) {
                    deferred.add(g);
                } else {
                    if (sid != null) perSession.merge(sid, 1, Integer::sum);
                    head.add(g);
                }
            }
            while (head.size() < TOP && !deferred.isEmpty()) head.add(deferred.remove(0));
            rest.addAll(deferred);
        }
        rest.sort(Comparator.comparingDouble((Group g) -> -g.first.c.score()).thenComparing(g -> g.first.m.uri()));
        head.addAll(rest);
        return head;
    }

    static double coverage(
            List<String> terms,
            Map<String, Double> idf,
            double totalIdf,
            Map<String, boolean[][]> holds,
            int i,
            Set<String> alsoHeld) {
        if (totalIdf <= 0) return 0;
        double got = 0;
        for (String t : terms) {
            Double w = idf.get(t);
            if (w == null) continue;
            boolean[][] h = holds.get(t);
            if (h != null && h[0][i] || alsoHeld.contains(t)) got += w;
            else if (h != null && h[1][i]) got += CTX_COVERAGE * w;
        }
        return got / totalIdf;
    }

    static double recency(double ts, double nowSec) {
        if (ts <= 0) return RECENCY_FLOOR;
        double ageDays = Math.max(0, nowSec - ts) / 86400.0;
        return RECENCY_FLOOR + (1 - RECENCY_FLOOR) * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
    }

    /** Importance: curated memory 1.1, pinned ×1.2, records a decision ×1.1, then the feedback factor. */
    static double importance(RecallIndex.Meta m, ToDoubleFunction<String> feedback) {
        double f = RecallItem.memory(m.source()) ? 1.1 : 1.0;
        if (m.pinned()) f *= 1.2;
        if (m.decision()) f *= 1.1;
        return f * feedback.applyAsDouble(m.uri());
    }

    /** Re-rank factor from what a message is, not only what it says: said by a speaker the query names; only asks a question. */
    static double match(RecallIndex.Meta m, Set<String> mentioned) {
        double f = 1.0;
        if (!mentioned.isEmpty() && m.speaker() != null && mentioned.contains(m.speaker())) f *= SPEAKER_BOOST;
        if (m.asks()) f *= ASKS_FACTOR;
        return f;
    }

    /**
     * The lexical candidates, in two stages: every field scored on its own with BM25 (fast: whole blocks of postings are
     * skipped when they cannot reach the top), then the first {@link #FIRST_STAGE_PER_RESULT} per wanted result scored
     * exactly with BM25F (which scores every document that holds a query term when run alone: 4.5 ms of CPU per query at
     * 100k messages, mostly there).
     */
    TopDocs lexical(IndexSearcher searcher, Map<String, Float> weights, Query q, int n) throws IOException {
        if (options.ctxBoost() <= 0 || weights.isEmpty()) return searcher.search(buildQuery(weights, q), n);
        TopDocs first = searcher.search(firstStage(weights, q), Math.max(MIN_FIRST_STAGE, n * FIRST_STAGE_PER_RESULT));
        if (first.scoreDocs.length == 0) return first;
        int[] docs = new int[first.scoreDocs.length];
        for (int i = 0; i < docs.length; i++) docs[i] = first.scoreDocs[i].doc;
        Arrays.sort(docs);
        BooleanQuery.Builder exact = new BooleanQuery.Builder()
                .add(buildQuery(weights, q), BooleanClause.Occur.MUST)
                .add(new DocSetQuery(docs), BooleanClause.Occur.FILTER);
        TopDocs top = searcher.search(exact.build(), n);
        return new TopDocs(first.totalHits, top.scoreDocs);
    }

    /** First-stage candidates per wanted result (at least {@link #MIN_FIRST_STAGE}). */
    static final int FIRST_STAGE_PER_RESULT = 2, MIN_FIRST_STAGE = 100;

    /**
     * The item's text (×1/ctxBoost) and its neighbouring turns (×1), each on its own, with the query's filters. The session
     * title is left to the second stage: every message of a session carries it, so its postings are long and its words
     * would make most of a session a candidate.
     */
    org.apache.lucene.search.Query firstStage(Map<String, Float> weights, Query q) {
        BooleanQuery.Builder text = new BooleanQuery.Builder();
        float body = (float) Math.max(1, 1 / options.ctxBoost()), ctx = (float) Math.max(1, options.ctxBoost());
        for (Map.Entry<String, Float> e : weights.entrySet()) {
            float w = e.getValue();
            text.add(
                    boost(new TermQuery(new Term(RecallIndex.F_BODY, e.getKey())), w * body),
                    BooleanClause.Occur.SHOULD);
            text.add(
                    boost(new TermQuery(new Term(RecallIndex.F_CTX, e.getKey())), w * ctx), BooleanClause.Occur.SHOULD);
        }
        BooleanQuery.Builder all = new BooleanQuery.Builder().add(text.build(), BooleanClause.Occur.MUST);
        filters(all, q);
        return all.build();
    }

    org.apache.lucene.search.Query buildQuery(Map<String, Float> weights, Query q) {
        BooleanQuery.Builder text = new BooleanQuery.Builder();
        for (Map.Entry<String, Float> e : weights.entrySet()) {
            String t = e.getKey();
            float w = e.getValue();
            if (options.ctxBoost() > 0) {
                // BM25F: the item's text and its neighbouring turns are one weighted pseudo-field, so a term in both is
                // saturated once instead of scored twice (field weights must be ≥ 1: the ratio is what counts)
                text.add(
                        boost(
                                new CombinedFieldQuery.Builder()
                                        .addField(RecallIndex.F_BODY, (float) Math.max(1, 1 / options.ctxBoost()))
                                        .addField(RecallIndex.F_CTX, (float) Math.max(1, options.ctxBoost()))
                                        .addTerm(new BytesRef(t))
                                        .build(),
                                w),
                        BooleanClause.Occur.SHOULD);
            } else {
                text.add(boost(new TermQuery(new Term(RecallIndex.F_BODY, t)), w), BooleanClause.Occur.SHOULD);
            }
            text.add(
                    boost(new TermQuery(new Term(RecallIndex.F_TITLE, t)), w * (float) TITLE_BOOST),
                    BooleanClause.Occur.SHOULD);
        }
        BooleanQuery.Builder all = new BooleanQuery.Builder()
                .add(weights.isEmpty() ? new MatchNoDocsQuery() : text.build(), BooleanClause.Occur.MUST);
        filters(all, q);
        return all.build();
    }

    static void filters(BooleanQuery.Builder all, Query q) {
        if (q.scopes() != null && !q.scopes().isEmpty()) {
            BooleanQuery.Builder sc = new BooleanQuery.Builder();
            for (String s : q.scopes())
                sc.add(new TermQuery(new Term(RecallIndex.F_SOURCE, s)), BooleanClause.Occur.SHOULD);
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
    }

    private static org.apache.lucene.search.Query boost(org.apache.lucene.search.Query q, float w) {
        return w == 1f ? q : new BoostQuery(q, w);
    }

    static double round4(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
