package steward.recall;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.StewardError;
import steward.Work;
import steward.memory.lifecycle.EvidenceStore;
import steward.text.CodePoints;

/** The three recall tools as records in, records out (snake_case result fields), over one {@link RecallEngine}. */
public final class RecallService {
    /** recall_search's k: the default, and the largest the input schema accepts. */
    public static final int DEFAULT_K = 10, MAX_K = 100;
    /** The most items one recall_feedback records (a whole-day log URI stands for each entry of the day). */
    static final int MAX_FEEDBACK_ITEMS = 100;
    /**
     * Scope names are the item kinds, as in the URIs ({@code claude_session} for {@code steward://claude/session/…}); the
     * plural forms of the previous release still work, for one release.
     */
    public static final List<String> SCOPES = RecallItem.KINDS;

    static final Map<String, String> OLD_SCOPES =
            Map.of("skills", RecallItem.SKILL, "sessions", RecallItem.SESSION, "logs", RecallItem.LOG);

    private final RecallEngine engine;
    private final InjectEngine inject;
    private final RecallSettings settings;

    public RecallService(RecallEngine engine) {
        this(engine, RecallSettings.DEFAULTS);
    }

    public RecallService(RecallEngine engine, RecallSettings settings) {
        this.engine = engine;
        this.settings = settings;
        this.inject = new InjectEngine(engine, RecallEngine.recallDir(engine.paths()));
    }

    public RecallEngine engine() {
        return engine;
    }

    public InjectEngine injectEngine() {
        return inject;
    }

    // ---- recall_search
    public record SearchRequest(
            String query, Integer k, List<String> scopes, String since, String until, String exclude_session_id) {}

    public record SearchItem(
            int rank,
            String uri,
            String source,
            String title,
            String snippet,
            String timestamp,
            Double timestamp_epoch,
            String session_id,
            boolean weak,
            Integer duplicates,
            List<String> duplicate_uris,
            RecallEngine.Components score) {}

    /** Whether anything cleared a floor. */
    public record Match(
            String verdict,
            double best_coverage,
            double best_information,
            Double best_cosine,
            double lexical_floor,
            double information_floor,
            Double semantic_floor) {}

    /** {@code building}: "index building: n of m …" while the background indexer builds (results are from what is indexed). */
    public record IndexInfo(
            boolean built,
            boolean dense_enabled,
            String dense,
            int dense_pending,
            boolean changed_on_this_call,
            int items_written,
            long sync_ms,
            String building,
            boolean stale,
            List<String> warnings) {}

    public record SearchOutput(
            String query,
            int k,
            List<String> scopes,
            Match match,
            List<SearchItem> items,
            int returned,
            int candidates,
            int omitted,
            List<String> query_terms,
            IndexInfo index) {}

    /** The canonical scope names for a request's scopes (old plural forms mapped), or null for all. */
    public static Set<String> scopes(List<String> requested, String context) {
        if (requested == null || requested.isEmpty()) return null;
        Set<String> out = new LinkedHashSet<>();
        for (String s : requested) {
            String src = SCOPES.contains(s) ? s : OLD_SCOPES.get(s);
            if (src == null)
                throw new StewardError(context, "unknown scope '" + s + "' (" + String.join(", ", SCOPES) + ")");
            out.add(src);
        }
        return out;
    }

    public SearchOutput search(SearchRequest r) {
        return search(r, Work.NONE);
    }

    public SearchOutput search(SearchRequest r, Work work) {
        int k = r.k() == null ? DEFAULT_K : r.k();
        Set<String> sources = scopes(r.scopes(), "recall_search");
        Double since = time(r.since(), false), until = time(r.until(), true);
        if (since != null && until != null && since > until)
            throw new StewardError("recall_search", "since is after until");
        if (CodePoints.blank(r.query())) throw new StewardError("recall_search", "query is empty");
        SyncReport sync = engine.syncForCall(work, sources);
        RecallEngine.Result res =
                engine.rank(new RecallEngine.Query(r.query(), k, sources, since, until, r.exclude_session_id()));
        List<SearchItem> items = new ArrayList<>();
        // below every floor the result says so and shows only the first few, each marked weak
        List<RecallEngine.Hit> shown = res.confidence().good()
                ? res.hits()
                : res.hits().subList(0, Math.min(res.hits().size(), Ranker.WEAK_MAX));
        // an index that has not caught up yet (a session_apply or Hermes just deleted sessions) still holds their
        // messages: they are left out, read against state.db at the call, as recall_inject's gate does
        Set<String> gone = sync.stale() || sync.building() != null
                ? engine.goneSessions(shown.stream().map(RecallEngine.Hit::item).toList())
                : Set.of();
        int leftOut = 0;
        for (RecallEngine.Hit h : shown) {
            RecallItem it = h.item();
            if (RecallItem.SESSION.equals(it.source()) && gone.contains(it.sessionId())) {
                leftOut++;
                continue;
            }
            items.add(new SearchItem(
                    h.rank(),
                    it.uri(),
                    it.source(),
                    it.title() == null || it.title().isEmpty() ? null : it.title(),
                    RecallEngine.snippet(it.text(), 300),
                    iso(it.timestamp()),
                    it.timestamp() > 0 ? it.timestamp() : null,
                    it.sessionId(),
                    h.weak(),
                    h.duplicates() == 0 ? null : h.duplicates(),
                    h.duplicates() == 0 ? null : h.duplicateUris(),
                    h.components()));
        }
        RecallEngine.Confidence c = res.confidence();
        boolean denseUsed = c.bestCosine() != null;
        referenced(res.hits().stream()
                .map(RecallEngine.Hit::item)
                .filter(it -> RecallItem.MEMORY.equals(it.source()))
                .map(RecallItem::text)
                .toList());
        return new SearchOutput(
                r.query(),
                k,
                sources == null ? SCOPES : List.copyOf(sources),
                new Match(
                        c.verdict(),
                        c.bestCoverage(),
                        c.bestInformation(),
                        c.bestCosine(),
                        c.lexicalFloor(),
                        c.informationFloor(),
                        c.semanticFloor()),
                items,
                items.size(),
                res.candidates(),
                Math.max(0, res.candidates() - items.size()),
                res.query_terms_bounded(),
                new IndexInfo(
                        engine.built(),
                        denseUsed,
                        denseStatus(denseUsed),
                        engine.densePending(),
                        sync.changed(),
                        sync.written(),
                        sync.millis(),
                        sync.building(),
                        sync.stale(),
                        warnings(sync, leftOut)));
    }

    /**
     * The sync's warnings, then Steward's own recall files that cannot be read (search answers without them; they are
     * left as they are).
     */
    private List<String> warnings(SyncReport sync, int goneLeftOut) {
        List<String> out = new ArrayList<>(sync.warnings());
        if (goneLeftOut > 0)
            out.add(goneLeftOut
                    + " item(s) of sessions deleted since they were indexed left out (the index is catching up)");
        FeedbackStore.Read fb = engine.feedback().read();
        if (fb.problem() != null)
            out.add(FeedbackStore.unreadable(
                    RecallEngine.recallDir(engine.paths()).resolve("feedback.json"),
                    fb.problem(),
                    "this search used no feedback on items"));
        Path log = RecallEngine.recallDir(engine.paths()).resolve("injections.json");
        InjectEngine.LogRead read = InjectEngine.read(log);
        if (read.problem() != null)
            out.add(FeedbackStore.unreadable(
                    log,
                    read.problem(),
                    "recall_inject keeps no cooldown or hysteresis and logs no decision while it is"));
        return out;
    }

    /** What holds for dense retrieval now, in words (never from a constant: from the setting, the model and the vectors). */
    public String denseStatus(boolean usedForThisQuery) {
        return denseStatus(engine, settings, usedForThisQuery);
    }

    static String denseStatus(RecallEngine engine, RecallSettings settings, boolean used) {
        DenseModel m = engine.model();
        if (!engine.options().dense() || m == null || !m.enabled()) {
            RecallSettings.Setting<Boolean> s = settings.dense();
            return "off (" + (s.from() != null ? s.from() + "=off" : "turned off by the caller")
                    + "): lexical BM25F only";
        }
        if (m.state() == DenseModel.State.FAILED || !m.runtimeLoads())
            return "off: the embedding runtime could not be loaded here (" + m.failure() + "); lexical BM25F only";
        int vectors = engine.denseVectors(), pending = engine.densePending();
        if (vectors == 0 && pending > 0) {
            return "on, but nothing embedded yet: " + pending
                    + " texts wait (a running steward serve embeds them in the background, or "
                    + "run steward index); ranking lexical";
        }
        if (pending > 0) {
            return "on: " + DenseModel.MODEL + " fused with BM25F; " + pending
                    + " texts still wait for a vector (ranked lexically until " + "embedded in the background)";
        }
        return used
                ? "on: " + DenseModel.MODEL + " fused with BM25F (0.7 BM25F, 0.3 cosine); every text embedded"
                : "on: not used for this query (mostly CJK script, under two letters or digits, only stop words, or nothing embedded)";
    }

    static String iso(double epoch) {
        return epoch > 0 ? Instant.ofEpochMilli((long) (epoch * 1000)).toString() : null;
    }

    static Double time(String s, boolean endOfDay) {
        if (s == null || s.isBlank()) return null;
        try {
            if (s.length() == 10) {
                LocalDate d = LocalDate.parse(s);
                return (double)
                        (endOfDay
                                ? d.plusDays(1).atStartOfDay(ZoneOffset.UTC).toEpochSecond() - 1
                                : d.atStartOfDay(ZoneOffset.UTC).toEpochSecond());
            }
            Instant t = Instant.parse(s);
            if (t.isBefore(EARLIEST) || t.isAfter(LATEST)) // ISO-8601 writes years epoch milliseconds cannot hold
            throw new StewardError("recall_search", "since and until must be in the years 0000–9999, not '" + s + "'");
            return t.toEpochMilli() / 1000.0;
        } catch (DateTimeParseException e) {
            throw new StewardError("recall_search", "not an ISO-8601 date or UTC time: '" + s + "'");
        }
    }

    /** The earliest and latest since / until: the years a four-digit ISO-8601 year writes. */
    private static final Instant EARLIEST = Instant.parse("0000-01-01T00:00:00Z"),
            LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    // ---- recall_inject
    public InjectEngine.Result inject(InjectEngine.Request r) {
        return inject(r, Work.NONE);
    }

    /** Memory entries recall returned count as referenced for the lifecycle's decay rule (a side log, never the entries). */
    private void referenced(List<String> entryTexts) {
        new EvidenceStore(engine.paths().stateDir())
                .referenced(entryTexts, LocalDate.ofInstant(engine.clock().instant(), ZoneOffset.UTC));
    }

    public InjectEngine.Result inject(InjectEngine.Request r, Work work) {
        String mode = r.mode() != null ? r.mode() : settings.mode().value();
        InjectEngine.Result res = inject.inject(
                new InjectEngine.Request(r.context(), r.recentTurns(), r.sessionId(), r.budgetChars(), mode), work);
        List<String> texts = new ArrayList<>();
        for (InjectEngine.Candidate c : res.items()) {
            if (!RecallItem.MEMORY.equals(c.source())) continue;
            RecallItem it = engine.resolve(c.uri());
            if (it != null) texts.add(it.text());
        }
        referenced(texts);
        return res;
    }

    // ---- recall_feedback
    /**
     * One URI's outcome. {@code already_recorded}: this decision's item had this outcome already (nothing counted
     * again); {@code replaced}: the other outcome of this decision's item it replaced, or null.
     */
    public record FeedbackItem(
            String uri,
            FeedbackStore.Counts counts,
            double importance_factor,
            boolean gated,
            boolean already_recorded,
            String replaced) {}

    public record FeedbackOutput(
            String decision_id,
            String outcome,
            List<FeedbackItem> recorded,
            Double injection_precision,
            int judged,
            List<FeedbackStore.Calibration> calibration,
            Map<String, FeedbackStore.Counts> reset) {}

    /**
     * Records an outcome. With a decision id the URIs must be items that decision chose, and the outcome also calibrates
     * the gate for that decision's lane and each item's source; without one (feedback on something found by
     * recall_search, e.g. an outdated entry) each URI must still resolve to an item (an earlier URI form is recorded
     * under the item's current URI).
     */
    public FeedbackOutput feedback(String decisionId, List<String> uris, String outcome) {
        List<String> clean = new ArrayList<>(new LinkedHashSet<>(uris));
        String lane = null;
        if (decisionId != null) {
            InjectEngine.LoggedDecision d = inject.decision(decisionId);
            if (d == null)
                throw new StewardError(
                        "recall_feedback",
                        "unknown decision_id '" + decisionId + "' (never made or rotated out of the log)");
            for (String u : clean) {
                if (!d.uris().contains(u)) {
                    throw new StewardError(
                            "recall_feedback",
                            u + " was not among the items of decision " + decisionId + " " + d.uris());
                }
            }
            lane = d.lane();
        } else {
            List<String> canonical = new ArrayList<>();
            for (String u : clean) {
                // the previous release's whole-day log URI stands for each entry of that day
                List<RecallItem> its = engine.resolveAll(u);
                if (its.isEmpty()) throw new StewardError("recall_feedback", "no such item: " + u);
                for (RecallItem it : its) canonical.add(it.uri());
            }
            clean = new ArrayList<>(new LinkedHashSet<>(canonical));
            if (clean.size() > MAX_FEEDBACK_ITEMS)
                throw new StewardError(
                        "recall_feedback",
                        uris + " stand for " + clean.size() + " items, more than " + MAX_FEEDBACK_ITEMS
                                + " at once: give the entries' own URIs (recall_search lists them)");
        }
        // a harmful item's text is kept with the mark: the gate drops the same text wherever it lives
        Map<String, Long> texts = new LinkedHashMap<>();
        if (outcome.equals("harmful"))
            for (String u : clean) {
                RecallItem it = engine.resolve(u);
                if (it != null) texts.put(u, Identity.normalHash(it.text()));
            }
        Map<String, FeedbackStore.Recorded> got =
                engine.feedback().record(decisionId, lane, clean, outcome, texts, engine.clock());
        List<FeedbackItem> out = new ArrayList<>();
        for (Map.Entry<String, FeedbackStore.Recorded> e : got.entrySet()) {
            FeedbackStore.Counts c = e.getValue().counts();
            out.add(new FeedbackItem(
                    e.getKey(),
                    c,
                    InjectEngine.round(c.factor()),
                    c.harmful() > 0,
                    e.getValue().already_recorded(),
                    e.getValue().replaced()));
        }
        Double p = engine.feedback().precision();
        return new FeedbackOutput(
                decisionId,
                outcome,
                out,
                p == null ? null : InjectEngine.round(p),
                engine.feedback().judged(),
                engine.feedback().calibration(),
                null);
    }

    /**
     * Forgets what feedback on injections taught the gate: the calibration and the weights those outcomes gave items;
     * harmful marks and outcomes given on URIs alone stay.
     */
    public FeedbackOutput resetCalibration() {
        Map<String, FeedbackStore.Counts> dropped = engine.feedback().resetCalibration(engine.clock());
        Double p = engine.feedback().precision();
        return new FeedbackOutput(
                null,
                "reset",
                List.of(),
                p == null ? null : InjectEngine.round(p),
                engine.feedback().judged(),
                engine.feedback().calibration(),
                dropped);
    }
}
