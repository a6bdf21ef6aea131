package steward.sessions.audit;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import steward.StewardError;
import steward.config.StewardPaths;
import steward.learning.LearningEngine;
import steward.learning.PreferenceStore;
import steward.learning.Preferences;
import steward.sessions.rules.Action;
import steward.sessions.rules.Confidence;
import steward.sessions.rules.Rule;
import steward.sessions.rules.RuleContext;
import steward.sessions.rules.RuleEngine;
import steward.sessions.rules.Rules;
import steward.sessions.rules.Verdict;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionStore;

/**
 * {@code session_audit}: reads the sessions once (set-based), classifies each with the ordered
 * rules, stores the plan in the state dir and renders the report. It never writes to Hermes' files.
 */
public final class AuditEngine {
    /** At most this many lines of a report ask something (questions by name plus grouped lines). */
    public static final int QUESTION_CAP = QuestionPlan.CAP;

    private final StewardPaths paths;
    private final Clock clock;
    private final Preferences preferences;

    private final AuditResult.LearningState learning;

    /** An audit with explicit preferences (tests); the learning state is reported as given. */
    public AuditEngine(StewardPaths paths, Clock clock, Preferences preferences) {
        this.paths = paths;
        this.clock = clock;
        this.preferences = preferences == null ? Preferences.empty() : preferences;
        this.learning = new AuditResult.LearningState(preferences == null ? "absent" : "ok", null, null);
    }

    /** An audit that reads the learning store in the state dir (a corrupt store is reported and ignored). */
    public AuditEngine(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
        PreferenceStore.Snapshot s = new PreferenceStore(paths.stateDir(), clock).read();
        this.preferences = s.view();
        String status = !s.usable() ? "corrupt" : s.exists() ? "ok" : "absent";
        this.learning = new AuditResult.LearningState(status, s.problem(), s.usable() && s.exists() ? LearningEngine.ruleState(s.data()) : null);
    }

    public record Outcome(AuditResult result, String text, Plan plan) {}

    /** The current session: the argument if given (it must exist), else the active tui/cli session with the newest activity. */
    public static AuditResult.Current findCurrent(List<SessionRow> rows, String argument, String context) {
        if (argument != null) {
            boolean exists = rows.stream().anyMatch(r -> r.id().equals(argument));
            if (!exists) throw new StewardError(context, "current_session_id " + argument + " is not a session in this database");
            return new AuditResult.Current(argument, "argument");
        }
        return rows.stream().filter(r -> r.active() && ("tui".equals(r.source()) || "cli".equals(r.source())))
                .max(Comparator.comparingDouble(SessionRow::lastActivity).thenComparing(SessionRow::id))
                .map(r -> new AuditResult.Current(r.id(), "newest_active_tui_cli"))
                .orElse(new AuditResult.Current(null, "none"));
    }

    public Outcome audit(AuditRequest req) {
        Instant now = req.now() != null ? req.now() : clock.instant();
        double nowEpoch = Times.epoch(now);
        List<SessionRow> rows;
        String dbKey = PlanStore.databaseKey(paths.stateDb());
        try (SessionStore store = SessionStore.openReadOnly(paths.stateDb())) {
            rows = store.listSessionsForAudit();
        }
        AuditResult.Current current = findCurrent(rows, req.currentSessionId(), "session_audit");
        RuleContext ctx = RuleContext.of(nowEpoch, current.session_id(), rows, preferences);

        Verdict[] verdicts = evaluate(rows, ctx);

        // items: every non-retain verdict; a deletion whose subagent children would not all go automatically on their own
        // becomes a question naming them (Cascade); then how each question is asked (QuestionPlan)
        Map<String, Plan.PlanItem> items = planItems(rows, verdicts, ctx, req, java.time.LocalDate.ofInstant(now, java.time.ZoneOffset.UTC));

        // the plan's items are final: serialise them on another core while the report is built
        List<Plan.PlanItem> planItems = List.copyOf(items.values());
        PlanStore.Items ahead = PlanStore.serialiseAhead(planItems);
        String planId = PlanStore.newId();
        int cap = req.maxItemsPerGroup();
        Capped auto = new Capped(cap), info = new Capped(cap), waiting = new Capped(cap), notAsked = new Capped(cap);
        Map<String, Capped> confirm = new LinkedHashMap<>(), collapsed = new LinkedHashMap<>(), status = new LinkedHashMap<>();
        int[] q = new int[7]; // new, waiting, later, collapsed, not asked, grouped, status
        Map<String, Integer> notAskedByKey = new LinkedHashMap<>();
        // questions asked by name first (each is listed: QuestionPlan kept them within the group cap), then the rest
        for (int pass = 0; pass < 2; pass++) {
            for (Plan.PlanItem pi : items.values()) {
                boolean asked = "new".equals(pi.question()) || "grouped".equals(pi.question());
                if (asked != (pass == 0)) continue;
                Capped g;
                if (pi.question() == null || asked) {
                    Confidence c = Confidence.valueOf(pi.confidence());
                    g = c == Confidence.HIGH && pi.executable() ? auto
                            : c == Confidence.LOW ? info : confirm.computeIfAbsent(pi.rule(), k -> new Capped(cap));
                    if ("new".equals(pi.question())) q[0]++;
                    if ("grouped".equals(pi.question())) q[5]++;
                } else {
                    switch (pi.question()) {
                        case "waiting" -> { g = waiting; q[1]++; }
                        case "later" -> { g = waiting; q[2]++; }
                        case "collapsed" -> { g = collapsed.computeIfAbsent(pi.rule(), k -> new Capped(cap)); q[3]++; }
                        case "status" -> { g = status.computeIfAbsent(pi.rule(), k -> new Capped(cap)); q[6]++; }
                        default -> { g = notAsked; q[4]++; notAskedByKey.merge(pi.key(), 1, Integer::sum); }
                    }
                }
                if (g.wants()) g.add(toItem(pi, ctx.session(pi.session_id()), ctx));
                else g.skip();
            }
        }
        Capped retained = retained(rows, verdicts, items, cap, req, ctx);
        List<AuditResult.RuleGroup> confirmGroups = ruleGroups(confirm, null, false, ctx);
        List<AuditResult.RuleGroup> collapsedGroups = new ArrayList<>(ruleGroups(collapsed, req.locale(), false, ctx));
        collapsedGroups.addAll(ruleGroups(status, req.locale(), true, ctx));
        StringBuilder digest = new StringBuilder();
        notAskedByKey.forEach((k, n) -> digest.append(digest.length() == 0 ? "" : ", ").append(k).append(' ').append(n));
        AuditResult.Questions questions = new AuditResult.Questions(QuestionPlan.lines(items.values()), q[0], q[5], q[1], q[2], q[3],
                q[4], q[6], QuestionPlan.CAP, digest.length() == 0 ? null : digest.toString());

        int active = 0, archived = 0;
        for (SessionRow s : rows) {
            if (s.active()) active++;
            if (s.archived()) archived++;
        }
        AuditResult.Totals totals = new AuditResult.Totals(rows.size(), active, rows.size() - active, archived);
        AuditResult.Expected expected = expected(items.values(), ctx, active, rows.size());
        List<AuditResult.TopicOut> topics = ctx.topics().stream().limit(cap)
                .map(t -> new AuditResult.TopicOut(t.label(), t.count(), t.sessionIds())).toList();
        String created = Times.iso(Times.epoch(clock.instant()));
        double createdEpoch = Times.epoch(clock.instant());
        double expires = createdEpoch + PlanStore.VALIDITY_SECONDS;
        AuditResult result = new AuditResult(planId, created, Times.iso(expires), Times.iso(nowEpoch), nowEpoch, req.mode(),
                req.locale(), paths.stateDb().toString(), totals, current, ctx.threshold(),
                new AuditResult.Groups(group(auto, cap), confirmGroups, group(info, cap), group(waiting, cap), collapsedGroups,
                        group(notAsked, cap), group(retained, cap)), topics, expected, learning, questions);
        String text = ReportRenderer.render(result);
        Plan plan = new Plan(planId, created, createdEpoch, expires, paths.stateDb().toString(), dbKey, req.mode(), req.locale(),
                current.session_id(), current.found_by(), ctx.threshold(), planItems, text);
        new PlanStore(paths.stateDir()).save(plan, ahead);
        return new Outcome(result, text, plan);
    }

    /** The plan's items in report order: every session with an action, cascades resolved, questions assigned. */
    static Map<String, Plan.PlanItem> planItems(List<SessionRow> rows, Verdict[] verdicts, RuleContext ctx, AuditRequest req,
                                               java.time.LocalDate today) {
        Map<String, Plan.PlanItem> items = new LinkedHashMap<>();
        for (Key k : order(rows, verdicts)) items.put(k.row.id(), item(k.row, verdicts[k.index], null, req));
        Cascade.apply(items, ctx, req.locale());
        QuestionPlan.assign(items, ctx.preferences(), req.headless(), today, req.maxItemsPerGroup());
        return items;
    }

    /** The plan's items for these sessions (tests). */
    static Map<String, Plan.PlanItem> planItems(List<SessionRow> rows, RuleContext ctx, AuditRequest req) {
        return planItems(rows, evaluate(rows, ctx), ctx, req, java.time.LocalDate.of(2026, 8, 10));
    }

    /** Stores at least this large are classified on all cores (the context is read-only, rules are stateless). */
    static final int PARALLEL_MIN_SESSIONS = 4000;

    /** The verdict of each row, by position in {@code rows}. */
    private static Verdict[] evaluate(List<SessionRow> rows, RuleContext ctx) {
        Verdict[] out = new Verdict[rows.size()];
        java.util.stream.IntStream range = java.util.stream.IntStream.range(0, out.length);
        (out.length >= PARALLEL_MIN_SESSIONS ? range.parallel() : range).forEach(i -> out[i] = RuleEngine.evaluate(rows.get(i), ctx));
        return out;
    }

    /** Sort key: rule order, then newest activity first, then id (precomputed: 20,000 sessions order in a few ms). */
    private record Key(SessionRow row, int index, int rule, double last) {
        static final Comparator<Key> ORDER = (a, b) -> a.rule != b.rule ? Integer.compare(a.rule, b.rule)
                : a.last != b.last ? Double.compare(b.last, a.last) : a.row.id().compareTo(b.row.id());

        static Key of(SessionRow s, int index, Verdict v) {
            return new Key(s, index, ruleIndex(v.rule()), s.lastActivity());
        }
    }

    /** The sessions with an action, in report order. */
    private static List<Key> order(List<SessionRow> rows, Verdict[] verdicts) {
        List<Key> acting = new ArrayList<>();
        for (int i = 0; i < verdicts.length; i++) {
            if (verdicts[i].action() != Action.retain) acting.add(Key.of(rows.get(i), i, verdicts[i]));
        }
        acting.sort(Key.ORDER);
        return acting;
    }

    /** The first {@code cap} kept sessions in report order (only those are sorted), and how many are kept in all. */
    private static Capped retained(List<SessionRow> rows, Verdict[] verdicts, Map<String, Plan.PlanItem> items,
                                   int cap, AuditRequest req, RuleContext ctx) {
        java.util.PriorityQueue<Key> top = new java.util.PriorityQueue<>(Math.max(1, cap + 1), Key.ORDER.reversed());
        int count = 0;
        for (int i = 0; i < verdicts.length; i++) {
            SessionRow s = rows.get(i);
            if (verdicts[i].action() != Action.retain || items.containsKey(s.id())) continue;
            count++;
            if (cap <= 0) continue;
            top.add(Key.of(s, i, verdicts[i]));
            if (top.size() > cap) top.poll();
        }
        List<Key> first = new ArrayList<>(top);
        first.sort(Key.ORDER);
        Capped out = new Capped(cap);
        for (Key k : first) out.add(toItem(item(k.row, verdicts[k.index], null, req), k.row, ctx));
        for (int i = first.size(); i < count; i++) out.skip();
        return out;
    }

    private static Plan.PlanItem item(SessionRow s, Verdict v, String cascadeOf, AuditRequest req) {
        boolean executable = v.action().executable() && (!req.headless() || v.rule().equals("A"));
        return new Plan.PlanItem(s.id(), s.id(), v.rule(), v.condition(), v.action().name(), v.confidence().name(), executable,
                v.reason().in(req.locale()), cascadeOf, v.topic(), fingerprint(s), v.base().name(), null, null, v.guarded());
    }

    /**
     * Report groups per rule, in rule order; for a collapsed group ({@code collapsedLocale} set) the summary is its one line,
     * the status line when {@code status} (it asks nothing).
     */
    private static List<AuditResult.RuleGroup> ruleGroups(Map<String, Capped> byRule, String collapsedLocale, boolean status, RuleContext ctx) {
        List<AuditResult.RuleGroup> out = new ArrayList<>();
        byRule.entrySet().stream().sorted(Comparator.comparingInt(e -> ruleIndex(e.getKey()))).forEach(e -> {
            Rule r = Rules.byId(e.getKey());
            Capped l = e.getValue();
            String summary = status ? ReportRenderer.statusLine(e.getKey(), l.count, ctx.activeCount(), ctx.threshold(), collapsedLocale)
                    : collapsedLocale != null ? ReportRenderer.collapsedLine(e.getKey(), l.count, ctx.activeCount(), ctx.threshold(), collapsedLocale)
                    : r == null ? e.getKey() : r.meta().summary();
            out.add(new AuditResult.RuleGroup(e.getKey(), summary, l.count, List.copyOf(l.items), l.count - l.items.size()));
        });
        return out;
    }

    public static Plan.Fingerprint fingerprint(SessionRow s) {
        return new Plan.Fingerprint(s.title(), s.messageCount(), s.lastActivity(), s.endedAt(), s.archived());
    }

    private static AuditResult.Item toItem(Plan.PlanItem pi, SessionRow s, RuleContext ctx) {
        AuditResult.Evidence ev = new AuditResult.Evidence(s.source(), s.title(), s.messageCount(), Times.iso(s.startedAt()),
                s.startedAt(), Times.iso(s.lastActivity()), s.lastActivity(), Times.iso(s.endedAt()), s.endedAt(), s.endReason(),
                s.archived(), s.parentSessionId(), ctx.children(s.id()).size());
        return new AuditResult.Item(pi.item_id(), pi.session_id(), pi.rule(), pi.condition(), pi.action(), pi.confidence(), pi.executable(),
                pi.reason(), pi.cascade_of(), pi.question(), pi.held_by(), ev);
    }

    /** A group that keeps its first {@code cap} items and counts the rest. */
    private static final class Capped {
        final int cap;
        final List<AuditResult.Item> items = new ArrayList<>();
        int count;

        Capped(int cap) {
            this.cap = cap;
        }

        boolean wants() {
            return items.size() < cap;
        }

        void add(AuditResult.Item i) {
            items.add(i);
            count++;
        }

        void skip() {
            count++;
        }
    }

    private static AuditResult.Group group(Capped l, int cap) {
        return new AuditResult.Group(l.count, List.copyOf(l.items), l.count - l.items.size());
    }

    private static AuditResult.Expected expected(java.util.Collection<Plan.PlanItem> items, RuleContext ctx, int active, int total) {
        int aAuto = active, tAuto = total, aAll = active, tAll = total;
        for (Plan.PlanItem pi : items) {
            if (!pi.executable()) continue;
            SessionRow s = ctx.session(pi.session_id());
            boolean del = !pi.action().equals("mark_ended");
            int da = s.active() ? 1 : 0;
            int dt = del ? 1 : 0;
            aAll -= da;
            tAll -= dt;
            if (pi.confidence().equals("HIGH")) {
                aAuto -= da;
                tAuto -= dt;
            }
        }
        return new AuditResult.Expected(active, aAuto, aAll, total, tAuto, tAll);
    }

    private static final Map<String, Integer> RULE_INDEX = new HashMap<>();

    static {
        for (int i = 0; i < Rules.ORDERED.size(); i++) RULE_INDEX.put(Rules.ORDERED.get(i).id(), i);
    }

    static int ruleIndex(String id) {
        return RULE_INDEX.getOrDefault(id, Rules.ORDERED.size());
    }
}
