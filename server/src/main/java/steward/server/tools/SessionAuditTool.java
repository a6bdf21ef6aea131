package steward.server.tools;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

import steward.StewardError;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import tools.jackson.databind.JsonNode;

/** {@code session_audit}: classify every session and store a plan for {@code session_apply}. */
public final class SessionAuditTool implements StewardTool {
    @Override
    public String name() {
        return "session_audit";
    }

    @Override
    public String title() {
        return "Audit Hermes sessions";
    }

    @Override
    public String description() {
        return "Audits the Hermes sessions in state.db for housekeeping and returns a report to show the user, plus a plan_id for "
                + "session_apply. Every session is classified by ordered rules (S safety guard, F user preferences, A finished "
                + "subagent shells, B ended untitled sessions, C active subagents, D more than N active sessions, E repeated topics, "
                + "else keep) with a confidence: HIGH items (group auto) run unless the user rejects them, MEDIUM items (group "
                + "confirm, per rule) and LOW items (group info) run only if approved. The current session, chains still in use and "
                + "titled active sessions are never executed automatically. Use it when the user asks to tidy, clean up or review "
                + "sessions, or from a cron job with mode=headless (then only rule A is executable). Pass current_session_id when "
                + "you know it. Show the report text as it is; relay the user's answers to session_apply. Read-only for Hermes: it "
                + "only writes the plan into Steward's state dir. Refuses an unknown current_session_id or an unreadable database.";
    }

    @Override
    public ToolHints hints() {
        return new ToolHints(true, false, true, false);
    }

    @Override
    public ToolResult call(JsonNode a, ToolContext ctx) {
        AuditRequest req = new AuditRequest(text(a, "current_session_id"), parseNow(a, "session_audit"), text(a, "mode"),
                text(a, "locale"), a.has("max_items_per_group") ? a.get("max_items_per_group").asInt() : AuditRequest.DEFAULT_MAX_ITEMS);
        AuditEngine.Outcome o = new AuditEngine(ctx.paths(), ctx.clock()).audit(req);
        return ToolResult.ok(o.result(), o.text());
    }

    static String text(JsonNode a, String field) {
        JsonNode n = a.get(field);
        return n == null || n.isNull() ? null : n.asString();
    }

    /** The optional {@code now} argument: ISO-8601 instant or offset date-time. */
    static Instant parseNow(JsonNode a, String context) {
        String s = text(a, "now");
        if (s == null) return null;
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(s).toInstant();
            } catch (DateTimeParseException e2) {
                throw new StewardError(context, "now must be an ISO-8601 time such as 2026-08-10T12:00:00Z, not '" + s + "'");
            }
        }
    }
}
