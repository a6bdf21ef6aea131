package steward.recall;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import steward.StewardError;
import steward.Work;

/** The three recall tools as records in, records out (snake_case result fields), over one {@link RecallEngine}. */
public final class RecallService {
    /** recall_search's k: the default, and the largest the input schema accepts. */
    public static final int DEFAULT_K = 10, MAX_K = 100;
    public static final Map<String, String> SCOPES = Map.of("memory", RecallItem.MEMORY, "skills", RecallItem.SKILL,
            "sessions", RecallItem.SESSION, "logs", RecallItem.LOG);

    private final RecallEngine engine;
    private final InjectEngine inject;

    public RecallService(RecallEngine engine) {
        this.engine = engine;
        this.inject = new InjectEngine(engine, RecallEngine.recallDir(engine.paths()));
    }

    public RecallEngine engine() {
        return engine;
    }

    public InjectEngine injectEngine() {
        return inject;
    }

    // ---- recall_search
    public record SearchRequest(String query, Integer k, List<String> scopes, String since, String until, String exclude_session_id) {}

    public record SearchItem(int rank, String uri, String source, String title, String snippet, String timestamp,
                             Double timestamp_epoch, String session_id, RecallEngine.Components score) {}

    public record IndexInfo(boolean built, boolean dense_enabled, String dense, boolean changed_on_this_call, int changed_groups,
                            long sync_ms) {}

    public record SearchOutput(String query, int k, List<String> scopes, List<SearchItem> items, int returned,
                               int candidates, int omitted, List<String> query_terms, IndexInfo index) {}

    public SearchOutput search(SearchRequest r) {
        return search(r, Work.NONE);
    }

    /** Brings the index up to date first, reporting to {@code work} (see {@link RecallEngine#sync(Work)}). */
    public SearchOutput search(SearchRequest r, Work work) {
        int k = r.k() == null ? DEFAULT_K : r.k();
        Set<String> sources = null;
        List<String> scopes = r.scopes() == null || r.scopes().isEmpty() ? List.of("memory", "skills", "sessions", "logs") : r.scopes();
        if (r.scopes() != null && !r.scopes().isEmpty()) {
            sources = new LinkedHashSet<>();
            for (String s : r.scopes()) {
                String src = SCOPES.get(s);
                if (src == null) throw new StewardError("recall_search", "unknown scope '" + s + "' (memory, skills, sessions, logs)");
                sources.add(src);
            }
        }
        Double since = time(r.since(), false), until = time(r.until(), true);
        if (since != null && until != null && since > until) throw new StewardError("recall_search", "since is after until");
        RecallEngine.SyncReport sync = engine.sync(work);
        RecallEngine.Result res = engine.search(new RecallEngine.Query(r.query(), k, sources, since, until, r.exclude_session_id()));
        List<SearchItem> items = new ArrayList<>();
        for (RecallEngine.Hit h : res.hits()) {
            RecallItem it = h.item();
            items.add(new SearchItem(h.rank(), it.uri(), it.source(), it.title() == null || it.title().isEmpty() ? null : it.title(),
                    RecallEngine.snippet(it.text(), 300), iso(it.timestamp()), it.timestamp() > 0 ? it.timestamp() : null,
                    it.sessionId(), h.components()));
        }
        referenced(res.hits().stream().map(RecallEngine.Hit::item).filter(it -> RecallItem.MEMORY.equals(it.source())).map(RecallItem::text).toList());
        return new SearchOutput(r.query(), k, scopes, items, items.size(), res.candidates(),
                Math.max(0, res.candidates() - items.size()), res.query_terms_bounded(), new IndexInfo(true, engine.denseActive(),
                        denseStatus(), sync.changedGroups() > 0 || sync.removedGroups() > 0, sync.changedGroups() + sync.removedGroups(), sync.millis()));
    }

    public String denseStatus() {
        if (engine.denseActive() && engine.densePending() > 0) {
            return RecallEngine.DENSE_ON + "; embedding the history: " + engine.densePending() + " items left, ranking lexical until done";
        }
        if (engine.denseActive()) return RecallEngine.DENSE_ON;
        if (!engine.options().dense()) return RecallEngine.DENSE_STATUS;
        return "off: the embedding model could not be loaded here (" + DenseEncoder.failure() + "); lexical BM25 only";
    }

    static String iso(double epoch) {
        return epoch > 0 ? Instant.ofEpochMilli((long) (epoch * 1000)).toString() : null;
    }

    static Double time(String s, boolean endOfDay) {
        if (s == null || s.isBlank()) return null;
        try {
            if (s.length() == 10) {
                LocalDate d = LocalDate.parse(s);
                return (double) (endOfDay ? d.plusDays(1).atStartOfDay(ZoneOffset.UTC).toEpochSecond() - 1
                        : d.atStartOfDay(ZoneOffset.UTC).toEpochSecond());
            }
            return Instant.parse(s).toEpochMilli() / 1000.0;
        } catch (DateTimeParseException e) {
            throw new StewardError("recall_search", "not an ISO-8601 date or UTC time: '" + s + "'");
        }
    }

    // ---- recall_inject
    public InjectEngine.Result inject(InjectEngine.Request r) {
        return inject(r, Work.NONE);
    }

    public InjectEngine.Result inject(InjectEngine.Request r, Work work) {
        engine.sync(work);
        String mode = r.mode() != null ? r.mode() : configuredMode();
        InjectEngine.Result res = inject.inject(new InjectEngine.Request(r.context(), r.recentTurns(), r.sessionId(), r.budgetChars(), mode));
        List<String> texts = new ArrayList<>();
        for (InjectEngine.Candidate c : res.items()) {
            if (!RecallItem.MEMORY.equals(c.source())) continue;
            RecallItem it = engine.resolve(c.uri());
            if (it != null) texts.add(it.text());
        }
        referenced(texts);
        return res;
    }

    /** Memory entries recall returned count as referenced for the lifecycle's decay rule (a side log, never the entries). */
    private void referenced(List<String> entryTexts) {
        new steward.memory.lifecycle.EvidenceStore(engine.paths().stateDir()).referenced(entryTexts,
                LocalDate.ofInstant(engine.clock().instant(), ZoneOffset.UTC));
    }

    /** The configured mode: {@code STEWARD_RECALL_MODE} (shadow, canary, active), else shadow. */
    public static String configuredMode() {
        String m = System.getenv("STEWARD_RECALL_MODE");
        return m == null || m.isBlank() ? "shadow" : m.strip().toLowerCase(java.util.Locale.ROOT);
    }

    // ---- recall_feedback
    public record FeedbackItem(String uri, FeedbackStore.Counts counts, double importance_factor, boolean gated) {}

    public record FeedbackOutput(String decision_id, String outcome, List<FeedbackItem> recorded, Double injection_precision,
                                 int judged) {}

    /**
     * Records an outcome. With a decision id the URIs must be items that decision chose; without one (feedback on
     * something found by recall_search, e.g. an outdated entry) each URI must still resolve to an item.
     */
    public FeedbackOutput feedback(String decisionId, List<String> uris, String outcome) {
        List<String> clean = new ArrayList<>(new LinkedHashSet<>(uris));
        if (decisionId != null) {
            InjectEngine.LoggedDecision d = inject.decision(decisionId);
            if (d == null) throw new StewardError("recall_feedback", "unknown decision_id '" + decisionId + "' (never made or rotated out of the log)");
            for (String u : clean) {
                if (!d.uris().contains(u)) {
                    throw new StewardError("recall_feedback", u + " was not among the items of decision " + decisionId + " " + d.uris());
                }
            }
        } else {
            for (String u : clean) {
                if (engine.resolve(u) == null) throw new StewardError("recall_feedback", "no such item: " + u);
            }
        }
        Map<String, FeedbackStore.Counts> got = engine.feedback().record(decisionId, clean, outcome, engine.clock());
        List<FeedbackItem> out = new ArrayList<>();
        for (Map.Entry<String, FeedbackStore.Counts> e : got.entrySet()) {
            out.add(new FeedbackItem(e.getKey(), e.getValue(), InjectEngine.round(e.getValue().factor()), e.getValue().harmful() > 0));
        }
        Double p = engine.feedback().precision();
        return new FeedbackOutput(decisionId, outcome, out, p == null ? null : InjectEngine.round(p), engine.feedback().judged());
    }
}
