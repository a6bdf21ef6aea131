package steward.server.tools;

import java.util.LinkedHashMap;
import java.util.Map;

import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import tools.jackson.databind.JsonNode;

/** {@code session_apply}: carry out an audit plan with the user's decisions, after a verified backup. */
public final class SessionApplyTool implements StewardTool {
    @Override
    public String name() {
        return "session_apply";
    }

    @Override
    public String title() {
        return "Apply a session housekeeping plan";
    }

    @Override
    public String description() {
        return "Carries out a session_audit plan with the user's decisions: deletes sessions (with their subagent children, as Hermes "
                + "does), marks them as ended, renames them. HIGH items run unless rejected by item_id; others run only if approved. "
                + "decisions.rules covers only that rule's questions the report listed, never automatic, report-only or unlisted items; "
                + "report-only items cannot be approved. Silence is never approval. Writes a verified backup first (if it fails nothing "
                + "changes), skips sessions changed since the audit, one transaction. Returns what ran, each automatic action with its "
                + "one-line undo, what was skipped, the learning summary. Refuses unknown, used, expired or foreign plans and bad "
                + "decisions; then nothing changes. dry_run previews.";
    }

    @Override
    public ToolHints hints() {
        return new ToolHints(false, true, false, false);
    }

    @Override
    public ToolResult call(JsonNode a, ToolContext ctx) {
        JsonNode d = a.path("decisions");
        ApplyRequest req = new ApplyRequest(a.get("plan_id").asString(), map(d.get("items")), map(d.get("rules")), map(a.get("renames")),
                a.path("dry_run").asBoolean(false), SessionAuditTool.text(a, "current_session_id"), map(d.get("keep_reasons")),
                SessionAuditTool.text(d, "waiting"));
        ApplyResult r = new ApplyEngine(ctx.paths(), ctx.clock()).apply(req);
        return ToolResult.ok(r, render(r));
    }

    static Map<String, String> map(JsonNode n) {
        Map<String, String> m = new LinkedHashMap<>();
        if (n == null || !n.isObject()) return m;
        for (var e : n.properties()) m.put(e.getKey(), e.getValue().asString());
        return m;
    }

    static final int TEXT_LINES = 12;

    static String render(ApplyResult r) {
        StringBuilder sb = new StringBuilder();
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
        if (r.automatic_count() > 0) {
            java.util.Map<String, Integer> byCondition = new java.util.LinkedHashMap<>();
            for (ApplyResult.Auto x : r.automatic()) byCondition.merge(x.condition(), 1, Integer::sum);
            StringBuilder conds = new StringBuilder();
            byCondition.forEach((k, n) -> conds.append(conds.length() == 0 ? "" : ", ").append(k).append(' ').append(n));
            sb.append(r.dry_run() ? "Would run automatically: " : "Ran automatically: ").append(r.automatic_count()).append(" (").append(conds)
                    .append(")").append(r.dry_run() ? "\n" : "; undo one with " + r.automatic().get(0).undo()
                            + " (restoring teaches Steward to ask first)\n");
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
