package steward.server.tools;

import java.util.Map;

import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.PlanStore;

/** {@code session_apply}: carry out an audit plan with the user's decisions, after a verified backup. */
public final class SessionApplyTool extends StewardTool<SessionApplyTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of("session_apply", "Apply a session housekeeping plan",
            "Carries out a plan from session_audit with the user's decisions: deletes sessions (with their messages and their "
                + "subagent children, as Hermes does), marks sessions as ended, renames them. HIGH items run unless rejected; MEDIUM "
                + "and LOW items run only when approved (decisions.items by item_id, or decisions.rules per rule such as {\"B\": "
                + "\"approve\"}); renames give a session a new unique title instead of deleting it. Before changing anything it "
                + "re-reads every affected session and skips those changed since the audit, and writes a verified backup "
                + "(hermes sessions export format; side files are moved into it) — if the backup fails nothing is changed. All "
                + "changes happen in one transaction. Returns what ran, what was skipped and why, a checklist and the backup_id for "
                + "session_restore. Never archives (that is the user's button). Refuses unknown, expired ("
                + (int) (PlanStore.VALIDITY_SECONDS / 3600) + " h), used or foreign "
                + "plans, decisions naming items not in the plan, and renames to a title in use; then nothing is changed. "
                + "Use dry_run to preview.")
            .destructive();

    /** schemas/session_apply.input.json. */
    public record Args(String plan_id, Decisions decisions, Map<String, String> renames, Boolean dry_run, String current_session_id) {
        public Args {
            if (decisions == null) decisions = new Decisions(null, null, null);
            if (dry_run == null) dry_run = false;
        }
    }

    /** The user's answers: item id or rule id → approve/reject, and item id → why a rejected session is kept. */
    public record Decisions(Map<String, String> items, Map<String, String> rules, Map<String, String> keep_reasons) {}

    public SessionApplyTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        Decisions d = a.decisions();
        ApplyRequest req = new ApplyRequest(a.plan_id(), Arguments.map(d.items()), Arguments.map(d.rules()), Arguments.map(a.renames()),
                a.dry_run(), a.current_session_id(), Arguments.map(d.keep_reasons()));
        ApplyResult r = new ApplyEngine(ctx.paths(), ctx.clock()).apply(req);
        return ToolResult.ok(r, render(r));
    }

    static final int TEXT_LINES = 12;

    static String render(ApplyResult r) {
        StringBuilder sb = new StringBuilder();
        for (String n : r.recovered()) sb.append(n).append('\n');
        sb.append(r.dry_run() ? "Dry run of plan " : "Applied plan ").append(r.plan_id()).append(": ")
                .append(r.executed_count()).append(r.dry_run() ? " would run, " : " done, ").append(r.skipped_count()).append(" skipped\n");
        int shown = 0;
        for (ApplyResult.Done x : r.executed()) {
            if (++shown > TEXT_LINES) break;
            sb.append("  ✓ ").append(x.session_id()).append(" — ").append(x.action().replace('_', ' '))
                    .append(x.new_title() == null ? "" : " → \"" + x.new_title() + "\"").append(" (rule ").append(x.rule()).append(")\n");
        }
        if (r.executed_count() > Math.min(TEXT_LINES, r.executed().size())) {
            sb.append("  … ").append(r.executed_count() - Math.min(TEXT_LINES, r.executed().size())).append(" more\n");
        }
        shown = 0;
        for (ApplyResult.Skipped s : r.skipped()) {
            if (++shown > TEXT_LINES) break;
            sb.append("  · ").append(s.session_id()).append(" — skipped: ").append(s.reason()).append('\n');
        }
        if (r.skipped_count() > Math.min(TEXT_LINES, r.skipped().size())) {
            sb.append("  … ").append(r.skipped_count() - Math.min(TEXT_LINES, r.skipped().size())).append(" more\n");
        }
        if (!r.dry_run()) {
            sb.append("Checklist:\n");
            for (ApplyResult.Check c : r.checklist()) sb.append("  [").append(c.ok() ? "✅" : "✗").append("] ").append(c.check()).append(": ").append(c.detail()).append('\n');
            if (r.learning() != null && !r.learning().summary().isEmpty()) sb.append(String.join("\n", r.learning().summary())).append('\n');
            if (r.learning() != null && r.learning().error() != null) sb.append("⚠ learning paused: ").append(r.learning().error()).append('\n');
            if (r.backup() != null) sb.append("Undo with session_restore {\"backup_id\": \"").append(r.backup().backup_id()).append("\"}\n");
        }
        return sb.toString().stripTrailing();
    }
}
