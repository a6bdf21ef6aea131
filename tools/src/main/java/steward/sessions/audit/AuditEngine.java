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
import steward.sessions.rules.Text;
import steward.sessions.rules.Verdict;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionStore;

/**
 * {@code session_audit}: reads the sessions once (set-based), classifies each with the ordered
 * rules, stores the plan in the state dir and renders the report. It never writes to Hermes' files.
 */
public final class AuditEngine {
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
        // topic grouping reads on its own connection and clusters on another core while the rules classify
        List<SessionRow> listed = rows;
        java.util.concurrent.CompletableFuture<TopicGroups> grouping = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (SessionStore store = SessionStore.openReadOnly(paths.stateDb())) {
                return TopicGroups.build(TopicGroups.read(store, listed), listed,
                        steward.sessions.grouping.HermesProjects.read(paths.hermesHome()));
            }
        });
        AuditResult.Current current = findCurrent(rows, req.currentSessionId(), "session_audit");
        steward.config.StewardSettings settings = steward.config.StewardSettings.load(paths.configYaml());
        RuleContext ctx = RuleContext.of(nowEpoch, current.session_id(), rows, preferences, settings.subagentKeepDays());

        Verdict[] verdicts = evaluate(rows, ctx);

        // items: every non-retain verdict, plus the subagent children that Hermes deletes with a deleted parent
        Map<String, Plan.PlanItem> items = new LinkedHashMap<>();
        List<Key> ordered = order(rows, verdicts);
        for (Key k : ordered) items.put(k.row.id(), item(k.row, verdicts[k.index], null, req));
        for (Key k : ordered) {
            Plan.PlanItem it = items.get(k.row.id());
            if (it != null && it.cascade_of() == null && it.action().equals("delete")) addCascade(k.row, it, ctx, items, req);
        }

        // rule G: the renames of the listed topic groups, run only when approved
        TopicGroups groups = TopicGroups.join(grouping);
        Map<String, SessionRow> byId = new HashMap<>();
        for (SessionRow s : rows) byId.put(s.id(), s);
        List<Plan.PlanItem> renameItems = groups.planItems(byId, req.maxItemsPerGroup(), req.headless());

        // the plan's items are final: serialise them on another core while the report is built
        List<Plan.PlanItem> planItems = new ArrayList<>(items.values());
        planItems.addAll(renameItems);
        planItems = List.copyOf(planItems);
        PlanStore.Items ahead = PlanStore.serialiseAhead(planItems);
        String planId = PlanStore.newId();
        int cap = req.maxItemsPerGroup();
        Capped auto = new Capped(cap);
        Map<String, Capped> confirm = new LinkedHashMap<>();
        Capped info = new Capped(cap);
        for (Plan.PlanItem pi : items.values()) {
            Confidence c = Confidence.valueOf(pi.confidence());
            Capped g = c == Confidence.HIGH && pi.executable() ? auto
                    : c == Confidence.LOW ? info : confirm.computeIfAbsent(pi.rule(), k -> new Capped(cap));
            if (g.wants()) g.add(toItem(pi, ctx.session(pi.session_id()), ctx, groups, req.locale()));
            else g.skip();
        }
        Capped retained = retained(rows, verdicts, items, cap, req, ctx, groups);
        List<AuditResult.RuleGroup> confirmGroups = new ArrayList<>();
        confirm.entrySet().stream().sorted(Comparator.comparingInt(e -> ruleIndex(e.getKey()))).forEach(e -> {
            Rule r = Rules.byId(e.getKey());
            Capped l = e.getValue();
            confirmGroups.add(new AuditResult.RuleGroup(e.getKey(), r == null ? e.getKey() : r.meta().summary(), l.count,
                    List.copyOf(l.items), l.count - l.items.size()));
        });

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
                new AuditResult.Groups(group(auto, cap), confirmGroups, group(info, cap), group(retained, cap)), topics, expected, learning,
                retention(rows, verdicts, ctx, settings), groups.out(cap, req.locale()), scheduledRuns(req));
        String text = ReportRenderer.render(result);
        Plan plan = new Plan(planId, created, createdEpoch, expires, paths.stateDb().toString(), dbKey, req.mode(), req.locale(),
                current.session_id(), current.found_by(), ctx.threshold(), planItems, text);
        new PlanStore(paths.stateDir()).save(plan, ahead);
        return new Outcome(result, text, plan);
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
                                   int cap, AuditRequest req, RuleContext ctx, TopicGroups groups) {
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
        for (Key k : first) out.add(toItem(item(k.row, verdicts[k.index], null, req), k.row, ctx, groups, req.locale()));
        for (int i = first.size(); i < count; i++) out.skip();
        return out;
    }

    /** An interactive audit reports (once) what scheduled headless runs did since the last one that did. */
    private AuditResult.ScheduledRuns scheduledRuns(AuditRequest req) {
        if (req.headless()) return null;
        steward.schedule.ScheduleLog log = new steward.schedule.ScheduleLog(paths.stateDir());
        List<steward.schedule.ScheduleLog.Run> runs = log.unreported();
        if (runs.isEmpty()) return null;
        int executed = 0, deleted = 0;
        List<String> backups = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (steward.schedule.ScheduleLog.Run r : runs) {
            executed += r.executed();
            deleted += r.deleted().size() + r.deleted_left_out();
            if (r.backup_id() != null) backups.add(r.backup_id());
            if (!r.status().equals("ok")) problems.add(r.started_at() + " " + r.status() + (r.error() == null ? "" : ": " + r.error()));
        }
        log.markReported(runs.get(runs.size() - 1).started_at_epoch());
        return new AuditResult.ScheduledRuns(runs.size(), runs.get(0).started_at(), runs.get(runs.size() - 1).started_at(), executed, deleted,
                backups, problems);
    }

    /** What rule K kept in this audit, and when the next young subagent becomes eligible. */
    private static AuditResult.Retention retention(List<SessionRow> rows, Verdict[] verdicts, RuleContext ctx,
                                                   steward.config.StewardSettings settings) {
        int young = 0, continuable = 0;
        double next = Double.NaN;
        for (int i = 0; i < verdicts.length; i++) {
            if (!verdicts[i].rule().equals("K")) continue;
            if ("K/continuable".equals(verdicts[i].condition())) {
                continuable++;
                continue;
            }
            young++;
            double e = steward.sessions.rules.SubagentRetentionRule.eligibleAt(rows.get(i), ctx);
            if (Double.isNaN(next) || e < next) next = e;
        }
        return new AuditResult.Retention(settings.subagentKeepDays(), settings.subagentKeepDaysOrigin().name().toLowerCase(java.util.Locale.ROOT),
                young, continuable, Double.isNaN(next) ? null : Times.iso(next), settings.warnings());
    }

    private void addCascade(SessionRow parent, Plan.PlanItem parentItem, RuleContext ctx, Map<String, Plan.PlanItem> items,
                            AuditRequest req) {
        for (SessionRow c : ctx.subagentChildren(parent.id())) {
            Plan.PlanItem existing = items.get(c.id());
            if (existing != null && existing.action().equals("delete")) continue;
            Confidence conf = Confidence.valueOf(parentItem.confidence());
            if (c.active()) conf = conf.atMost(Confidence.MEDIUM);
            Text why = new Text("subagent of " + parent.id() + ": deleted with it, as Hermes does",
                    "子代理，随父会话 " + parent.id() + " 一起删除（与 Hermes 一致）");
            Verdict own = RuleEngine.evaluate(c, ctx);
            if (own.action() == Action.retain && own.rule().equals("K")) {
                // a cascade never outranks the child: what rule K keeps goes only if the user approves it and its parent
                conf = Confidence.LOW;
                why = new Text(why.en() + "; but " + own.reason().en(), why.zh() + "；但" + own.reason().zh());
                Plan.PlanItem p = items.get(parent.id());
                if (p != null && !p.confidence().equals("LOW")) {
                    items.put(parent.id(), new Plan.PlanItem(p.item_id(), p.session_id(), p.rule(), p.condition(), p.action(), "LOW",
                            p.executable(), p.reason() + (req.locale().equals("zh") ? "（其子代理 " + c.id() + " 仍在保留期内）"
                                    : " (its subagent " + c.id() + " is still kept by the keep-days setting)"), p.cascade_of(), p.topic(),
                            p.fingerprint()));
                    parentItem = items.get(parent.id());
                }
            }
            Verdict v = new Verdict(parentItem.rule(), parentItem.condition(), Action.delete, conf, why, null);
            Plan.PlanItem ci = item(c, v, parent.id(), req);
            items.remove(c.id());
            items.put(c.id(), ci);
            addCascade(c, ci, ctx, items, req);
        }
    }

    private static Plan.PlanItem item(SessionRow s, Verdict v, String cascadeOf, AuditRequest req) {
        boolean executable = v.action().executable() && (!req.headless() || v.rule().equals("A"));
        return new Plan.PlanItem(s.id(), s.id(), v.rule(), v.condition(), v.action().name(), v.confidence().name(), executable,
                v.reason().in(req.locale()), cascadeOf, v.topic(), fingerprint(s));
    }

    public static Plan.Fingerprint fingerprint(SessionRow s) {
        return new Plan.Fingerprint(s.title(), s.messageCount(), s.lastActivity(), s.endedAt(), s.archived());
    }

    private static AuditResult.Item toItem(Plan.PlanItem pi, SessionRow s, RuleContext ctx, TopicGroups groups, String locale) {
        AuditResult.Evidence ev = new AuditResult.Evidence(s.source(), s.title(), s.messageCount(), Times.iso(s.startedAt()),
                s.startedAt(), Times.iso(s.lastActivity()), s.lastActivity(), Times.iso(s.endedAt()), s.endedAt(), s.endReason(),
                s.archived(), s.parentSessionId(), ctx.children(s.id()).size());
        String cluster = groups.clusterOf(s.id());
        String reason = pi.reason();
        if (cluster != null && pi.rule().equals("E")) reason += "zh".equals(locale) ? "（见主题分组 " + cluster + "）" : " (see topic group " + cluster + ")";
        return new AuditResult.Item(pi.item_id(), pi.session_id(), pi.rule(), pi.condition(), pi.action(), pi.confidence(), pi.executable(),
                reason, pi.cascade_of(), ev, cluster);
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
