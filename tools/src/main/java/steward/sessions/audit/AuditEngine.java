package steward.sessions.audit;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import steward.StewardError;
import steward.Work;
import steward.config.HousekeepingSettings;
import steward.config.StewardConfig;
import steward.config.StewardPaths;
import steward.config.StewardSettings;
import steward.learning.LearningEngine;
import steward.learning.PreferenceStore;
import steward.learning.Preferences;
import steward.schedule.ScheduleLog;
import steward.sessions.apply.ApplyJournal;
import steward.sessions.grouping.HermesProjects;
import steward.sessions.rules.Action;
import steward.sessions.rules.Confidence;
import steward.sessions.rules.HermesPruneRule;
import steward.sessions.rules.Rule;
import steward.sessions.rules.RuleContext;
import steward.sessions.rules.RuleEngine;
import steward.sessions.rules.Rules;
import steward.sessions.rules.SubagentRetentionRule;
import steward.sessions.rules.Verdict;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.HermesSessions;
import steward.sessions.store.SessionHomes;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionSource;
import steward.sessions.store.SessionStore;

/**
 * {@code session_audit}: reads each selected home's sessions once (set-based), classifies each with the ordered
 * rules (one rule context per home), stores one plan in the state dir and renders the report. It never writes to
 * Hermes' or Claude Code's files.
 */
public final class AuditEngine {
    static final String CTX = "session_audit";
    /** At most this many lines of a report ask something (questions by name plus grouped lines). */
    public static final int QUESTION_CAP = QuestionPlan.CAP;

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
        this.learning = new AuditResult.LearningState(
                status, s.problem(), s.usable() && s.exists() ? LearningEngine.ruleState(s.data()) : null);
    }

    /** The working directory whose Claude Code project holds the current session when none is named (default: this process's). */
    public AuditEngine callerCwd(Path cwd) {
        this.callerCwd = cwd;
        return this;
    }

    public record Outcome(AuditResult result, String text, Plan plan) {}

    /**
     * The current session: the argument if given (it must exist), else the active tui/cli session with the newest
     * activity that is not dated after {@code now}.
     */
    public static AuditResult.Current findCurrent(List<SessionRow> rows, String argument, String context, double now) {
        if (argument != null) {
            boolean exists = rows.stream().anyMatch(r -> r.id().equals(argument));
            if (!exists)
                throw new StewardError(
                        context, "current_session_id " + argument + " is not a session in this database");
            return new AuditResult.Current(argument, "argument");
        }
        return HermesSessions.newestActiveTuiCli(rows, now);
    }

    /** One store's part of the audit. */
    private static final class StoreAudit {
        final SessionSource source;
        final List<SessionRow> rows;
        final AuditResult.Current current;
        final RuleContext ctx;
        final Verdict[] verdicts;

        StoreAudit(
                SessionSource source,
                List<SessionRow> rows,
                AuditResult.Current current,
                RuleContext ctx,
                Verdict[] verdicts) {
            this.source = source;
            this.rows = rows;
            this.current = current;
            this.ctx = ctx;
            this.verdicts = verdicts;
        }
    }

    public Outcome audit(AuditRequest req) {
        return audit(req, Work.NONE);
    }

    /** Phases reported to {@code work} (listing, classifying, report, plan); a cancellation stops before the plan is saved. */
    public static final int PHASES = 4;

    public Outcome audit(AuditRequest req, Work work) {
        Instant now = req.now() != null ? req.now() : clock.instant();
        double nowEpoch = Times.epoch(now);
        work.progress(0, PHASES, "listing sessions");
        List<SessionSource> sources = SessionHomes.open(
                paths,
                req.store(),
                new ClaudeSessions.Options(nowEpoch, req.idleSeconds(), callerCwd, true),
                "session_audit");
        List<List<SessionRow>> listed = new ArrayList<>();
        for (SessionSource src : sources) listed.add(src.rows());
        if (req.currentSessionId() != null
                && listed.stream()
                        .noneMatch(rows -> rows.stream().anyMatch(r -> r.id().equals(req.currentSessionId())))) {
            throw new StewardError(
                    "session_audit",
                    "current_session_id " + req.currentSessionId() + " is not a session in "
                            + (sources.size() == 1 && sources.get(0).store().equals(SessionRow.HERMES)
                                    ? "this database"
                                    : "any audited home"));
        }
        work.checkpoint(CTX);
        work.progress(
                1, PHASES, "classifying " + listed.stream().mapToInt(List::size).sum() + " sessions");
        // topic grouping (titles, first prompts, cwd; Hermes' Projects on its own connection, Claude Code's transcript
        // heads)
        // clusters on other cores while the rules classify
        CompletableFuture<TopicGroups> grouping = null, claudeGrouping = null;
        for (int i = 0; i < sources.size(); i++) {
            if (sources.get(i) instanceof ClaudeSessions cs) {
                List<SessionRow> claudeRows = listed.get(i);
                claudeGrouping = CompletableFuture.supplyAsync(
                        () -> TopicGroups.buildClaude(TopicGroups.readClaude(cs, claudeRows)));
                continue;
            }
            if (!sources.get(i).store().equals(SessionRow.HERMES)) continue;
            List<SessionRow> hermesRows = listed.get(i);
            Path db = Path.of(sources.get(i).location());
            grouping = CompletableFuture.supplyAsync(() -> {
                try (SessionStore store = SessionStore.openReadOnly(db)) {
                    return TopicGroups.build(
                            TopicGroups.read(store, hermesRows), hermesRows, HermesProjects.read(paths.hermesHome()));
                }
            });
        }
        StewardConfig config = StewardConfig.load(paths.configYaml()); // config.yaml parsed once
        StewardSettings settings = config.steward();
        HousekeepingSettings housekeeping = config.housekeeping();
        // items: every non-retain verdict of every home; a deletion whose subagent children would not all go
        // automatically on
        // their own becomes a question naming them (Cascade, per home); then how each question is asked (QuestionPlan,
        // per report)
        List<StoreAudit> audits = new ArrayList<>();
        Map<String, Plan.PlanItem> items = new LinkedHashMap<>();
        Map<String, StoreAudit> itemStore = new HashMap<>();
        Chains.Ids chainIds = new Chains.Ids(); // the chains' own answer ids (c1, …), never a session id
        for (int i = 0; i < sources.size(); i++) {
            List<SessionRow> rows = listed.get(i);
            AuditResult.Current current = sources.get(i).current(rows, req.currentSessionId(), nowEpoch);
            boolean hermes = sources.get(i).store().equals(SessionRow.HERMES);
            Double lastPrune = hermes && housekeeping.autoPrune()
                    ? lastAutoPrune(Path.of(sources.get(i).location()))
                    : null;
            RuleContext ctx = RuleContext.of(
                    nowEpoch,
                    current.session_id(),
                    rows,
                    preferences,
                    settings.subagentKeepDays(),
                    housekeeping,
                    lastPrune,
                    config.unread());
            StoreAudit a = new StoreAudit(sources.get(i), rows, current, ctx, evaluate(rows, ctx));
            audits.add(a);
            Map<String, Plan.PlanItem> own = storeItems(rows, a.verdicts, ctx, req, chainIds);
            items.putAll(own);
            if (sources.size() > 1) for (String id : own.keySet()) itemStore.put(id, a);
        }
        // an item's home: the only one, or (several homes) the last whose items had its session id
        StoreAudit only = audits.size() == 1 ? audits.get(0) : null;
        java.util.function.Function<String, StoreAudit> storeOf = only != null ? id -> only : itemStore::get;
        work.checkpoint(CTX);
        work.progress(2, PHASES, "building the report");
        QuestionPlan.assign(
                items, preferences, req.headless(), LocalDate.ofInstant(now, ZoneOffset.UTC), req.maxItemsPerGroup());
        // the report's groups: one counted line each, answerable by group id where the trust rules allow
        DecisionGroups.Result decisionGroups = DecisionGroups.build(
                items, pi -> storeOf.apply(pi.session_id()).ctx.session(pi.session_id()), preferences);
        // the same keys in the same order, each item with its group id: the map itself takes the place of the old one
        items = decisionGroups.items();
        StoreAudit first = audits.get(0);

        // rule G: the renames of the listed topic groups, run only when approved
        TopicGroups groups = TopicGroups.merge(TopicGroups.join(grouping), TopicGroups.join(claudeGrouping));
        List<Plan.PlanItem> renameItems = new ArrayList<>();
        for (StoreAudit a : audits) {
            if (!a.source.store().equals(SessionRow.HERMES)) continue;
            for (Plan.PlanItem r : groups.planItems(a.ctx::session, req.maxItemsPerGroup(), req.headless())) {
                Plan.PlanItem own = items.get(r.session_id());
                if (own == null || !own.rule().equals("H"))
                    renameItems.add(r); // no renaming what Hermes prunes at its next start
            }
        }

        // the plan's items are final: serialise them on another core while the report is built
        List<Plan.PlanItem> planItems = new ArrayList<>(items.values());
        planItems.addAll(renameItems);
        planItems = List.copyOf(planItems);
        PlanStore.Items ahead = PlanStore.serialiseAhead(planItems);
        String planId = PlanStore.newId();
        int cap = req.maxItemsPerGroup();
        Capped auto = new Capped(cap), info = new Capped(cap), waiting = new Capped(cap), notAsked = new Capped(cap);
        Map<String, Capped> confirm = new LinkedHashMap<>(),
                collapsed = new LinkedHashMap<>(),
                status = new LinkedHashMap<>();
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
                    g = c == Confidence.HIGH && pi.executable()
                            ? auto
                            : c == Confidence.LOW ? info : confirm.computeIfAbsent(pi.rule(), k -> new Capped(cap));
                    if ("new".equals(pi.question())) q[0]++;
                    if ("grouped".equals(pi.question())) q[5]++;
                } else {
                    switch (pi.question()) {
                        case "waiting" -> {
                            g = waiting;
                            q[1]++;
                        }
                        case "later" -> {
                            g = waiting;
                            q[2]++;
                        }
                        case "collapsed" -> {
                            g = collapsed.computeIfAbsent(pi.rule(), k -> new Capped(cap));
                            q[3]++;
                        }
                        case "status" -> {
                            g = status.computeIfAbsent(pi.rule(), k -> new Capped(cap));
                            q[6]++;
                        }
                        default -> {
                            g = notAsked;
                            q[4]++;
                            notAskedByKey.merge(pi.key(), 1, Integer::sum);
                        }
                    }
                }
                StoreAudit a = storeOf.apply(pi.session_id());
                if (g.wants()) g.add(toItem(pi, a.ctx.session(pi.session_id()), a.ctx, groups, req.locale()));
                else g.skip();
            }
        }
        Capped retained = retained(audits, items, cap, req, groups);
        List<AuditResult.RuleGroup> confirmGroups = ruleGroups(confirm, null, false, first.ctx);
        List<AuditResult.RuleGroup> collapsedGroups =
                new ArrayList<>(ruleGroups(collapsed, req.locale(), false, first.ctx));
        collapsedGroups.addAll(ruleGroups(status, req.locale(), true, first.ctx));
        StringBuilder digest = new StringBuilder();
        notAskedByKey.forEach((k, n) -> digest.append(digest.length() == 0 ? "" : ", ")
                .append(k)
                .append(' ')
                .append(n));
        AuditResult.Questions questions = new AuditResult.Questions(
                QuestionPlan.lines(items.values()),
                q[0],
                q[5],
                q[1],
                q[2],
                q[3],
                q[4],
                q[6],
                QuestionPlan.CAP,
                digest.length() == 0 ? null : digest.toString());

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
            List<Plan.PlanItem> own = only != null
                    ? List.copyOf(items.values())
                    : items.values().stream()
                            .filter(pi -> itemStore.get(pi.session_id()) == a)
                            .toList();
            AuditResult.Expected ex = expected(own, a.ctx, act, a.rows.size());
            expecteds.add(ex);
            storeOuts.add(storeOut(
                    a, new AuditResult.Totals(a.rows.size(), act, a.rows.size() - act, arc), ex, own, req, cap));
        }
        AuditResult.Totals totals = new AuditResult.Totals(all, active, all - active, archived);
        AuditResult.Expected expected = sum(expecteds);
        List<AuditResult.TopicOut> topics = new ArrayList<>();
        for (StoreAudit a : audits) {
            for (RuleContext.Topic t : a.ctx.topics())
                topics.add(new AuditResult.TopicOut(t.label(), t.count(), t.sessionIds()));
        }
        if (audits.size() > 1)
            topics.sort((x, y) -> y.count() != x.count()
                    ? Integer.compare(y.count(), x.count())
                    : x.topic().compareTo(y.topic()));
        topics = List.copyOf(topics.subList(0, Math.min(cap, topics.size())));
        String created = Times.iso(Times.epoch(clock.instant()));
        double createdEpoch = Times.epoch(clock.instant());
        double expires = createdEpoch + PlanStore.VALIDITY_SECONDS;
        double threshold = first.ctx.threshold();
        AuditResult result = new AuditResult(
                planId,
                created,
                Times.iso(expires),
                Times.iso(nowEpoch),
                nowEpoch,
                req.mode(),
                req.locale(),
                first.source.location(),
                totals,
                first.current,
                threshold,
                new AuditResult.Groups(
                        group(auto, cap),
                        confirmGroups,
                        group(info, cap),
                        group(waiting, cap),
                        collapsedGroups,
                        group(notAsked, cap),
                        group(retained, cap)),
                topics,
                expected,
                learning,
                questions,
                List.copyOf(storeOuts),
                retention(audits, settings),
                groups.out(cap, req.locale()),
                scheduledRuns(req),
                decisionGroups.groups(),
                withInterrupted(housekeeping(audits, items, housekeeping, cap, chainIds)));
        String text = ReportRenderer.render(result);
        List<Plan.StoreRef> refs = new ArrayList<>();
        for (StoreAudit a : audits) {
            boolean claude = a.source.store().equals(ClaudeSessions.STORE);
            refs.add(new Plan.StoreRef(
                    a.source.store(),
                    a.source.location(),
                    a.source.key(),
                    a.current.session_id(),
                    a.current.found_by(),
                    claude ? req.idleSeconds() : null));
        }
        Plan plan = new Plan(
                planId,
                created,
                createdEpoch,
                expires,
                first.source.location(),
                refs.get(0).key(),
                req.mode(),
                req.locale(),
                first.current.session_id(),
                first.current.found_by(),
                threshold,
                planItems,
                text,
                refs);
        work.checkpoint(CTX); // the last safe point: after it the plan is written whole
        work.progress(3, PHASES, "saving plan " + planId);
        new PlanStore(paths.stateDir()).save(plan, ahead);
        work.progress(PHASES, PHASES, "audit done: " + planItems.size() + " items");
        return new Outcome(result, text, plan);
    }

    /** The plan's items in report order: every session with an action, cascades resolved, questions assigned. */
    static Map<String, Plan.PlanItem> planItems(
            List<SessionRow> rows, Verdict[] verdicts, RuleContext ctx, AuditRequest req, LocalDate today) {
        Map<String, Plan.PlanItem> items = storeItems(rows, verdicts, ctx, req, new Chains.Ids());
        QuestionPlan.assign(items, ctx.preferences(), req.headless(), today, req.maxItemsPerGroup());
        return items;
    }

    /** One home's items in report order, cascades resolved (questions are assigned over the whole report). */
    static Map<String, Plan.PlanItem> storeItems(
            List<SessionRow> rows, Verdict[] verdicts, RuleContext ctx, AuditRequest req, Chains.Ids chainIds) {
        List<Key> acting = order(rows, verdicts);
        Map<String, Plan.PlanItem> items = new LinkedHashMap<>(Math.max(16, (int) (acting.size() / 0.75f) + 1));
        for (Key k : acting) items.put(k.row.id(), item(k.row, verdicts[k.index], null, req));
        Cascade.apply(items, ctx, req.locale());
        Chains.apply(items, ctx, req.locale(), chainIds.assign(ctx, rows));
        return items;
    }

    /** The plan's items for these sessions (tests). */
    static Map<String, Plan.PlanItem> planItems(List<SessionRow> rows, RuleContext ctx, AuditRequest req) {
        return planItems(rows, evaluate(rows, ctx), ctx, req, LocalDate.of(2026, 8, 10));
    }

    /** Stores at least this large are classified on all cores (the context is read-only, rules are stateless). */
    static final int PARALLEL_MIN_SESSIONS = 4000;

    /** The verdict of each row, by position in {@code rows}. */
    private static Verdict[] evaluate(List<SessionRow> rows, RuleContext ctx) {
        Verdict[] out = new Verdict[rows.size()];
        IntStream range = IntStream.range(0, out.length);
        (out.length >= PARALLEL_MIN_SESSIONS ? range.parallel() : range)
                .forEach(i -> out[i] = RuleEngine.evaluate(rows.get(i), ctx));
        return out;
    }

    /** Sort key: rule order, then newest activity first, then id (precomputed: 20,000 sessions order in a few ms). */
    private record Key(SessionRow row, int index, int rule, double last) {
        static final Comparator<Key> ORDER = (a, b) -> a.rule != b.rule
                ? Integer.compare(a.rule, b.rule)
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
    private static Capped retained(
            List<StoreAudit> audits, Map<String, Plan.PlanItem> items, int cap, AuditRequest req, TopicGroups groups) {
        record Kept(Key key, StoreAudit audit) {}
        PriorityQueue<Kept> top = new PriorityQueue<>(
                Math.max(1, cap + 1), Comparator.comparing(Kept::key, Key.ORDER).reversed());
        int count = 0;
        for (StoreAudit a : audits) {
            for (int i = 0; i < a.verdicts.length; i++) {
                SessionRow s = a.rows.get(i);
                if (a.verdicts[i].action() != Action.retain || items.containsKey(s.id())) continue;
                count++;
                if (cap <= 0) continue;
                top.add(new Kept(Key.of(s, i, a.verdicts[i]), a));
                if (top.size() > cap) top.poll();
            }
        }
        List<Kept> first = new ArrayList<>(top);
        first.sort(Comparator.comparing(Kept::key, Key.ORDER));
        Capped out = new Capped(cap);
        for (Kept k : first)
            out.add(toItem(
                    item(k.key.row, k.audit.verdicts[k.key.index], null, req),
                    k.key.row,
                    k.audit.ctx,
                    groups,
                    req.locale()));
        for (int i = first.size(); i < count; i++) out.skip();
        return out;
    }

    /** An interactive audit reports (once) what scheduled headless runs did since the last one that did. */
    private AuditResult.ScheduledRuns scheduledRuns(AuditRequest req) {
        if (req.headless()) return null;
        ScheduleLog log = new ScheduleLog(paths.stateDir());
        List<ScheduleLog.Run> runs = log.unreported();
        if (runs.isEmpty()) return null;
        int executed = 0, deleted = 0;
        List<String> backups = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (ScheduleLog.Run r : runs) {
            executed += r.executed();
            deleted += r.deleted().size() + r.deleted_left_out();
            if (r.backup_id() != null) backups.add(r.backup_id());
            if (!r.status().equals("ok"))
                problems.add(r.started_at() + " " + r.status() + (r.error() == null ? "" : ": " + r.error()));
        }
        log.markReported(runs.get(runs.size() - 1).started_at_epoch());
        return new AuditResult.ScheduledRuns(
                runs.size(),
                runs.get(0).started_at(),
                runs.get(runs.size() - 1).started_at(),
                executed,
                deleted,
                backups,
                problems);
    }

    /** When Hermes last ran its auto-prune ({@code state_meta.last_auto_prune}); null when never, or unreadable. */
    public static Double lastAutoPrune(Path db) {
        try (SessionStore store = SessionStore.openReadOnly(db);
                PreparedStatement ps = store.connection()
                        .prepareStatement("SELECT value FROM state_meta WHERE key = 'last_auto_prune'");
                ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getString(1) != null
                    ? Double.valueOf(rs.getString(1).strip())
                    : null;
        } catch (SQLException | RuntimeException e) {
            return null; // no state_meta table (older schema) or a value Hermes itself would treat as no prior run
        }
    }

    /** The housekeeping settings used, Hermes' auto-prune outlook and the compaction chains (every home). */
    private static AuditResult.Housekeeping housekeeping(
            List<StoreAudit> audits,
            Map<String, Plan.PlanItem> items,
            HousekeepingSettings hk,
            int cap,
            Chains.Ids chainIds) {
        AuditResult.HermesPrune prune = null;
        List<AuditResult.ChainOut> chains = new ArrayList<>();
        int chainCount = 0;
        for (StoreAudit a : audits) {
            RuleContext ctx = a.ctx;
            if (a.source.store().equals(SessionRow.HERMES) && hk.autoPrune()) {
                int due = 0, soon = 0;
                double next = Double.NaN;
                for (SessionRow s : a.rows) {
                    Double at = HermesPruneRule.dueAt(s, ctx);
                    if (at == null) continue;
                    if (at <= ctx.now()) due++;
                    else if (at <= ctx.now() + 7 * 86400.0) {
                        soon++;
                        if (Double.isNaN(next) || at < next) next = at;
                    }
                }
                Double last = ctx.lastAutoPrune();
                Double after = last == null ? null : last + hk.pruneIntervalHours() * 3600.0;
                prune = new AuditResult.HermesPrune(
                        true,
                        hk.pruneRetentionDays(),
                        hk.pruneIntervalHours(),
                        Times.iso(last),
                        after == null || after <= ctx.now() ? null : Times.iso(after),
                        due,
                        soon,
                        Double.isNaN(next) ? null : Times.iso(next));
            }
            for (Map.Entry<String, List<String>> c : ctx.chains().entrySet()) {
                chainCount++;
                if (chains.size() >= cap) continue;
                String action = "retain", conf = null;
                for (String m : c.getValue()) {
                    Plan.PlanItem pi = items.get(m);
                    if (pi == null || pi.action().equals("retain")) continue;
                    if (action.equals("retain") || pi.action().equals("delete")) {
                        action = pi.action();
                        conf = pi.confidence();
                    }
                }
                SessionRow first = ctx.session(c.getKey());
                String title = first == null || first.untitled() ? null : first.title();
                chains.add(new AuditResult.ChainOut(
                        chainIds.of(ctx, c.getKey()), title, c.getValue().size(), c.getValue(), action, conf));
            }
        }
        if (prune == null) {
            prune = new AuditResult.HermesPrune(
                    hk.autoPrune(), hk.pruneRetentionDays(), hk.pruneIntervalHours(), null, null, 0, 0, null);
        }
        return new AuditResult.Housekeeping(
                new TreeMap<>(hk.machineIdleHours()),
                hk.cronRetentionDays(),
                prune,
                chainCount,
                List.copyOf(chains),
                chainCount - chains.size(),
                hk.warnings());
    }

    /**
     * An apply or restore killed while moving sessions leaves its journal: until the next session_apply or
     * session_restore settles it, sessions it was moving may be missing from this listing, so the report says so (an
     * audit only reads: it never settles it itself).
     */
    private AuditResult.Housekeeping withInterrupted(AuditResult.Housekeeping hk) {
        List<java.nio.file.Path> pending;
        try {
            pending = new ApplyJournal(paths, clock).pending();
        } catch (RuntimeException e) {
            return hk; // steward_status reports a journal it cannot read
        }
        if (pending.isEmpty()) return hk;
        List<String> w = new ArrayList<>(hk.warnings());
        w.add("an apply or restore was interrupted (journal " + pending.get(0).getFileName()
                + "): sessions it was moving may be missing from this audit; the next session_apply or session_restore"
                + " puts them where they belong");
        return new AuditResult.Housekeeping(
                hk.machine_idle_hours(),
                hk.cron_retention_days(),
                hk.hermes_prune(),
                hk.chains(),
                hk.chain_items(),
                hk.chains_left_out(),
                List.copyOf(w));
    }

    /** What rule K kept in this audit (every home), and when the next young subagent becomes eligible. */
    private static AuditResult.Retention retention(List<StoreAudit> audits, StewardSettings settings) {
        int young = 0, continuable = 0;
        double next = Double.NaN;
        for (StoreAudit a : audits) {
            for (int i = 0; i < a.verdicts.length; i++) {
                if (!a.verdicts[i].rule().equals("K")) continue;
                if ("K/continuable".equals(a.verdicts[i].condition())) {
                    continuable++;
                    continue;
                }
                young++;
                double e = SubagentRetentionRule.eligibleAt(a.rows.get(i), a.ctx);
                if (Double.isNaN(next) || e < next) next = e;
            }
        }
        return new AuditResult.Retention(
                settings.subagentKeepDays(),
                settings.subagentKeepDaysOrigin().name().toLowerCase(Locale.ROOT),
                young,
                continuable,
                Double.isNaN(next) ? null : Times.iso(next),
                settings.warnings());
    }

    private static Plan.PlanItem item(SessionRow s, Verdict v, String cascadeOf, AuditRequest req) {
        boolean executable =
                v.action().executable() && (!req.headless() || v.rule().equals("A"));
        return Plan.PlanItem.of(
                s.id(),
                s.id(),
                v.rule(),
                v.condition(),
                v.action().name(),
                v.confidence().name(),
                executable,
                v.reason().in(req.locale()),
                cascadeOf,
                v.topic(),
                fingerprint(s),
                v.base().name(),
                v.guarded(),
                s.place() == null ? null : s.store());
    }

    /**
     * Report groups per rule, in rule order; for a collapsed group ({@code collapsedLocale} set) the summary is its one line,
     * the status line when {@code status} (it asks nothing).
     */
    private static List<AuditResult.RuleGroup> ruleGroups(
            Map<String, Capped> byRule, String collapsedLocale, boolean status, RuleContext ctx) {
        List<AuditResult.RuleGroup> out = new ArrayList<>();
        byRule.entrySet().stream()
                .sorted(Comparator.comparingInt(e -> ruleIndex(e.getKey())))
                .forEach(e -> {
                    Rule r = Rules.byId(e.getKey());
                    Capped l = e.getValue();
                    String summary = status
                            ? ReportRenderer.statusLine(
                                    e.getKey(), l.count, ctx.activeCount(), ctx.threshold(), collapsedLocale)
                            : collapsedLocale != null
                                    ? ReportRenderer.collapsedLine(
                                            e.getKey(), l.count, ctx.activeCount(), ctx.threshold(), collapsedLocale)
                                    : r == null ? e.getKey() : r.meta().summary();
                    out.add(new AuditResult.RuleGroup(
                            e.getKey(), summary, l.count, List.copyOf(l.items), l.count - l.items.size()));
                });
        return out;
    }

    public static Plan.Fingerprint fingerprint(SessionRow s) {
        return new Plan.Fingerprint(
                s.title(),
                s.messageCount(),
                s.lastActivity(),
                s.endedAt(),
                s.archived(),
                s.place() == null ? null : s.place().sizeBytes());
    }

    private static AuditResult.Item toItem(
            Plan.PlanItem pi, SessionRow s, RuleContext ctx, TopicGroups groups, String locale) {
        AuditResult.Evidence ev = new AuditResult.Evidence(
                s.source(),
                s.title(),
                s.messageCount(),
                Times.iso(s.startedAt()),
                s.startedAt(),
                Times.iso(s.lastActivity()),
                s.lastActivity(),
                Times.iso(s.endedAt()),
                s.endedAt(),
                s.endReason(),
                s.archived(),
                s.parentSessionId(),
                ctx.children(s.id()).size(),
                s.group(),
                s.place() == null || s.place().exactCount());
        String cluster = groups.clusterOf(s.store(), s.id());
        String reason = pi.reason();
        if (cluster != null && pi.rule().equals("E"))
            reason += "zh".equals(locale) ? "（见主题分组 " + cluster + "）" : " (see topic group " + cluster + ")";
        return new AuditResult.Item(
                pi.item_id(),
                pi.session_id(),
                pi.rule(),
                pi.condition(),
                pi.action(),
                pi.confidence(),
                pi.executable(),
                reason,
                pi.cascade_of(),
                pi.question(),
                pi.held_by(),
                ev,
                s.store(),
                cluster,
                ctx.chainOf(s.id()));
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

    private static AuditResult.Expected expected(
            Collection<Plan.PlanItem> items, RuleContext ctx, int active, int total) {
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
    private static AuditResult.StoreOut storeOut(
            StoreAudit a,
            AuditResult.Totals totals,
            AuditResult.Expected ex,
            List<Plan.PlanItem> own,
            AuditRequest req,
            int cap) {
        if (!(a.source instanceof ClaudeSessions cs)) {
            return new AuditResult.StoreOut(
                    a.source.store(), a.source.location(), totals, a.current, ex, null, List.of(), 0, List.of());
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
                if (f != null && f.facts().cwd() != null)
                    cwd.putIfAbsent(s.group(), f.facts().cwd());
            }
        }
        for (Plan.PlanItem pi : own) {
            SessionRow s = a.ctx.session(pi.session_id());
            if (s != null) per.computeIfAbsent(s.group(), k -> new int[4])[3]++;
        }
        List<AuditResult.ProjectOut> projects = new ArrayList<>();
        per.forEach((p, c) -> projects.add(new AuditResult.ProjectOut(p, cwd.get(p), c[0], c[1], c[2], c[3])));
        projects.sort(Comparator.comparingInt(AuditResult.ProjectOut::items)
                .reversed()
                .thenComparing(Comparator.comparingInt(AuditResult.ProjectOut::sessions)
                        .reversed())
                .thenComparing(AuditResult.ProjectOut::project));
        List<String> warnings = cs.listing().warnings();
        List<String> shownWarnings = List.copyOf(warnings.subList(0, Math.min(cap, warnings.size())));
        return new AuditResult.StoreOut(
                a.source.store(),
                a.source.location(),
                totals,
                a.current,
                ex,
                req.idleSeconds() / 3600.0,
                List.copyOf(projects.subList(0, Math.min(cap, projects.size()))),
                Math.max(0, projects.size() - cap),
                shownWarnings);
    }

    private static final Map<String, Integer> RULE_INDEX = new HashMap<>();

    static {
        for (int i = 0; i < Rules.ORDERED.size(); i++)
            RULE_INDEX.put(Rules.ORDERED.get(i).id(), i);
    }

    static int ruleIndex(String id) {
        return RULE_INDEX.getOrDefault(id, Rules.ORDERED.size());
    }
}
