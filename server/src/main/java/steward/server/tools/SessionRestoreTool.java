package steward.server.tools;

import java.util.List;

import steward.sessions.backup.RestoreEngine;

/** {@code session_restore}: undo a {@code session_apply} from its backup. */
public final class SessionRestoreTool extends StewardTool<SessionRestoreTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of("session_restore", "Restore sessions from a housekeeping backup",
            "Undoes a session_apply from the backup it wrote: re-inserts deleted sessions with their original ids and messages "
                + "(Hermes' search index follows), moves their side files and Claude Code transcripts back byte for byte, and reverts 'mark as ended' and renames that nobody "
                + "changed since. Pass the backup_id returned by session_apply, optionally with session_ids to restore only some. "
                + "Sessions that exist again are skipped and reported, so running it twice is harmless. Restored sessions are kept "
                + "from now on; restoring what ran automatically is a veto of its rule condition (Steward asks first next time). "
                + "Refuses an unknown backup id or session ids that are not in the backup; then nothing is changed.")
            .idempotent();

    /** schemas/session_restore.input.json; no session_ids means every session of the backup. */
    public record Args(String backup_id, List<String> session_ids, String store) {}

    public SessionRestoreTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        RestoreEngine.Result r = new RestoreEngine(ctx.paths(), ctx.clock()).restore(a.backup_id(), Arguments.list(a.session_ids()), a.store(), ctx.work());
        StringBuilder sb = new StringBuilder();
        sb.append("Restored ").append(r.restored().size()).append(" sessions (").append(r.messages_restored()).append(" messages, ")
                .append(r.side_files_restored()).append(" side files) from ").append(r.backup_id()).append('\n');
        for (RestoreEngine.Skipped s : r.skipped()) sb.append("  · ").append(s.session_id()).append(" — skipped: ").append(s.reason()).append('\n');
        sb.append("Now ").append(r.sessions_after()).append(" sessions, ").append(r.active_after()).append(" active");
        if (r.learning() != null && !r.learning().summary().isEmpty()) sb.append('\n').append(String.join("\n", r.learning().summary()));
        return ToolResult.ok(r, sb.toString());
    }
}
