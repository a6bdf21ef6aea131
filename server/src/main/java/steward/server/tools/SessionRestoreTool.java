package steward.server.tools;

import java.util.List;
import steward.sessions.backup.RestoreEngine;
import steward.text.Numbers;

/** {@code session_restore}: undo a {@code session_apply} from its backup. */
public final class SessionRestoreTool extends StewardTool<SessionRestoreTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "session_restore",
                    "Restore sessions from a housekeeping backup",
                    "Undoes a session_apply from its backup: deleted sessions return with ids, messages and files; 'ended' and "
                            + "renames are reverted unless changed since. Safe to repeat. Restored sessions are kept; restoring an "
                            + "automatic action vetoes its rule. Refuses unknown ids.")
            .idempotent();

    /** schemas/session_restore.input.json; no session_ids means every session of the backup, an empty list is refused. */
    public record Args(String backup_id, List<String> session_ids, String store) {}

    public SessionRestoreTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        RestoreEngine.Result r = new RestoreEngine(ctx.paths(), ctx.clock())
                .restore(
                        a.backup_id(),
                        a.session_ids() == null ? null : Arguments.list(a.session_ids()),
                        a.store(),
                        ctx.work());
        StringBuilder sb = new StringBuilder();
        for (String n : r.recovered()) sb.append(n).append('\n');
        sb.append("Restored ")
                .append(r.restored().size())
                .append(r.restored().size() == 1 ? " session (" : " sessions (")
                .append(r.messages_restored())
                .append(" messages, ")
                .append(r.side_files_restored())
                .append(" side files) from ")
                .append(r.backup_id())
                .append('\n');
        for (RestoreEngine.Retitled t : r.retitled())
            sb.append("  · ")
                    .append(t.session_id())
                    .append(" — restored as \"")
                    .append(t.title())
                    .append("\": \"")
                    .append(t.was())
                    .append("\" is another session's title now\n");
        for (RestoreEngine.Merged m : r.merged())
            sb.append("  · ")
                    .append(m.session_id())
                    .append(" — written again since the apply: its ")
                    .append(m.backup_bytes())
                    .append(" backed-up bytes put before the ")
                    .append(m.new_bytes())
                    .append(" new ones in ")
                    .append(m.path())
                    .append('\n');
        for (RestoreEngine.Skipped s : r.skipped())
            sb.append("  · ")
                    .append(s.session_id())
                    .append(" — skipped: ")
                    .append(s.reason())
                    .append('\n');
        sb.append("Now ")
                .append(r.sessions_after())
                .append(" sessions, ")
                .append(r.active_after())
                .append(" active");
        for (RestoreEngine.Check c : r.checklist())
            if (!c.ok()) sb.append("\nWARNING ").append(c.check()).append(": ").append(c.detail());
        if (r.claude_cleanup() != null)
            sb.append("\nNOTE ")
                    .append(r.claude_cleanup().session_ids().size())
                    .append(
                            " restored transcript(s) got today's date as mtime: Claude Code deletes transcripts older than ")
                    .append(r.claude_cleanup().cleanup_period_days())
                    .append(" days (cleanupPeriodDays) when it starts");
        RestoreEngine.AutoPrune prune = r.hermes_auto_prune();
        if (prune != null) {
            sb.append("\nWARNING Hermes' sessions.auto_prune (retention ")
                    .append(Numbers.plain(prune.retention_days()))
                    .append(" days) deletes ");
            if (prune.due() > 0) {
                sb.append(prune.due())
                        .append(" of these again at ")
                        .append(
                                prune.next_run_after() == null
                                        ? "its next start"
                                        : "its first start after " + prune.next_run_after());
                if (prune.due_within_7_days() > 0) sb.append(", and ");
            }
            if (prune.due_within_7_days() > 0)
                sb.append(prune.due_within_7_days()).append(" within 7 days");
            sb.append(": to keep them, set sessions.auto_prune: false or raise sessions.retention_days in ")
                    .append(ctx.paths().configYaml());
        }
        if (r.learning() != null && !r.learning().summary().isEmpty())
            sb.append('\n').append(String.join("\n", r.learning().summary()));
        return ToolResult.ok(r, sb.toString());
    }
}
