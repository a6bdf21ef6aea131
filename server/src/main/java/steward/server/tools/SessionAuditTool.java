package steward.server.tools;

import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;

/** {@code session_audit}: classify every session and store a plan for {@code session_apply}. */
public final class SessionAuditTool extends StewardTool<SessionAuditTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of("session_audit", "Audit Hermes sessions",
            "Audits the Hermes sessions in state.db for housekeeping and returns a report to show the user, plus a plan_id for "
                + "session_apply. Every session is classified by ordered rules (S safety guard, F user preferences, A finished "
                + "subagent shells, B ended untitled sessions, C active subagents, D more than N active sessions, E repeated topics, "
                + "else keep) with a confidence: HIGH items (group auto) run unless the user rejects them, MEDIUM items (group "
                + "confirm, per rule) and LOW items (group info) run only if approved. The current session, chains still in use and "
                + "titled active sessions are never executed automatically. Use it when the user asks to tidy, clean up or review "
                + "sessions, or from a cron job with mode=headless (then only rule A is executable). Pass current_session_id when "
                + "you know it. Show the report text as it is; relay the user's answers to session_apply. Read-only for Hermes: it "
                + "only writes the plan into Steward's state dir. Refuses an unknown current_session_id or an unreadable database.")
            .readOnly().idempotent();

    /** schemas/session_audit.input.json; absent values take the engine's defaults. */
    public record Args(String current_session_id, String now, String mode, String locale, Integer max_items_per_group) {
        public Args {
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
        AuditRequest req = new AuditRequest(a.current_session_id(), Arguments.now(a.now(), SPEC.name()), a.mode(), a.locale(),
                a.max_items_per_group());
        AuditEngine.Outcome o = new AuditEngine(ctx.paths(), ctx.clock()).audit(req);
        return ToolResult.ok(o.result(), o.text());
    }
}
