package steward.server.tools;

import java.util.ArrayList;
import java.util.List;
import steward.StewardError;
import steward.sessions.inspect.InspectEngine;
import steward.sessions.inspect.SessionSource;
import steward.sessions.inspect.SessionSources;

/** {@code session_inspect}: what happened in a session (forensics), read-only. */
public final class SessionInspectTool extends StewardTool<SessionInspectTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "session_inspect",
                    "Inspect a session",
                    "What happened in a session: timeline and phases, messages by role, tool calls with failures, subagents, "
                            + "tokens/cost, files and commands touched, lineage. Use it to review one session or up to "
                            + InspectEngine.MAX_SESSIONS
                            + ", Hermes or Claude Code. Read-only; refuses unknown ids.")
            .readOnly()
            .idempotent();

    /** schemas/session_inspect.input.json: one of session_id / session_ids. */
    public record Args(
            String session_id, List<String> session_ids, Integer gap_minutes, Integer max_items, String store) {
        public Args {
            if (gap_minutes == null) gap_minutes = InspectEngine.DEFAULT_GAP_MINUTES;
            if (max_items == null) max_items = InspectEngine.DEFAULT_ITEMS;
        }
    }

    public SessionInspectTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        if ((a.session_id() == null) == (a.session_ids() == null)) {
            throw new StewardError(SPEC.name(), "give either session_id or session_ids");
        }
        List<String> ids = a.session_id() != null ? List.of(a.session_id()) : new ArrayList<>(a.session_ids());
        InspectEngine.Request req = new InspectEngine.Request(ids, a.gap_minutes(), a.max_items());
        try (SessionSource src = SessionSources.open(
                ctx.paths(), a.store(), req.sessionIds(), ctx.clock().millis() / 1000.0)) {
            InspectEngine.Outcome o = InspectEngine.inspect(src, req);
            String text = o.text();
            // ids of both stores in one call: the source read is Hermes'; say which of the others are Claude Code's
            if (a.store() == null
                    && "hermes".equals(src.store())
                    && !o.result().not_found().isEmpty()) {
                List<String> claude =
                        SessionSources.claudeSessions(ctx.paths(), o.result().not_found());
                if (!claude.isEmpty())
                    text += "\n" + String.join(", ", claude)
                            + (claude.size() == 1 ? " is a Claude Code session" : " are Claude Code sessions")
                            + ": call again with store \"claude\" (one store per call).";
            }
            return ToolResult.ok(o.result(), text);
        }
    }
}
