package steward.server.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import steward.StewardError;
import steward.json.Json;
import steward.retention.Retention;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.maintenance.StateVacuum;
import steward.sessions.store.ClaudeSessions;
import tools.jackson.databind.node.ObjectNode;

/** {@code session_apply}: carry out an audit plan with the user's decisions, after a verified backup. */
public final class SessionApplyTool extends StewardTool<SessionApplyTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "session_apply",
                    "Apply a session housekeeping plan",
                    "Carries out a session_audit plan with the user's decisions: deletes (with subagent children), marks "
                            + "ended, renames. HIGH items run unless rejected, others only if approved; silence is never approval; "
                            + "report-only items can't be approved. Backs up first, skips what changed since the audit, returns undos. "
                            + "dry_run previews. Refuses used, expired (24 h) or foreign plans. vacuum: true (asked; plan optional): "
                            + "backup, then VACUUM state.db.")
            .destructive();

    /** schemas/session_apply.input.json. */
    public record Args(
            String plan_id,
            Decisions decisions,
            Map<String, String> renames,
            Boolean dry_run,
            String current_session_id,
            String store,
            Boolean vacuum) {
        public Args {
            if (vacuum == null) vacuum = false;
            if (decisions == null) decisions = new Decisions(null, null, null, null);
            if (dry_run == null) dry_run = false;
        }
    }

    /**
     * The user's answers: item id or rule id → approve/reject (a rule covers only its listed questions), item id → why a
     * rejected session is kept, and waiting = "later" to put off the questions still waiting.
     */
    public record Decisions(
            Map<String, String> items, Map<String, String> rules, Map<String, String> keep_reasons, String waiting) {}

    public SessionApplyTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        if (a.vacuum() && ClaudeSessions.STORE.equals(a.store())) {
            throw new StewardError(
                    "session_apply",
                    "vacuum compacts Hermes' state.db; the Claude Code store has none (leave store out)");
        }
        if (a.plan_id() == null) {
            if (!a.vacuum())
                throw new StewardError(
                        "session_apply", "plan_id is required (from session_audit), unless vacuum is true");
            StateVacuum.Result v = new StateVacuum(ctx.paths(), ctx.clock()).run(a.dry_run(), ctx.work());
            return ToolResult.ok(Map.of("vacuum", v), renderVacuum(v));
        }
        ToolResult applied = applyPlan(a, ctx);
        if (!a.vacuum() || applied.isError()) return applied;
        // the plan's changes are committed and reported whatever the vacuum does; its failure is reported beside them
        StateVacuum.Result v;
        try {
            v = new StateVacuum(ctx.paths(), ctx.clock()).run(a.dry_run(), ctx.work());
        } catch (StewardError e) {
            v = StateVacuum.failed(e.getMessage());
        }
        ObjectNode out = Json.MAPPER.valueToTree(applied.structured());
        out.set("vacuum", Json.MAPPER.valueToTree(v));
        return ToolResult.ok(out, applied.text() + "\n" + renderVacuum(v));
    }

    /** The vacuum's outcome in a few lines: what it freed (or why not), the copy, the checks. */
    static String renderVacuum(StateVacuum.Result v) {
        StringBuilder sb = new StringBuilder("Vacuum: ").append(v.message());
        if (v.outcome().equals("vacuumed")) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%n  verified copy: %s (%,d bytes, %.1f s; the newest is kept)",
                    v.backup_path(),
                    v.backup_bytes(),
                    v.backup_seconds()));
        }
        for (String w : v.warnings()) sb.append("\n  warning: ").append(w);
        return sb.toString();
    }

    private ToolResult applyPlan(Args a, ToolContext ctx) {
        Decisions d = a.decisions();
        ApplyRequest req = new ApplyRequest(
                a.plan_id(),
                Arguments.map(d.items()),
                Arguments.map(d.rules()),
                Arguments.map(a.renames()),
                a.dry_run(),
                a.current_session_id(),
                Arguments.map(d.keep_reasons()),
                d.waiting());
        ApplyResult r =
                new ApplyEngine(ctx.paths(), ctx.clock()).store(a.store()).apply(req, ctx.work());
        String text = render(r);
        if (!r.dry_run() && r.backup() != null)
            text += retention(ctx); // prune on save, as plans and memory snapshots are
        return ToolResult.ok(r, text);
    }

    /** Steward's retention after a new backup: what it pruned, and the old backups it keeps as the only copy of something. */
    static String retention(ToolContext ctx) {
        try {
            Retention.Report rep = new Retention(ctx.paths(), ctx.clock()).run(true);
            StringBuilder sb = new StringBuilder();
            if (!rep.pruned_backups().isEmpty()) {
                sb.append("\nRetention: pruned ")
                        .append(rep.pruned_backups().size())
                        .append(" backup(s) older than ")
                        .append(rep.backup_days())
                        .append(" days whose sessions are all back");
            }
            List<Retention.Backup> kept = rep.keptAsOnlyCopy();
            if (!kept.isEmpty()) {
                sb.append("\nRetention: kept ")
                        .append(kept.size())
                        .append(" backup(s) older than ")
                        .append(rep.backup_days())
                        .append(" days: the only copy of ")
                        .append(kept.stream()
                                .mapToInt(Retention.Backup::only_copy_sessions)
                                .sum())
                        .append(" deleted session(s) (steward backups lists them)");
            }
            return sb.toString();
        } catch (RuntimeException e) {
            return "\nRetention: not run: " + e.getMessage();
        }
    }

    static final int TEXT_LINES = 12;

    static String render(ApplyResult r) {
        StringBuilder sb = new StringBuilder();
        for (String n : r.recovered()) sb.append(n).append('\n');
        sb.append(r.dry_run() ? "Dry run of plan " : "Applied plan ")
                .append(r.plan_id())
                .append(": ")
                .append(r.executed_count())
                .append(r.dry_run() ? " would run, " : " done, ")
                .append(r.skipped_count())
                .append(" skipped\n");
        int shown = 0;
        for (ApplyResult.Done x : r.executed()) {
            if (++shown > TEXT_LINES) break;
            sb.append("  ✓ ")
                    .append(x.session_id())
                    .append(" — ")
                    .append(x.action().replace('_', ' '))
                    .append(x.new_title() == null ? "" : " → \"" + x.new_title() + "\"")
                    .append(" (rule ")
                    .append(x.rule())
                    .append(")\n");
        }
        if (r.executed_count() > Math.min(TEXT_LINES, r.executed().size())) {
            sb.append("  … ")
                    .append(r.executed_count()
                            - Math.min(TEXT_LINES, r.executed().size()))
                    .append(" more\n");
        }
        // one answer that covered several sessions: which sessions, and why (a chain is deleted as a whole)
        Map<String, List<ApplyResult.Done>> covered = new LinkedHashMap<>();
        for (ApplyResult.Done x : r.executed())
            if (x.answered_by() != null)
                covered.computeIfAbsent(x.answered_as() + " " + x.answered_by(), k -> new ArrayList<>())
                        .add(x);
        for (List<ApplyResult.Done> xs : covered.values()) {
            if (xs.size() < 2) continue;
            ApplyResult.Done x = xs.get(0);
            sb.append("  one answer ")
                    .append(x.answered_as().equals("rule") ? "on rule " : "")
                    .append(x.answered_by())
                    .append(" covered ")
                    .append(xs.size())
                    .append(": ")
                    .append(String.join(
                            ", ",
                            xs.stream()
                                    .limit(TEXT_LINES)
                                    .map(ApplyResult.Done::session_id)
                                    .toList()))
                    .append(xs.size() > TEXT_LINES ? ", …" : "")
                    .append(" (")
                    .append(
                            switch (x.answered_as()) {
                                case "chain" -> "one compaction chain: one conversation, deleted as a whole";
                                case "group" -> "the sessions its report line counted";
                                case "topic" -> "the renames of its topic group";
                                default -> "what the report asked under the rule";
                            })
                    .append(")\n");
        }
        shown = 0;
        for (ApplyResult.Skipped s : r.skipped()) {
            if (++shown > TEXT_LINES) break;
            sb.append("  · ")
                    .append(s.session_id())
                    .append(" — skipped: ")
                    .append(s.reason())
                    .append('\n');
        }
        if (r.skipped_count() > Math.min(TEXT_LINES, r.skipped().size())) {
            sb.append("  … ")
                    .append(r.skipped_count() - Math.min(TEXT_LINES, r.skipped().size()))
                    .append(" more\n");
        }
        if (r.automatic_count() > 0) {
            Map<String, Integer> byCondition = new LinkedHashMap<>();
            for (ApplyResult.Auto x : r.automatic()) byCondition.merge(x.condition(), 1, Integer::sum);
            StringBuilder conds = new StringBuilder();
            byCondition.forEach((k, n) -> conds.append(conds.length() == 0 ? "" : ", ")
                    .append(k)
                    .append(' ')
                    .append(n));
            sb.append(r.dry_run() ? "Would run automatically: " : "Ran automatically: ")
                    .append(r.automatic_count())
                    .append(" (")
                    .append(conds)
                    .append(")")
                    .append(
                            r.dry_run()
                                    ? "\n"
                                    : "; undo one with " + r.automatic().get(0).undo()
                                            + " (restoring teaches Steward to ask first)\n");
        }
        if (!r.dry_run()) {
            sb.append("Checklist:\n");
            for (ApplyResult.Check c : r.checklist())
                sb.append("  [")
                        .append(c.ok() ? "✅" : "✗")
                        .append("] ")
                        .append(c.check())
                        .append(": ")
                        .append(c.detail())
                        .append('\n');
            if (r.learning() != null && !r.learning().summary().isEmpty())
                sb.append(String.join("\n", r.learning().summary())).append('\n');
            if (r.learning() != null && r.learning().error() != null)
                sb.append("⚠ learning paused: ").append(r.learning().error()).append('\n');
            if (r.backup() != null)
                sb.append("Undo with session_restore {\"backup_id\": \"")
                        .append(r.backup().backup_id())
                        .append("\"}\n");
        }
        return sb.toString().stripTrailing();
    }
}
