package steward.sessions.audit;

import java.nio.file.Path;
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
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.HermesSessions;
import steward.sessions.store.SessionHomes;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionSource;

/**
 * {@code session_audit}: reads each selected home's sessions once (set-based), classifies each with the ordered
 * rules (one rule context per home), stores one plan in the state dir and renders the report. It never writes to
 * Hermes' or Claude Code's files.
 */
public final class AuditEngine {
    private final StewardPaths paths;
    private final Clock clock;
    private final Preferences preferences;
    private Path callerCwd = Path.of(System.getProperty("user.dir"));

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

    /** The working directory whose Claude Code project holds the current session when none is named (default: this process's). */
    public AuditEngine callerCwd(Path cwd) {
        this.callerCwd = cwd;
        return this;
    }

    public record Outcome(AuditResult result, String text, Plan plan) {}

    /** The current session: the argument if given (it must exist), else the active tui/cli session with the newest activity. */
    public static AuditResult.Current findCurrent(List<SessionRow> rows, String argument, String context) {
        if (argument != null) {
            boolean exists = rows.stream().anyMatch(r -> r.id().equals(argument));
            if (!exists) throw new StewardError(context, "current_session_id " + argument + " is not a session in this database");
            return new AuditResult.Current(argument, "argument");
        }
        return HermesSessions.newestActiveTuiCli(rows);
    }

    /** One store's part of the audit. */
    private static final class StoreAudit {
        final SessionSource source;
        final List<SessionRow> rows;
        final AuditResult.Current current;
        final RuleContext ctx;
        final Verdict[] verdicts;
        final List<Key> ordered;

        StoreAudit(SessionSource source, List<SessionRow> rows, AuditResult.Current current, RuleContext ctx, Verdict[] verdicts) {
            this.source = source;
            this.rows = rows;
            this.current = current;
            this.ctx = ctx;
            this.verdicts = verdicts;
            this.ordered = order(rows, verdicts, this);
        }
    }

    public Outcome audit(AuditRequest req) {
        Instant now = req.now() != null ? req.now() : clock.instant();
        double nowEpoch = Times.epoch(now);
        List<SessionSource> sources = SessionHomes.open(paths, req.store(), new ClaudeSessions.Options(nowEpoch, req.idleSeconds(), callerCwd, true),
                "session_audit");
        List<List<SessionRow>> listed = new ArrayList<>();
        for (SessionSource src : sources) listed.add(src.rows());
        if (req.currentSessionId() != null && listed.stream().noneMatch(rows -> rows.stream().anyMatch(r -> r.id().equals(req.currentSessionId())))) {
            throw new StewardError("session_audit", "current_session_id " + req.currentSessionId() + " is not a session in "
                    + (sources.size() == 1 && sources.get(0).store().equals(SessionRow.HERMES) ? "this database" : "any audited home"));
        }
        List<StoreAudit> audits = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            List<SessionRow> rows = listed.get(i);
            AuditResult.Current current = sources.get(i).current(rows, req.currentSessionId());
            RuleContext ctx = RuleContext.of(nowEpoch, current.session_id(), rows, preferences);
            audits.add(new StoreAudit(sources.get(i), rows, current, ctx, evaluate(rows, ctx)));
        }

        // items: every non-retain verdict, plus the subagent children that Hermes deletes with a deleted parent
        Map<String, Plan.PlanItem> items = new LinkedHashMap<>();
        Map<String, StoreAudit> itemStore = new HashMap<>();
        for (StoreAudit a : audits) {
            for (Key k : a.ordered) {
                items.put(k.row.id(), item(k.row, a.verdicts[k.index], null, req));
                itemStore.put(k.row.id(), a);
            }
            for (Key k : a.ordered) {
                Plan.PlanItem it = items.get(k.row.id());
                if (it != null && it.cascade_of() == null && it.action().equals("delete")) addCascade(k.row, it, a, items, itemStore, req);
            }
        }

        // the plan's items are final: serialise them on another core while the report is built
        List<Plan.PlanItem> planItems = List.copyOf(items.values());
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
            StoreAudit a = itemStore.get(pi.session_id());
            if (g.wants()) g.add(toItem(pi, a.ctx.session(pi.session_id()), a.ctx));
            else g.skip();
        }
        Capped retained = retained(audits, items, cap, req);
        List<AuditResult.RuleGroup> confirmGroups = new ArrayList<>();
        confirm.entrySet().stream().sorted(Comparator.comparingInt(e -> ruleIndex(e.getKey()))).forEach(e -> {
            Rule r = Rules.byId(e.getKey());
            Capped l = e.getValue();
            confirmGroups.add(new AuditResult.RuleGroup(e.getKey(), r == null ? e.getKey() : r.meta().summary(), l.count,
                    List.copyOf(l.items), l.count - l.items.size()));
        });

        int all = 0, active = 0, archived = 0;
        List<AuditResult.StoreOut> storeOuts = new ArrayList<>();
        List<AuditResult.Expected> expecteds = new ArrayList<>();
        for (StoreAudit a : audits) {
            int act = 0, arc = 0;
            for (SessionRow s : a.rows) {
                if (s.active()) act++;
                if (s.archived()) arc++;
            }
            all += a.rows.size();
            active += act;
            archived += arc;
            List<Plan.PlanItem> own = items.values().stream().filter(pi -> itemStore.get(pi.session_id()) == a).toList();
            AuditResult.Expected ex = expected(own, a.ctx, act, a.rows.size());
            expecteds.add(ex);
            storeOuts.add(storeOut(a, new AuditResult.Totals(a.rows.size(), act, a.rows.size() - act, arc), ex, own, req, cap));
        }
        AuditResult.Totals totals = new AuditResult.Totals(all, active, all - active, archived);
        AuditResult.Expected expected = sum(expecteds);
        List<AuditResult.TopicOut> topics = new ArrayList<>();
        for (StoreAudit a : audits) {
            for (RuleContext.Topic t : a.ctx.topics()) topics.add(new AuditResult.TopicOut(t.label(), t.count(), t.sessionIds()));
        }
        if (audits.size() > 1) topics.sort((x, y) -> y.count() != x.count() ? Integer.compare(y.count(), x.count()) : x.topic().compareTo(y.topic()));
        topics = List.copyOf(topics.subList(0, Math.min(cap, topics.size())));
        String created = Times.iso(Times.epoch(clock.instant()));
        double createdEpoch = Times.epoch(clock.instant());
        double expires = createdEpoch + PlanStore.VALIDITY_SECONDS;
        StoreAudit first = audits.get(0);
        double threshold = first.ctx.threshold();
        AuditResult result = new AuditResult(planId, created, Times.iso(expires), Times.iso(nowEpoch), nowEpoch, req.mode(),
                req.locale(), first.source.location(), totals, first.current, threshold,
                new AuditResult.Groups(group(auto, cap), confirmGroups, group(info, cap), group(retained, cap)), topics, expected, learning,
                List.copyOf(storeOuts));
        String text = ReportRenderer.render(result);
        List<Plan.StoreRef> refs = new ArrayList<>();
        for (StoreAudit a : audits) {
            boolean claude = a.source.store().equals(ClaudeSessions.STORE);
            refs.add(new Plan.StoreRef(a.source.store(), a.source.location(), a.source.key(), a.current.session_id(), a.current.found_by(),
                    claude ? req.idleSeconds() : null));
        }
        Plan plan = new Plan(planId, created, createdEpoch, expires, first.source.location(), refs.get(0).key(), req.mode(), req.locale(),
                first.current.session_id(), first.current.found_by(), threshold, planItems, text, refs);
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
    private record Key(SessionRow row, int index, int rule, double last, StoreAudit audit) {
        static final Comparator<Key> ORDER = (a, b) -> a.rule != b.rule ? Integer.compare(a.rule, b.rule)
                : a.last != b.last ? Double.compare(b.last, a.last) : a.row.id().compareTo(b.row.id());

        static Key of(SessionRow s, int index, Verdict v, StoreAudit audit) {
            return new Key(s, index, ruleIndex(v.rule()), s.lastActivity(), audit);
        }
    }

    /** The sessions with an action, in report order. */
    private static List<Key> order(List<SessionRow> rows, Verdict[] verdicts, StoreAudit audit) {
        List<Key> acting = new ArrayList<>();
        for (int i = 0; i < verdicts.length; i++) {
            if (verdicts[i].action() != Action.retain) acting.add(Key.of(rows.get(i), i, verdicts[i], audit));
        }
        acting.sort(Key.ORDER);
        return acting;
    }

    /** The first {@code cap} kept sessions in report order (only those are sorted), and how many are kept in all. */
    private static Capped retained(List<StoreAudit> audits, Map<String, Plan.PlanItem> items, int cap, AuditRequest req) {
        java.util.PriorityQueue<Key> top = new java.util.PriorityQueue<>(Math.max(1, cap + 1), Key.ORDER.reversed());
        int count = 0;
        for (StoreAudit a : audits) {
            for (int i = 0; i < a.verdicts.length; i++) {
                SessionRow s = a.rows.get(i);
                if (a.verdicts[i].action() != Action.retain || items.containsKey(s.id())) continue;
                count++;
                if (cap <= 0) continue;
                top.add(Key.of(s, i, a.verdicts[i], a));
                if (top.size() > cap) top.poll();
            }
        }
        List<Key> first = new ArrayList<>(top);
        first.sort(Key.ORDER);
        Capped out = new Capped(cap);
        for (Key k : first) out.add(toItem(item(k.row, k.audit.verdicts[k.index], null, req), k.row, k.audit.ctx));
        for (int i = first.size(); i < count; i++) out.skip();
        return out;
    }

    private void addCascade(SessionRow parent, Plan.PlanItem parentItem, StoreAudit a, Map<String, Plan.PlanItem> items,
                            Map<String, StoreAudit> itemStore, AuditRequest req) {
        boolean claude = a.source.store().equals(ClaudeSessions.STORE);
        for (SessionRow c : a.ctx.subagentChildren(parent.id())) {
            Plan.PlanItem existing = items.get(c.id());
            if (existing != null && existing.action().equals("delete")) continue;
            Confidence conf = Confidence.valueOf(parentItem.confidence());
            if (c.active()) conf = conf.atMost(Confidence.MEDIUM);
            Verdict v = new Verdict(parentItem.rule(), parentItem.condition(), Action.delete, conf, claude
                    ? new Text("subagent of " + parent.id() + ": its transcript goes with the session's directory",
                            "子代理，其记录随会话 " + parent.id() + " 的目录一起移走")
                    : new Text("subagent of " + parent.id() + ": deleted with it, as Hermes does",
                            "子代理，随父会话 " + parent.id() + " 一起删除（与 Hermes 一致）"), null);
            Plan.PlanItem ci = item(c, v, parent.id(), req);
            items.remove(c.id());
            items.put(c.id(), ci);
            itemStore.put(c.id(), a);
            addCascade(c, ci, a, items, itemStore, req);
        }
    }

    private static Plan.PlanItem item(SessionRow s, Verdict v, String cascadeOf, AuditRequest req) {
        boolean executable = v.action().executable() && (!req.headless() || v.rule().equals("A"));
        return new Plan.PlanItem(s.id(), s.id(), v.rule(), v.condition(), v.action().name(), v.confidence().name(), executable,
                v.reason().in(req.locale()), cascadeOf, v.topic(), fingerprint(s), s.place() == null ? null : s.store());
    }

    public static Plan.Fingerprint fingerprint(SessionRow s) {
        return new Plan.Fingerprint(s.title(), s.messageCount(), s.lastActivity(), s.endedAt(), s.archived(),
                s.place() == null ? null : s.place().sizeBytes());
    }

    private static AuditResult.Item toItem(Plan.PlanItem pi, SessionRow s, RuleContext ctx) {
        AuditResult.Evidence ev = new AuditResult.Evidence(s.source(), s.title(), s.messageCount(), Times.iso(s.startedAt()),
                s.startedAt(), Times.iso(s.lastActivity()), s.lastActivity(), Times.iso(s.endedAt()), s.endedAt(), s.endReason(),
                s.archived(), s.parentSessionId(), ctx.children(s.id()).size(), s.group(), s.place() == null || s.place().exactCount());
        return new AuditResult.Item(pi.item_id(), pi.session_id(), pi.rule(), pi.condition(), pi.action(), pi.confidence(), pi.executable(),
                pi.reason(), pi.cascade_of(), ev, s.store());
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

    private static AuditResult.Expected sum(List<AuditResult.Expected> l) {
        int a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
        for (AuditResult.Expected x : l) {
            a += x.active_before();
            b += x.active_after_auto();
            c += x.active_after_all_approved();
            d += x.total_before();
            e += x.total_after_auto();
            f += x.total_after_all_approved();
        }
        return new AuditResult.Expected(a, b, c, d, e, f);
    }

    /** A store's own figures; for Claude Code its projects, busiest first, and what its listing could not read. */
    private static AuditResult.StoreOut storeOut(StoreAudit a, AuditResult.Totals totals, AuditResult.Expected ex, List<Plan.PlanItem> own,
                                                 AuditRequest req, int cap) {
        if (!(a.source instanceof ClaudeSessions cs)) {
            return new AuditResult.StoreOut(a.source.store(), a.source.location(), totals, a.current, ex, null, List.of(), 0, List.of());
        }
        Map<String, int[]> per = new LinkedHashMap<>(); // sessions, live, subagents, items
        Map<String, String> cwd = new HashMap<>();
        for (SessionRow s : a.rows) {
            int[] c = per.computeIfAbsent(s.group(), k -> new int[4]);
            if (s.subagent()) c[2]++;
            else {
                c[0]++;
                if (s.active()) c[1]++;
                var f = cs.file(s.id());
                if (f != null && f.facts().cwd() != null) cwd.putIfAbsent(s.group(), f.facts().cwd());
            }
        }
        for (Plan.PlanItem pi : own) {
            SessionRow s = a.ctx.session(pi.session_id());
            if (s != null) per.computeIfAbsent(s.group(), k -> new int[4])[3]++;
        }
        List<AuditResult.ProjectOut> projects = new ArrayList<>();
        per.forEach((p, c) -> projects.add(new AuditResult.ProjectOut(p, cwd.get(p), c[0], c[1], c[2], c[3])));
        projects.sort(Comparator.comparingInt(AuditResult.ProjectOut::items).reversed()
                .thenComparing(Comparator.comparingInt(AuditResult.ProjectOut::sessions).reversed())
                .thenComparing(AuditResult.ProjectOut::project));
        List<String> warnings = cs.listing().warnings();
        List<String> shownWarnings = List.copyOf(warnings.subList(0, Math.min(cap, warnings.size())));
        return new AuditResult.StoreOut(a.source.store(), a.source.location(), totals, a.current, ex, req.idleSeconds() / 3600.0,
                List.copyOf(projects.subList(0, Math.min(cap, projects.size()))), Math.max(0, projects.size() - cap), shownWarnings);
    }

    private static final Map<String, Integer> RULE_INDEX = new HashMap<>();

    static {
        for (int i = 0; i < Rules.ORDERED.size(); i++) RULE_INDEX.put(Rules.ORDERED.get(i).id(), i);
    }

    static int ruleIndex(String id) {
        return RULE_INDEX.getOrDefault(id, Rules.ORDERED.size());
    }
}
