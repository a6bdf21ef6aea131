package steward.server.tools;

import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.store.ClaudeSessions;

/** {@code session_audit}: classify every session and store a plan for {@code session_apply}. */
public final class SessionAuditTool extends StewardTool<SessionAuditTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "session_audit",
                    "Audit Hermes and Claude Code sessions",
                    "Audits Hermes and Claude Code sessions: a report to show the user as it is, and a plan_id for "
                            + "session_apply. HIGH items run unless rejected, others only if approved; current, titled active and kept "
                            + "sessions never run automatically. Use it when the user asks to tidy sessions; cron: mode=headless. "
                            + "Read-only.")
            .readOnly()
            .idempotent();

    /** schemas/session_audit.input.json; absent values take the engine's defaults. */
    public record Args(
            String current_session_id,
            String now,
            String mode,
            String locale,
            Integer max_items_per_group,
            String store,
            Double idle_hours) {
        public Args {
            if (idle_hours == null) idle_hours = ClaudeSessions.DEFAULT_IDLE_SECONDS / 3600;
            if (mode == null) mode = AuditRequest.DEFAULT_MODE;
            if (locale == null) locale = AuditRequest.DEFAULT_LOCALE;
            if (max_items_per_group == null) max_items_per_group = AuditRequest.DEFAULT_MAX_ITEMS;
        }
    }

    public SessionAuditTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        AuditRequest req = new AuditRequest(
                a.current_session_id(),
                Arguments.now(a.now(), SPEC.name()),
                a.mode(),
                a.locale(),
                a.max_items_per_group(),
                a.store(),
                a.idle_hours());
        AuditEngine.Outcome o = new AuditEngine(ctx.paths(), ctx.clock()).audit(req, ctx.work());
        return ToolResult.ok(o.result(), o.text());
    }
}
