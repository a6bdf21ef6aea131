package steward.server.tools;

import java.util.ArrayList;
import java.util.List;

import steward.sessions.backup.RestoreEngine;
import tools.jackson.databind.JsonNode;

/** {@code session_restore}: undo a {@code session_apply} from its backup. */
public final class SessionRestoreTool implements StewardTool {
    @Override
    public String name() {
        return "session_restore";
    }

    @Override
    public String title() {
        return "Restore sessions from a housekeeping backup";
    }

    @Override
    public String description() {
        return "Undoes a session_apply from the backup it wrote: re-inserts deleted sessions with their ids and messages "
                + "(new row ids, as Hermes' import gives; its search index follows), moves side files back to sessions that exist, and reverts 'mark as ended' and renames that nobody "
                + "changed since. Pass the backup_id returned by session_apply, optionally with session_ids to restore only some. "
                + "Sessions that exist again are skipped and reported, so running it twice is harmless. Refuses an unknown backup "
                + "id or session ids that are not in the backup; then nothing is changed.";
    }

    @Override
    public ToolHints hints() {
        return new ToolHints(false, false, true, false);
    }

    @Override
    public ToolResult call(JsonNode a, ToolContext ctx) {
        List<String> ids = new ArrayList<>();
        for (JsonNode n : a.path("session_ids")) ids.add(n.asString());
        RestoreEngine.Result r = new RestoreEngine(ctx.paths(), ctx.clock()).restore(a.get("backup_id").asString(), ids);
        StringBuilder sb = new StringBuilder();
        sb.append("Restored ").append(r.restored().size()).append(" sessions (").append(r.messages_restored()).append(" messages, ")
                .append(r.side_files_restored()).append(" side files) from ").append(r.backup_id()).append('\n');
        for (RestoreEngine.Skipped s : r.skipped()) sb.append("  · ").append(s.session_id()).append(" — skipped: ").append(s.reason()).append('\n');
        sb.append("Now ").append(r.sessions_after()).append(" sessions, ").append(r.active_after()).append(" active");
        for (RestoreEngine.Check c : r.checklist()) if (!c.ok()) sb.append("\nWARNING ").append(c.check()).append(": ").append(c.detail());
        return ToolResult.ok(r, sb.toString());
    }
}
