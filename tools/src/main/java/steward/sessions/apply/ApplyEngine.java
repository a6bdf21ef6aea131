package steward.sessions.apply;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import steward.StewardError;
import steward.Work;
import steward.claude.ClaudeHome;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.learning.DecisionEvent;
import steward.learning.LearningEngine;
import steward.learning.LearningReport;
import steward.learning.Level;
import steward.learning.Listing;
import steward.learning.Outcome;
import steward.learning.PreferenceStore;
import steward.learning.RuleKey;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.Plan;
import steward.sessions.audit.PlanStore;
import steward.sessions.audit.Times;
import steward.sessions.backup.SessionBackup;
import steward.sessions.rules.PreferenceRule;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.FtsIndex;
import steward.sessions.store.SessionHomes;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionSource;
import steward.sessions.store.SessionStore;
import steward.state.AtomicFiles;
import steward.state.Crashpoint;
import steward.text.CodePoints;
import steward.text.Numbers;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code session_apply}: loads a plan (single use, 24 h, same database), and under one
 * {@code BEGIN IMMEDIATE} transaction re-reads every affected session (skipping those changed since
 * the audit), writes and verifies the backup, moves side files into it, deletes / marks as ended /
 * renames, verifies the FTS tables and commits. Any failure before the commit changes nothing: the side files (and
 * a Claude Code part's files) go back and the backup written for it is removed, so session_restore never offers it.
 */
public final class ApplyEngine {
    public static final int MAX_LISTED = 200;
    public static final int MAX_TITLE = 100;
    static final String CTX = "session_apply";

    private final StewardPaths paths;
    private final Clock clock;

    public ApplyEngine(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
    }

    private Path callerCwd = Path.of(System.getProperty("user.dir"));
    private String store;
    private List<Plan.PlanItem> others = List.of();
    /** The items a compaction chain's answer decided besides the first of their chain: they teach nothing on their own. */
    private Set<String> chainFollowers = Set.of();

    private List<String> recovered = List.of();

    /** Only this home's items run ({@code hermes} or {@code claude}); the plan's other items are skipped. Null: all. */
    public ApplyEngine store(String store) {
        if (store != null && !SessionHomes.STORES.contains(store)) {
            throw new StewardError(CTX, "store must be hermes or claude, not " + store);
        }
        this.store = store;
        return this;
    }

    /** The working directory whose Claude Code project holds the current session (default: this process's). */
    public ApplyEngine callerCwd(Path cwd) {
        this.callerCwd = cwd;
        return this;
    }

    enum Op {
        DELETE,
        MARK_ENDED,
        RENAME
    }

    record Planned(Plan.PlanItem item, Op op, String newTitle, int depth) {}

    record Decision(List<Planned> run, List<ApplyResult.Skipped> skipped, ApplyResult.Counts before) {}

    public ApplyResult apply(ApplyRequest req) {
        return apply(req, Work.NONE);
    }

    /**
     * Progress goes to {@code work} (checking, backing up each session, the transaction, verifying); a cancellation is
     * honoured only before the transaction starts, when nothing has been written: once it runs, the apply finishes.
     */
    public ApplyResult apply(ApplyRequest req, Work work) {
        work.progress(0, 1, "checking plan " + req.planId());
        double now = Times.epoch(clock.instant());
        PlanStore plans = new PlanStore(paths.stateDir());
        ApplyJournal journal = new ApplyJournal(paths, clock);
        // an apply killed earlier (any process) is settled first, so that retrying its plan works: its side files go
        // where their sessions say, its plan is released or kept used (settling finishes that earlier call)
        this.recovered = !req.dryRun() && PlanStore.isPlanId(req.planId())
                ? journal.recover().notices()
                : List.of();
        Plan full = plans.load(req.planId(), now, this::currentKey);
        validate(full, req);
        this.chainFollowers = chainFollowers(full.items(), req);
        Plan plan = selected(full);
        this.others = full.items().stream()
                .filter(i -> store != null && !i.storeName().equals(store))
                .toList();
        List<Plan.PlanItem> claudeItems = itemsOf(plan, ClaudeSessions.STORE);
        // progress: checking, [moving the Claude Code files], backing up each Hermes session, the transaction,
        // verifying
        int steps = plan.items().size() + 3 + (claudeItems.isEmpty() ? 0 : 1);
        // a plan of Claude Code only never opens Hermes' state.db, even with nothing to do (there may be no Hermes
        // home)
        boolean hermes = plan.storeRefs().stream().anyMatch(r -> r.store().equals(SessionRow.HERMES));
        if (claudeItems.isEmpty() && hermes) {
            if (!req.dryRun()) work.checkpoint(CTX); // the last safe point: from here the apply runs to its end
            // the plan is claimed inside, after the journal is written, and released there when nothing was committed
            HermesPart h = applyHermes(
                    plan, req, now, null, plans, journal, req.dryRun() ? Work.NONE : work.pastSafePoint(), 0, steps);
            if (req.dryRun())
                return result(
                        plan,
                        true,
                        null,
                        h.d(),
                        h.d().before(),
                        false,
                        List.of(),
                        LearningReport.notRecorded("dry run"),
                        req);
            return result(plan, false, h.b(), h.d(), h.after(), h.fts(), h.checks(), learn(plan, req, h.d()), req);
        }
        ClaudeApplier claude = new ClaudeApplier(paths, clock, plan, claudeItems, callerCwd);
        if (req.dryRun()) {
            ClaudeApplier.Part cp = claude.decide(req);
            HermesPart h = hermes ? applyHermes(plan, req, now, null, plans, journal, Work.NONE, 0, steps) : null;
            Decision d = merge(h == null ? null : h.d(), cp.decision());
            return result(
                    plan, true, null, d, d.before(), false, List.of(), LearningReport.notRecorded("dry run"), req);
        }
        // the last safe point, before anything of either home is written: the Claude Code files move first, then
        // Hermes'
        // transaction runs; from here the apply runs to its end (a failure moves the Claude Code files back)
        work.checkpoint(CTX);
        Work rest = work.pastSafePoint();
        plans.claim(plan.plan_id());
        String backupId = SessionBackup.newId(clock.instant());
        ClaudeApplier.Part cp;
        if (!claudeItems.isEmpty())
            rest.progress(1, steps, "moving " + claudeItems.size() + " Claude Code sessions into the backup");
        try {
            cp = claude.execute(req, backupId);
        } catch (RuntimeException e) {
            plans.release(plan.plan_id());
            throw e;
        }
        HermesPart h = null;
        if (hermes) {
            try {
                h = applyHermes(plan, req, now, backupId, null, journal, rest, 1, steps);
            } catch (RuntimeException e) {
                // the Claude Code part is taken back too; its part of the backup goes only when all of it is back
                boolean back = claude.undo(cp);
                if (back) claude.discard(backupId, cp);
                plans.release(plan.plan_id());
                if (!back) throw failed(e, ClaudeApplier.notBack(backupId));
                throw e instanceof Failed ? e : failed(e, null);
            }
        }
        Decision d = merge(h == null ? null : h.d(), cp.decision());
        ApplyResult.Backup b = mergeBackup(h == null ? null : h.b(), cp.backup());
        List<ApplyResult.Check> checks = new ArrayList<>(h == null ? List.of() : h.checks());
        checks.addAll(cp.checks());
        ApplyResult.Counts after = h == null ? cp.after() : sum(h.after(), cp.after());
        rest.progress(steps, steps, "applied");
        return result(plan, false, b, d, after, h != null && h.fts(), checks, learn(plan, req, d), req);
    }

    /** The plan restricted to the selected store (its other items are reported as skipped). */
    private Plan selected(Plan p) {
        if (store == null) return p;
        if (p.storeRefs().stream().noneMatch(r -> r.store().equals(store))) {
            throw new StewardError(
                    CTX,
                    "plan " + p.plan_id() + " has no " + store + " store (its stores: "
                            + String.join(
                                    ", ",
                                    p.storeRefs().stream()
                                            .map(Plan.StoreRef::store)
                                            .toList()) + ")");
        }
        return new Plan(
                p.plan_id(),
                p.created_at(),
                p.created_at_epoch(),
                p.expires_at_epoch(),
                p.database(),
                p.database_key(),
                p.mode(),
                p.locale(),
                p.current_session_id(),
                p.current_found_by(),
                p.threshold(),
                itemsOf(p, store),
                p.report_text(),
                p.storeRefs().stream().filter(r -> r.store().equals(store)).toList());
    }

    /** The key each store of a plan has now, for binding the plan to the homes it was made for. */
    private String currentKey(String store, String location) {
        if (store.equals(ClaudeSessions.STORE)) {
            return paths.claudeHome() == null
                    ? null
                    : PlanStore.databaseKey(new ClaudeHome(paths.claudeHome()).projectsDir());
        }
        return PlanStore.databaseKey(paths.stateDb());
    }

    static List<Plan.PlanItem> itemsOf(Plan plan, String store) {
        return plan.items().stream().filter(i -> i.storeName().equals(store)).toList();
    }

    private static Decision merge(Decision a, Decision b) {
        if (a == null) return b;
        List<Planned> run = new ArrayList<>(a.run());
        run.addAll(b.run());
        List<ApplyResult.Skipped> skipped = new ArrayList<>(a.skipped());
        skipped.addAll(b.skipped());
        return new Decision(run, skipped, sum(a.before(), b.before()));
    }

    static ApplyResult.Counts sum(ApplyResult.Counts a, ApplyResult.Counts b) {
        return new ApplyResult.Counts(
                a.all() + b.all(),
                a.active() + b.active(),
                a.ended() + b.ended(),
                a.archived() + b.archived(),
                a.untitled() + b.untitled());
    }

    private static ApplyResult.Backup mergeBackup(ApplyResult.Backup a, ApplyResult.Backup b) {
        if (a == null) return b;
        if (b == null) return a;
        return new ApplyResult.Backup(
                a.backup_id(),
                a.path(),
                a.size_bytes() + b.size_bytes(),
                a.sessions() + b.sessions(),
                a.messages() + b.messages(),
                a.side_files() + b.side_files());
    }

    /** What the Hermes part of an apply did. */
    record HermesPart(
            Decision d, ApplyResult.Backup b, boolean fts, ApplyResult.Counts after, List<ApplyResult.Check> checks) {}

    /**
     * The Hermes part of a plan, in one transaction; a dry run only decides. {@code backupId}: the backup id shared with
     * the Claude Code part, or null for a new one. {@code plans}: claims the plan after the journal is begun (and
     * releases it when nothing was committed); null when the caller has claimed it already.
     */
    private HermesPart applyHermes(
            Plan plan,
            ApplyRequest req,
            double now,
            String sharedBackupId,
            PlanStore plans,
            ApplyJournal journal,
            Work work,
            int base,
            int steps) {
        try (SessionStore store = SessionStore.openReadWrite(paths.stateDb())) {
            if (req.dryRun()) {
                try {
                    Decision d = decide(store, store.connection(), plan, req);
                    checkRenames(store.connection(), d); // a dry run refuses what the apply would refuse
                    return new HermesPart(d, null, false, null, List.of());
                } catch (SQLException e) {
                    throw new StewardError(CTX, "cannot read the sessions: " + e.getMessage(), e);
                }
            }
            // never write through Hermes' triggers into a damaged search index (read-only check: Hermes keeps writing)
            FtsIndex.requireConsistent(paths.stateDb(), CTX);
            String backupId = sharedBackupId != null ? sharedBackupId : SessionBackup.newId(clock.instant());
            ApplyJournal.Entry entry = journal.begin(plan.plan_id(), backupId);
            List<Path[]> moved = new ArrayList<>();
            Object[] out = new Object[3];
            try {
                if (plans != null) plans.claim(plan.plan_id());
            } catch (RuntimeException e) {
                entry.close();
                throw e;
            }
            Crashpoint.reach("apply.claimed");
            try {
                store.write(c -> {
                    Decision d = decide(store, c, plan, req);
                    out[0] = d;
                    checkRenames(c, d);
                    out[1] = backup(c, d, now, moved, req, entry, work, base, steps);
                    work.progress(steps - 2, steps, "applying " + d.run().size() + " changes in one transaction");
                    out[2] = execute(c, d, now);
                    Crashpoint.reach("apply.before-commit");
                    return null;
                });
            } catch (RuntimeException e) {
                // rolled back: nothing of Hermes was changed, so nothing of what was written for it may stay behind
                boolean allBack = moveBack(moved);
                if (plans != null) plans.release(plan.plan_id());
                if (!allBack) {
                    entry.abandon(); // the next call puts the rest back and marks the backup as changing nothing
                    throw failed(
                            e,
                            "not every side file could be put back yet: they are in backup " + backupId
                                    + ", and the next session_apply or session_restore puts them back");
                }
                // its backup goes before the journal: a kill in between is settled by the next call as before
                discardHermesPart(backupId, plan.plan_id());
                entry.close();
                throw failed(e, null);
            }
            Crashpoint.reach("apply.committed");
            entry.write(ApplyJournal.Phase.COMMITTED, List.of(), List.of());
            entry.close();
            Decision d = (Decision) out[0];
            ApplyResult.Backup b = (ApplyResult.Backup) out[1];
            boolean fts = (Boolean) out[2];
            work.progress(steps - 1, steps, "verifying");
            ApplyResult.Counts after = counts(store.connection());
            List<ApplyResult.Check> checks = new ArrayList<>();
            checks.add(new ApplyResult.Check(
                    "active_within_threshold",
                    after.active() <= plan.threshold(),
                    "active " + d.before().active() + "→" + after.active() + " (threshold "
                            + Numbers.plain(plan.threshold()) + ")"));
            checks.add(new ApplyResult.Check(
                    "no_untitled_sessions", after.untitled() == 0, after.untitled() + " untitled sessions left"));
            checks.add(new ApplyResult.Check(
                    "backup",
                    b != null,
                    b == null
                            ? "nothing needed a backup"
                            : b.path() + " (" + b.size_bytes() + " bytes, " + b.sessions() + " sessions, "
                                    + b.messages() + " messages)"));
            checks.add(new ApplyResult.Check(
                    "fts_in_sync",
                    fts,
                    fts
                            ? "deleted messages no longer match in the FTS tables"
                            : "no deletion to verify or no FTS table"));
            FtsIndex.Report integrity = FtsIndex.check(paths.stateDb());
            checks.add(new ApplyResult.Check(
                    "fts_integrity",
                    integrity.ok(),
                    integrity.ok()
                            ? integrity.summary()
                            : "Hermes' search index is inconsistent (" + integrity.summary() + "). "
                                    + FtsIndex.REPAIR_HINT));
            return new HermesPart(d, b, fts, after, checks);
        } catch (SQLException e) {
            throw new StewardError(CTX, "cannot read the sessions: " + e.getMessage(), e);
        }
    }

    /** Bad input changes nothing: unknown items, rules or decision values, and malformed renames are refused up front. */
    static void validate(Plan plan, ApplyRequest req) {
        Set<String> itemIds = new HashSet<>();
        Set<String> rules = new HashSet<>();
        Set<String> sessionIds = new HashSet<>();
        for (Plan.PlanItem i : plan.items()) {
            itemIds.add(i.item_id());
            rules.add(i.rule());
            sessionIds.add(i.session_id());
            if (isGroupRename(i)) itemIds.add(i.topic()); // a topic group's id decides all its renames
            if (i.group() != null) itemIds.add(i.group()); // a report group's id decides the items counted in its line
            if (i.chain() != null) itemIds.add(i.chain()); // a compaction chain's id decides the whole chain
        }
        // a plan of an older Steward named a chain by its oldest session's id: an answer on that session would have
        // decided the whole chain
        for (Plan.PlanItem i : plan.items()) {
            if (i.chain() != null && sessionIds.contains(i.chain()))
                throw new StewardError(
                        CTX,
                        "plan " + plan.plan_id() + " names compaction chain " + i.chain()
                                + " by a session id (written by an older Steward): run session_audit again");
        }
        List<String> unknown = req.itemDecisions().keySet().stream()
                .filter(k -> !itemIds.contains(k))
                .sorted()
                .toList();
        if (!unknown.isEmpty())
            throw new StewardError(
                    CTX,
                    "decisions name items that are not in plan " + plan.plan_id() + ": " + String.join(", ", unknown));
        List<String> unknownRules = req.ruleDecisions().keySet().stream()
                .filter(k -> !rules.contains(k))
                .sorted()
                .toList();
        if (!unknownRules.isEmpty())
            throw new StewardError(
                    CTX,
                    "decisions name rules with no item in plan " + plan.plan_id() + ": "
                            + String.join(", ", unknownRules));
        Set<String> asked = new HashSet<>();
        for (Plan.PlanItem i : plan.items())
            if (i.cascade_of() == null && (i.coveredByRuleDecision() || isGroupRename(i))) asked.add(i.rule());
        List<String> unasked = req.ruleDecisions().keySet().stream()
                .filter(k -> !asked.contains(k))
                .sorted()
                .toList();
        if (!unasked.isEmpty()) {
            throw new StewardError(
                    CTX,
                    "decisions.rules names " + String.join(", ", unasked) + ", which asked no question in plan "
                            + plan.plan_id()
                            + ": a rule decision covers only the questions the report listed; decide an automatic or unlisted item by its item_id");
        }
        if (req.waiting() != null && !req.waiting().equals("later")) {
            throw new StewardError(CTX, "decisions.waiting must be 'later', not " + req.waiting());
        }
        for (Map<String, String> m : List.of(req.itemDecisions(), req.ruleDecisions())) {
            for (Map.Entry<String, String> e : m.entrySet()) {
                if (!e.getValue().equals("approve") && !e.getValue().equals("reject")) {
                    throw new StewardError(
                            CTX, "decision for " + e.getKey() + " must be approve or reject, not " + e.getValue());
                }
            }
        }
        for (Map.Entry<String, String> e : req.keepReasons().entrySet()) {
            if (!itemIds.contains(e.getKey()))
                throw new StewardError(
                        CTX, "keep reason names item " + e.getKey() + ", which is not in plan " + plan.plan_id());
            if (!e.getValue().equals("in_use") && !e.getValue().equals("want_kept")) {
                throw new StewardError(
                        CTX, "keep reason for " + e.getKey() + " must be in_use or want_kept, not " + e.getValue());
            }
        }
        Set<String> newTitles = new HashSet<>();
        for (Map.Entry<String, String> e : req.renames().entrySet()) {
            if (!sessionIds.contains(e.getKey()))
                throw new StewardError(
                        CTX, "rename names session " + e.getKey() + ", which is not an item of plan " + plan.plan_id());
            if (plan.items().stream()
                    .anyMatch(i ->
                            i.session_id().equals(e.getKey()) && i.storeName().equals(ClaudeSessions.STORE))) {
                throw new StewardError(
                        CTX,
                        "rename of " + e.getKey()
                                + ": Steward does not rename Claude Code sessions (use /rename in Claude Code)");
            }
            String t = e.getValue() == null ? "" : hermesTitle(e.getValue());
            if (t.isEmpty()) throw new StewardError(CTX, "rename of " + e.getKey() + ": the new title is empty");
            if (CodePoints.length(t) > MAX_TITLE)
                throw new StewardError(
                        CTX, "rename of " + e.getKey() + ": titles are at most " + MAX_TITLE + " characters");
            if (t.codePoints().anyMatch(cp -> Character.getType(cp) == Character.CONTROL))
                throw new StewardError(CTX, "rename of " + e.getKey() + ": the title contains control characters");
            if (!newTitles.add(t))
                throw new StewardError(CTX, "two renames ask for the same title '" + t + "' (titles are unique)");
        }
    }

    Decision decide(SessionStore store, Connection c, Plan plan, ApplyRequest req) throws SQLException {
        List<SessionRow> rows = store.listSessionsForAudit();
        Plan.StoreRef ref = plan.storeRefs().stream()
                .filter(r -> r.store().equals(SessionRow.HERMES))
                .findFirst()
                .orElse(plan.storeRefs().get(0));
        String inferred = AuditEngine.findCurrent(rows, null, CTX, Times.epoch(clock.instant()))
                .session_id();
        Decided dd = decide(rows, itemsOf(plan, SessionRow.HERMES), plan, req, currents(ref, req, inferred));
        return new Decision(dd.run(), dd.skipped(), counts(c));
    }

    /** The sessions apply must not touch as current: the audit's argument, the caller's, else the store's own guess now. */
    static Set<String> currents(Plan.StoreRef ref, ApplyRequest req, String inferred) {
        Set<String> currents = new HashSet<>();
        if ("argument".equals(ref.current_found_by()) && ref.current_session_id() != null)
            currents.add(ref.current_session_id());
        if (req.currentSessionId() != null) currents.add(req.currentSessionId());
        if (inferred != null && req.currentSessionId() == null) currents.add(inferred);
        return currents;
    }

    static final String CURRENT_PARENT = "its session became the current session";

    /** What runs and what is skipped (and why) of one store's {@code items}, given its sessions now. */
    record Decided(List<Planned> run, List<ApplyResult.Skipped> skipped) {}

    static Decided decide(
            List<SessionRow> rows, List<Plan.PlanItem> items, Plan plan, ApplyRequest req, Set<String> currents) {
        Map<String, SessionRow> byId = new HashMap<>();
        Map<String, List<String>> subChildren = new HashMap<>();
        for (SessionRow s : rows) byId.put(s.id(), s);
        for (SessionRow s : rows) {
            if (!s.subagent()) continue;
            Set<String> ps = new LinkedHashSet<>();
            if (s.parentSessionId() != null) ps.add(s.parentSessionId());
            String df = s.delegateFrom();
            if (df != null) ps.add(df);
            for (String p : ps)
                subChildren.computeIfAbsent(p, k -> new ArrayList<>()).add(s.id());
        }
        Map<String, List<String>> chainDeletes = new HashMap<>();
        for (Plan.PlanItem it : items) {
            if (it.chain() != null && it.cascade_of() == null && it.action().equals("delete")) {
                chainDeletes.computeIfAbsent(it.chain(), k -> new ArrayList<>()).add(it.item_id());
            }
        }
        List<ApplyResult.Skipped> skipped = new ArrayList<>();
        Map<String, Planned> run = new LinkedHashMap<>();
        Set<String> renamed = new HashSet<>();
        for (Plan.PlanItem it : items) {
            SessionRow s = byId.get(it.session_id());
            String reason = null;
            String dec = decision(it, req);
            String rename = req.renames().get(it.session_id());
            if (s == null) reason = "no longer exists";
            else if (currents.contains(s.id())) reason = "became the current session";
            else if (s.place() != null && s.subagent() && currents.contains(s.parentSessionId()))
                // as the audit's safety guard: a Claude Code subagent's transcript lives in its session's directory
                reason = CURRENT_PARENT;
            else if (!AuditEngine.fingerprint(s).equals(it.fingerprint())) reason = "changed since audit";
            else if (rename != null || isGroupRename(it) && "approve".equals(dec) && it.executable()) {
                if (!renamed.add(s.id())) reason = "renamed by another item of this plan";
                else {
                    run.put(
                            it.item_id(),
                            new Planned(it, Op.RENAME, hermesTitle(rename != null ? rename : it.new_title()), 0));
                    continue;
                }
            } else if ("reject".equals(dec)) reason = "rejected";
            else if (!it.executable()) {
                reason = it.action().equals("review")
                        ? "report only (review)"
                        : "report only in " + plan.mode() + " mode";
                if ("approve".equals(dec) && !it.rule().equals("E")) reason += ": approving it changes nothing";
            } else if (isGroupRename(it)) reason = "not approved (" + it.confidence() + ")";
            else if (it.cascade_of() != null) {
                // goes only with its parent: kept in the run for now, removed below unless the parent is deleted
            } else if (!"approve".equals(dec) && !it.confidence().equals("HIGH")) {
                reason = it.question() == null
                        ? "not approved (" + it.confidence() + ")"
                        : it.coveredByRuleDecision()
                                ? "not answered (" + it.confidence() + ")"
                                : switch (it.question()) {
                                    case "waiting" -> "still waiting for an answer";
                                    case "later" -> "put off until later";
                                    case "status" -> "not asked (rule D's status line)";
                                    default -> "not asked this run (over the question cap)";
                                };
            }
            if (reason != null) {
                skipped.add(new ApplyResult.Skipped(it.item_id(), it.session_id(), it.rule(), reason));
                continue;
            }
            Op op = it.action().equals("mark_ended") ? Op.MARK_ENDED : Op.DELETE;
            run.put(it.item_id(), new Planned(it, op, null, 0));
        }
        // a deletion takes its subagent children with it (as Hermes does): all of them must be deleted too,
        // and a child that is only in the plan because of its parent goes only with its parent
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Planned p : new ArrayList<>(run.values())) {
                if (p.op() != Op.DELETE) continue;
                String why = null;
                for (String child : subChildren.getOrDefault(p.item().session_id(), List.of())) {
                    Planned cp = run.get(child);
                    if (cp == null || cp.op() != Op.DELETE) {
                        why = "its subagent child " + child + " is not being deleted";
                        break;
                    }
                }
                String chain = p.item().chain();
                if (why == null && chain != null && p.item().cascade_of() == null) {
                    // a compaction chain is one conversation: deleted as a whole or not at all
                    List<String> members = chainDeletes.getOrDefault(chain, List.of());
                    for (String member : members) {
                        Planned mp = run.get(member);
                        if (mp == null || mp.op() != Op.DELETE) {
                            why = "deleted only together with its compaction chain " + chain + " ("
                                    + String.join(", ", members) + "; " + member + " is not being deleted): answer "
                                    + chain + " to decide the whole chain";
                            break;
                        }
                    }
                }
                String parent = p.item().cascade_of();
                if (why == null && parent != null) {
                    Planned pp = run.get(parent);
                    if (pp == null || pp.op() != Op.DELETE) why = "deleted only together with its parent " + parent;
                }
                if (why != null) {
                    run.remove(p.item().item_id());
                    skipped.add(new ApplyResult.Skipped(
                            p.item().item_id(), p.item().session_id(), p.item().rule(), why));
                    changed = true;
                }
            }
        }
        Set<String> deleted = new HashSet<>();
        for (Planned p : run.values())
            if (p.op() == Op.DELETE) deleted.add(p.item().session_id());
        for (Planned p : new ArrayList<>(run.values())) {
            if (p.op() == Op.RENAME && deleted.contains(p.item().session_id())) {
                run.remove(p.item().item_id());
                skipped.add(new ApplyResult.Skipped(
                        p.item().item_id(), p.item().session_id(), p.item().rule(), "deleted in this run"));
            }
        }
        List<Planned> out = new ArrayList<>();
        for (Planned p : run.values())
            out.add(new Planned(p.item(), p.op(), p.newTitle(), depth(p.item().session_id(), byId, run)));
        out.sort(Comparator.comparingInt(Planned::depth)
                .thenComparing(p -> p.item().session_id()));
        return new Decided(out, skipped);
    }

    /**
     * The user's decision about one item: its own (by item_id), else its report group's (by group id), else its rule group's when the report asked it as a
     * question (listed by name, or in a collapsed line). Automatic, report-only, unlisted and waiting items are never
     * covered by a rule decision, and an item that goes with its parent follows the parent.
     */
    static String decision(Plan.PlanItem it, ApplyRequest req) {
        Answer a = answer(it, req);
        return a == null ? null : a.value();
    }

    /**
     * The answer that decided an item: {@code by} the id answered (its own item id, its report group's, its topic
     * group's, its compaction chain's, or its rule's), {@code kind} which of those ({@code item}, {@code group},
     * {@code topic}, {@code chain}, {@code rule}), {@code value} approve/reject/…; null when nothing decided it.
     */
    record Answer(String by, String kind, String value) {}

    static Answer answer(Plan.PlanItem it, ApplyRequest req) {
        String d = req.itemDecisions().get(it.item_id());
        if (d != null) return new Answer(it.item_id(), "item", d);
        // the report's group line (q1, …): only items counted in that line carry its id (see DecisionGroups); an
        // automatic
        // group's approval changes nothing (it runs anyway), its rejection keeps every item of it
        if (it.group() != null && it.cascade_of() == null) {
            d = req.itemDecisions().get(it.group());
            if (d != null && (it.coveredByRuleDecision() || d.equals("reject")))
                return new Answer(it.group(), "group", d);
        }
        if (isGroupRename(it)) {
            // a rule G rename is approved by its own id, its topic group's id, or rule G as a whole
            d = req.itemDecisions().get(it.topic());
            if (d != null) return new Answer(it.topic(), "topic", d);
            d = req.ruleDecisions().get(it.rule());
            return d == null ? null : new Answer(it.rule(), "rule", d);
        }
        if (it.chain() != null && it.cascade_of() == null && it.action().equals("delete")) {
            // a compaction chain's deletion is decided as a whole by the chain's own id (c1, …), shown on the chain's
            // line with its members: never by one member's session id
            d = req.itemDecisions().get(it.chain());
            if (d != null) return new Answer(it.chain(), "chain", d);
        }
        d = it.cascade_of() == null && it.coveredByRuleDecision()
                ? req.ruleDecisions().get(it.rule())
                : null;
        return d == null ? null : new Answer(it.rule(), "rule", d);
    }

    /**
     * The items decided by a compaction chain's id (or by the report line of chains that counted them) other than the
     * first of each chain that teaches its rule condition (in {@code items}' order; not rule F or S, not asked for the
     * subagents it takes along): one answer on a chain is one approval (or veto) for learning, not one per member.
     */
    static Set<String> chainFollowers(Collection<Plan.PlanItem> items, ApplyRequest req) {
        Set<String> seen = new HashSet<>(), out = new HashSet<>();
        for (Plan.PlanItem it : items) {
            if (it.chain() == null) continue;
            if (it.rule().equals("F")
                    || it.rule().equals("S")
                    || (it.held_by() != null && !it.held_by().isEmpty())) continue;
            Answer a = answer(it, req);
            // the chain's own id, or the report line of chains that counted it: one answer on one conversation
            if (a != null && (a.kind().equals("chain") || a.kind().equals("group")) && !seen.add(it.chain()))
                out.add(it.item_id());
        }
        return out;
    }

    /**
     * The user approved it and the approval taught its rule condition (LearningEngine counts it): asked on its own (not
     * going along with a parent, not asked because of the subagents it takes along), not rule F, not HIGH. Restoring such
     * a deletion takes the approval back (Outcome.WITHDRAWN).
     */
    static boolean approvalTaught(Plan.PlanItem it, ApplyRequest req, Set<String> chainFollowers) {
        return "approve".equals(decision(it, req))
                && !chainFollowers.contains(it.item_id())
                && it.cascade_of() == null
                && (it.held_by() == null || it.held_by().isEmpty())
                && !it.rule().equals("F")
                && !it.confidence().equals("HIGH");
    }

    /** Ran without being asked: no decision of the user's and HIGH (or going with such a parent). */
    static boolean automatic(Planned p, ApplyRequest req) {
        return p.op() != Op.RENAME
                && req.itemDecisions().get(p.item().item_id()) == null
                && decision(p.item(), req) == null
                && p.item().automatic();
    }

    /**
     * A title as Hermes' own {@code set_session_title} stores it ({@code SessionDB.sanitize_title}): the invisible
     * characters it removes (zero-width, bidi overrides and isolates, line and paragraph separators, BOM, object
     * replacement) removed, whitespace runs collapsed to one space, stripped. The ASCII control characters it also
     * removes (all but tab, line feed and carriage return) are kept here: the caller refuses them.
     */
    static String hermesTitle(String raw) {
        StringBuilder sb = new StringBuilder(raw.length());
        boolean gap = false;
        for (int i = 0; i < raw.length(); ) {
            int cp = raw.codePointAt(i);
            i += Character.charCount(cp);
            if ((cp >= 0x200B && cp <= 0x200F)
                    || (cp >= 0x2028 && cp <= 0x202E)
                    || (cp >= 0x2060 && cp <= 0x2069)
                    || cp == 0xFEFF
                    || cp == 0xFFFC
                    || (cp >= 0xFFF9 && cp <= 0xFFFB)) continue;
            boolean control = cp <= 0x1F && cp != '\t' && cp != '\n' && cp != '\r' || cp == 0x7F;
            if (!control && CodePoints.isPythonWhitespace(cp)) {
                gap = sb.length() > 0;
                continue;
            }
            if (gap) sb.append(' ');
            gap = false;
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    /** A rule G item: a topic group's proposed title (its {@code topic} is the group's id). */
    static boolean isGroupRename(Plan.PlanItem it) {
        return "G".equals(it.rule()) && "rename".equals(it.action()) && it.new_title() != null && it.topic() != null;
    }

    private static int depth(String id, Map<String, SessionRow> byId, Map<String, Planned> run) {
        int d = 0;
        Set<String> seen = new HashSet<>();
        SessionRow s = byId.get(id);
        while (s != null && s.parentSessionId() != null && run.containsKey(s.parentSessionId()) && seen.add(s.id())) {
            d++;
            s = byId.get(s.parentSessionId());
        }
        return d;
    }

    private static void checkRenames(Connection c, Decision d) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM sessions WHERE title = ? AND id != ?")) {
            for (Planned p : d.run()) {
                if (p.op() != Op.RENAME) continue;
                ps.setString(1, p.newTitle());
                ps.setString(2, p.item().session_id());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        throw new StewardError(
                                CTX,
                                "rename of " + p.item().session_id() + ": the title '" + p.newTitle()
                                        + "' is already used by session " + rs.getString(1)
                                        + " (titles are unique); nothing was changed");
                    }
                }
            }
        }
    }

    private ApplyResult.Backup backup(
            Connection c,
            Decision d,
            double now,
            List<Path[]> moved,
            ApplyRequest req,
            ApplyJournal.Entry entry,
            Work work,
            int base,
            int steps)
            throws SQLException {
        List<ApplyJournal.Op> ops = new ArrayList<>();
        for (Planned p : d.run()) {
            ops.add(new ApplyJournal.Op(
                    p.item().session_id(),
                    p.op().name().toLowerCase(Locale.ROOT),
                    p.newTitle(),
                    p.op() == Op.MARK_ENDED ? now : null));
        }
        if (d.run().isEmpty()) {
            entry.write(ApplyJournal.Phase.PREPARED, ops, List.of());
            return null;
        }
        int done = 0;
        SessionBackup bk = new SessionBackup(paths.stateDir());
        String id = entry.backupId();
        List<ObjectNode> lines = new ArrayList<>();
        Map<Path, Path> sideMoves = new LinkedHashMap<>();
        Map<Path, String> owner = new HashMap<>();
        SessionBackup.SideFileIndex sides;
        try {
            sides = SessionBackup.SideFileIndex.of(paths.hermesHome()); // one listing, not one per deleted session
        } catch (IOException e) {
            throw new StewardError(
                    CTX, "backup failed, nothing was changed: cannot list side files: " + e.getMessage(), e);
        }
        Map<String, List<String>> orphans = orphans(c, d);
        for (Planned p : d.run()) {
            ObjectNode note = Json.MAPPER.createObjectNode();
            note.put("backup_id", id);
            note.put("action", p.op().name().toLowerCase(Locale.ROOT));
            note.put("rule", p.item().rule());
            note.put("condition", p.item().key());
            note.put("item_id", p.item().item_id());
            note.put("automatic", automatic(p, req));
            note.put("confidence", p.item().confidence());
            note.put("approved", approvalTaught(p.item(), req, chainFollowers));
            note.put("base", p.item().base());
            note.put("at", Times.iso(now));
            if (p.op() == Op.MARK_ENDED) note.put("ended_at", now);
            if (p.op() == Op.RENAME) note.put("new_title", p.newTitle());
            ArrayNode files = note.putArray("side_files");
            if (p.op() == Op.DELETE) {
                // the children this deletion leaves (a branch, a session the user kept): orphaned as Hermes' own delete
                // does, linked again by a restore
                ArrayNode orphaned = note.putArray("orphaned");
                for (String k : orphans.getOrDefault(p.item().session_id(), List.of())) orphaned.add(k);
                for (Path f : sides.of(p.item().session_id())) {
                    files.add(f.getFileName().toString());
                    sideMoves.put(f, bk.filesDir(id).resolve(f.getFileName().toString()));
                    owner.put(f, p.item().session_id()); // the last deleted session that names it, as before
                }
            }
            if (done++ % 50 == 0)
                work.progress(base + done, steps, "backing up " + d.run().size() + " sessions");
            ObjectNode line = SessionBackup.exportLine(c, p.item().session_id(), note);
            if (line == null)
                throw new StewardError(
                        CTX, "session " + p.item().session_id() + " vanished during apply; nothing was changed");
            lines.add(line);
        }
        SessionBackup.Written w = bk.write(id, lines);
        Crashpoint.reach("apply.backup-written");
        // the journal lists every move before the first one: a kill from here on is settled by the next call
        List<ApplyJournal.Move> moves = new ArrayList<>();
        for (Map.Entry<Path, Path> e : sideMoves.entrySet()) {
            moves.add(new ApplyJournal.Move(
                    owner.get(e.getKey()), e.getKey().toString(), e.getValue().toString()));
        }
        entry.write(ApplyJournal.Phase.PREPARED, ops, moves);
        Crashpoint.reach("apply.prepared");
        for (Map.Entry<Path, Path> e : sideMoves.entrySet()) {
            try {
                AtomicFiles.ensurePrivateDir(e.getValue().getParent());
                Files.move(e.getKey(), e.getValue(), StandardCopyOption.ATOMIC_MOVE);
                moved.add(new Path[] {e.getKey(), e.getValue()});
                Crashpoint.reach("apply.moved-one");
            } catch (IOException ex) {
                throw new StewardError(
                        CTX,
                        "cannot move side file " + e.getKey() + " into the backup: " + ex.getMessage()
                                + "; nothing was changed",
                        ex);
            }
        }
        Crashpoint.reach("apply.moved");
        return new ApplyResult.Backup(
                w.backup_id(), w.path(), w.size_bytes(), w.sessions(), w.messages(), sideMoves.size());
    }

    /**
     * The children each deletion of {@code d} leaves behind (not deleted with it): Hermes' own delete orphans them
     * ({@code parent_session_id} → NULL), since a row pointing at a deleted session fails Hermes' foreign key check on
     * its next upsert of that row.
     */
    private static Map<String, List<String>> orphans(Connection c, Decision d) throws SQLException {
        Set<String> deleted = new HashSet<>();
        for (Planned p : d.run()) if (p.op() == Op.DELETE) deleted.add(p.item().session_id());
        Map<String, List<String>> out = new HashMap<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT id FROM sessions WHERE parent_session_id = ? ORDER BY id")) {
            for (String id : deleted) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String k = rs.getString(1);
                        if (!deleted.contains(k))
                            out.computeIfAbsent(id, x -> new ArrayList<>()).add(k);
                    }
                }
            }
        }
        return out;
    }

    /**
     * Puts moved side files back after a rollback; false when one could not be moved, or something took its place
     * meanwhile (the moved one stays in the backup; the journal keeps it for later).
     */
    static boolean moveBack(List<Path[]> moved) {
        boolean all = true;
        for (Path[] m : moved) {
            try {
                if (!Files.exists(m[0])) Files.move(m[1], m[0], StandardCopyOption.ATOMIC_MOVE);
                if (Files.exists(m[1])) all = false;
            } catch (IOException e) {
                all = false;
            }
        }
        return all;
    }

    /**
     * Removes the Hermes part of backup {@code id} after its transaction rolled back with every side file back: it holds
     * no session that was deleted, and session_restore must not offer it. Where it cannot be removed it is marked as
     * changing nothing (unless a Claude Code part shares it: that part is taken back, and removed, on its own).
     */
    private void discardHermesPart(String id, String planId) {
        SessionBackup bk = new SessionBackup(paths.stateDir());
        try {
            bk.discardUnapplied(id, true, null);
        } catch (IOException e) {
            try {
                if (Files.exists(bk.file(id)) && !Files.exists(bk.claudeFile(id)))
                    bk.markInterrupted(
                            id, "written by a session_apply of plan " + planId + " that failed and changed nothing");
            } catch (IOException ignored) {
                // a backup of sessions that all exist: restoring it finds each of them there
            }
        }
    }

    /**
     * The error of an apply that failed after it began writing: {@code session_apply: <cause>}, then that nothing was
     * changed, or ({@code left}) what is still to be put back.
     */
    static StewardError failed(RuntimeException e, String left) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (m.startsWith(CTX + ": ")) m = m.substring(CTX.length() + 2);
        if (left != null)
            return new Failed(m.replace("nothing was changed", "state.db was not changed") + "; " + left, e);
        return new Failed(m.contains("nothing was changed") ? m : m + "; nothing was changed", e);
    }

    /** An error {@link #failed} made: it already says what the failure left. */
    static final class Failed extends StewardError {
        private static final long serialVersionUID = 1L;

        Failed(String cause, Throwable underlying) {
            super(CTX, cause, underlying);
        }
    }

    /** Runs the operations; returns whether FTS was verified for deleted messages. */
    private static boolean execute(Connection c, Decision d, double now) throws SQLException {
        List<Long> deletedMessageIds = new ArrayList<>();
        boolean usage = SessionBackup.hasTable(c, "session_model_usage");
        List<Planned> deletes = d.run().stream()
                .filter(p -> p.op() == Op.DELETE)
                .sorted(Comparator.comparingInt(Planned::depth).reversed())
                .toList();
        try (PreparedStatement ids = c.prepareStatement("SELECT id FROM messages WHERE session_id = ?");
                PreparedStatement dm = c.prepareStatement("DELETE FROM messages WHERE session_id = ?");
                PreparedStatement du =
                        usage ? c.prepareStatement("DELETE FROM session_model_usage WHERE session_id = ?") : null;
                PreparedStatement ds = c.prepareStatement("DELETE FROM sessions WHERE id = ?")) {
            for (Planned p : deletes) {
                String sid = p.item().session_id();
                ids.setString(1, sid);
                try (ResultSet rs = ids.executeQuery()) {
                    while (rs.next()) deletedMessageIds.add(rs.getLong(1));
                }
                dm.setString(1, sid);
                dm.executeUpdate();
                if (du != null) {
                    du.setString(1, sid);
                    du.executeUpdate();
                }
                ds.setString(1, sid);
                if (ds.executeUpdate() != 1)
                    throw new StewardError(CTX, "session " + sid + " could not be deleted; nothing was changed");
            }
        }
        // what still points at a deleted session is a child it leaves (listed in the backup): orphaned, as Hermes does
        try (PreparedStatement orphan =
                c.prepareStatement("UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = ?")) {
            for (Planned p : deletes) {
                orphan.setString(1, p.item().session_id());
                orphan.executeUpdate();
            }
        }
        try (PreparedStatement me = c.prepareStatement(
                        "UPDATE sessions SET ended_at = ?, end_reason = 'housekeeping' WHERE id = ? AND ended_at IS NULL");
                PreparedStatement rn = c.prepareStatement("UPDATE sessions SET title = ? WHERE id = ?")) {
            for (Planned p : d.run()) {
                if (p.op() == Op.MARK_ENDED) {
                    me.setDouble(1, now);
                    me.setString(2, p.item().session_id());
                    me.executeUpdate();
                } else if (p.op() == Op.RENAME) {
                    rn.setString(1, p.newTitle());
                    rn.setString(2, p.item().session_id());
                    rn.executeUpdate();
                }
            }
        }
        boolean verified = false;
        for (String fts : List.of("messages_fts", "messages_fts_trigram")) {
            if (deletedMessageIds.isEmpty() || !SessionBackup.hasTable(c, fts)) continue;
            try (PreparedStatement q = c.prepareStatement("SELECT COUNT(*) FROM " + fts + " WHERE rowid = ?")) {
                for (long id : deletedMessageIds) {
                    q.setLong(1, id);
                    try (ResultSet rs = q.executeQuery()) {
                        if (rs.next() && rs.getLong(1) != 0) {
                            throw new StewardError(
                                    CTX,
                                    "deleted message " + id + " still matches in " + fts
                                            + " (Hermes' FTS triggers missing?); rolled back, nothing was changed");
                        }
                    }
                }
            }
            verified = true;
        }
        return verified;
    }

    public static ApplyResult.Counts counts(Connection c) throws SQLException {
        // archived is one of the columns a schema may lack (SessionStore reads it as optional)
        String archived =
                SessionStore.columns(c, "sessions").contains("archived") ? "COALESCE(SUM(archived != 0), 0)" : "0";
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*), COALESCE(SUM(ended_at IS NULL), 0), " + archived
                        + ", COALESCE(SUM(title IS NULL OR trim(title) = ''), 0) FROM sessions")) {
            rs.next();
            int all = rs.getInt(1);
            int active = rs.getInt(2);
            return new ApplyResult.Counts(all, active, all - active, rs.getInt(3), rs.getInt(4));
        }
    }

    /**
     * Records the user's decisions in the learning store (steward.learning): every plan item the user decided, that ran
     * or that was asked becomes a DecisionEvent — APPROVED (explicitly, by item or by the rule group it was asked in),
     * VETOED (rejected: the user kept it; with the keep reason if given), RENAMED, RAN_AUTOMATICALLY (a HIGH item that ran
     * unasked: never an approval), UNANSWERED (asked, no answer: it waits), LATER. Approving a report-only item records
     * nothing. A deletion asked only because of its subagent children teaches about that session, not its condition.
     * Items skipped because they changed since the audit teach nothing; an F item (the user's earlier word on the session)
     * teaches only when rejected or renamed, and then only about its session. A corrupt or unwritable store
     * pauses learning, never the apply.
     */
    private LearningReport learn(Plan plan, ApplyRequest req, Decision d) {
        if ("headless".equals(plan.mode())) {
            // nobody was there to answer: silence is never approval, and an unanswered question teaches nothing
            return LearningReport.notRecorded("headless run: nobody answered, so nothing is learned");
        }
        Map<String, Planned> ran = new HashMap<>();
        for (Planned p : d.run()) ran.put(p.item().item_id(), p);
        Map<String, String> skipped = new HashMap<>();
        for (ApplyResult.Skipped s : d.skipped()) skipped.put(s.item_id(), s.reason());
        List<DecisionEvent> events = new ArrayList<>();
        Set<String> open = new HashSet<>();
        for (Plan.PlanItem it : plan.items()) {
            if (it.asked() || "not_asked".equals(it.question())) open.add(it.session_id() + "|" + it.key());
            String skip = skipped.get(it.item_id());
            if (it.rule().equals("S") || isGroupRename(it)) continue;
            // rule F is what the user said before about this very session: no rule condition learns from it, but a
            // rejection (or a rename) of it is their word on the session now, and withdraws the earlier "delete it"
            boolean earlierWord = it.rule().equals("F");
            if (skip != null
                    && (skip.equals("changed since audit")
                            || skip.equals("no longer exists")
                            || skip.equals("became the current session")
                            || skip.equals(CURRENT_PARENT))) continue;
            String dec = decision(it, req);
            Planned p = ran.get(it.item_id());
            boolean rejected = "reject".equals(dec);
            Outcome o;
            if (p != null && p.op() == Op.RENAME) o = Outcome.RENAMED;
            else if (it.cascade_of() != null) {
                if (!rejected) continue; // goes with its parent: the parent's answer teaches
                o = Outcome.VETOED;
            } else if ("approve".equals(dec)) {
                if (it.reportOnly()) continue; // nothing was asked: approving it is not "delete asked for"
                o = Outcome.APPROVED;
            } else if (rejected) {
                if (it.action().equals("review")) {
                    if (!it.rule().equals("E") || it.topic() == null) continue; // "leave it" is no veto
                    o = Outcome.NOT_YET; // "not consolidated yet": an answer about the topic, no veto
                } else o = Outcome.VETOED;
            } else if (p != null) {
                if (!it.automatic()) continue;
                o = Outcome.RAN_AUTOMATICALLY;
            } else if (it.asked()) {
                boolean later = "later".equals(req.waiting())
                        && (it.question().equals("waiting")
                                || it.question().equals("later")
                                || it.question().equals("collapsed"));
                if (it.question().equals("later") && !later) continue; // put off before: still put off
                o = later ? Outcome.LATER : Outcome.UNANSWERED;
            } else continue;
            if (earlierWord && o != Outcome.VETOED && o != Outcome.RENAMED) continue;
            String condition = RuleKey.condition(it.key());
            String action = it.action().equals("name_or_delete") ? "delete" : it.action();
            String keepReason = o == Outcome.VETOED
                    ? req.keepReasons()
                            .getOrDefault(
                                    it.item_id(),
                                    it.group() == null
                                            ? null
                                            : req.keepReasons().get(it.group()))
                    : null;
            boolean sessionOnly = earlierWord
                    || chainFollowers.contains(it.item_id()) // one answer on a chain teaches once, not per member
                    || it.cascade_of() != null
                    || (it.held_by() != null && !it.held_by().isEmpty());
            Level base = it.base() == null ? Level.valueOf(it.confidence()) : Level.valueOf(it.base());
            events.add(new DecisionEvent(
                    it.session_id(),
                    it.fingerprint().title(),
                    it.rule(),
                    condition,
                    Level.valueOf(it.confidence()),
                    action,
                    o,
                    keepReason,
                    it.topic(),
                    base,
                    it.question(),
                    sessionOnly,
                    it.guarded(),
                    p != null && p.op() != Op.RENAME,
                    p != null && p.op() == Op.RENAME ? p.newTitle() : null,
                    new DecisionEvent.Seen(
                            it.fingerprint().message_count(),
                            it.fingerprint().last_activity_epoch(),
                            it.fingerprint().ended_at_epoch() != null)));
            // a deletion asked because of the subagents it would take along also teaches how the user answers for that
            // kind of
            // subagent (<rule>/with_<kind>) — only when all of them are of one kind, so the answer is about that kind
            if ((o == Outcome.APPROVED || o == Outcome.VETOED)
                    && !earlierWord
                    && it.cascade_of() == null
                    && it.along() != null
                    && it.along().size() == 1
                    && it.held_by() != null
                    && !it.held_by().isEmpty()) {
                String kind = RuleKey.ALONG_PREFIX + it.along().get(0);
                events.add(new DecisionEvent(
                        it.session_id(),
                        it.fingerprint().title(),
                        it.rule(),
                        kind,
                        Level.MEDIUM,
                        action,
                        o,
                        keepReason,
                        null,
                        Level.MEDIUM,
                        it.question(),
                        false,
                        false,
                        false,
                        null,
                        null));
            }
        }
        LearningEngine.Summary s = new LearningEngine(new PreferenceStore(paths.stateDir(), clock), clock)
                .record(plan.plan_id(), events, open, listing(plan));
        return LearningReport.of(s);
    }

    /**
     * Every home's sessions as they are after this apply, for the user's earlier delete requests (rule F): one whose
     * session is gone or changed since they asked is marked stale, and dropped after a few such runs. Null when a home
     * cannot be read: then no request is judged.
     */
    private Listing listing(Plan plan) {
        try {
            Double idle = plan.storeRefs().stream()
                    .filter(r -> r.store().equals(ClaudeSessions.STORE) && r.idle_seconds() != null)
                    .map(Plan.StoreRef::idle_seconds)
                    .findFirst()
                    .orElse(ClaudeSessions.DEFAULT_IDLE_SECONDS);
            List<SessionSource> homes = SessionHomes.open(
                    paths, null, new ClaudeSessions.Options(Times.epoch(clock.instant()), idle, callerCwd, true), CTX);
            Map<String, Listing.Now> now = new HashMap<>();
            for (SessionSource home : homes) for (SessionRow r : home.rows()) now.put(r.id(), PreferenceRule.now(r));
            return new Listing(now, true);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private ApplyResult result(
            Plan plan,
            boolean dry,
            ApplyResult.Backup b,
            Decision d,
            ApplyResult.Counts after,
            boolean fts,
            List<ApplyResult.Check> checks,
            LearningReport learning,
            ApplyRequest req) {
        if (!others.isEmpty()) {
            List<ApplyResult.Skipped> skipped = new ArrayList<>(d.skipped());
            for (Plan.PlanItem it : others) {
                skipped.add(new ApplyResult.Skipped(
                        it.item_id(), it.session_id(), it.rule(), "not in the selected store (" + store + ")"));
            }
            d = new Decision(d.run(), skipped, d.before());
        }
        return resultOf(plan, dry, b, d, after, fts, checks, learning, req);
    }

    private ApplyResult resultOf(
            Plan plan,
            boolean dry,
            ApplyResult.Backup b,
            Decision d,
            ApplyResult.Counts after,
            boolean fts,
            List<ApplyResult.Check> checks,
            LearningReport learning,
            ApplyRequest req) {
        List<ApplyResult.Done> done = d.run().stream()
                .map(p -> {
                    // an answer that was not the item's own id (a group, topic, chain or rule answer) is named, so
                    // the result says which one answer covered several sessions, and why
                    Answer a = answer(p.item(), req);
                    boolean other = a != null && !a.kind().equals("item");
                    return new ApplyResult.Done(
                            p.item().item_id(),
                            p.item().session_id(),
                            p.item().rule(),
                            p.op().name().toLowerCase(Locale.ROOT),
                            p.newTitle(),
                            other ? a.by() : null,
                            other ? a.kind() : null);
                })
                .toList();
        String backupId = b == null ? "<backup_id>" : b.backup_id();
        List<ApplyResult.Auto> auto = d.run().stream()
                .filter(p -> automatic(p, req))
                .map(p -> new ApplyResult.Auto(
                        p.item().item_id(),
                        p.item().session_id(),
                        p.item().key(),
                        p.op().name().toLowerCase(Locale.ROOT),
                        undo(backupId, p.item().session_id())))
                .toList();
        return new ApplyResult(
                plan.plan_id(),
                dry,
                b,
                done.size(),
                List.copyOf(done.subList(0, Math.min(MAX_LISTED, done.size()))),
                Math.max(0, done.size() - MAX_LISTED),
                d.skipped().size(),
                List.copyOf(
                        d.skipped().subList(0, Math.min(MAX_LISTED, d.skipped().size()))),
                Math.max(0, d.skipped().size() - MAX_LISTED),
                auto.size(),
                List.copyOf(auto.subList(0, Math.min(MAX_LISTED, auto.size()))),
                Math.max(0, auto.size() - MAX_LISTED),
                d.before(),
                after,
                fts,
                checks,
                learning,
                recovered);
    }

    /** The one-line undo of one executed item. */
    public static String undo(String backupId, String sessionId) {
        return "session_restore {\"backup_id\": \"" + backupId + "\", \"session_ids\": [\"" + sessionId + "\"]}";
    }
}
