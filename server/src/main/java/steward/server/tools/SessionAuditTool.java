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
        return "Audits the Hermes sessions in state.db for housekeeping: a report to show the user and a plan_id for session_apply. "
                + "Ordered rules (S safety guard, F user preferences, A finished subagent shells, B ended untitled, C active subagents, "
                + "D more than N active, E repeated topics, else keep) give each session a confidence: HIGH (group auto) runs unless "
                + "rejected, MEDIUM/LOW only if approved. The current session, chains in use, titled active sessions and kept "
                + "sessions never run automatically, nor does a deletion taking such a subagent along (it is asked, naming it). At "
                + "most " + steward.sessions.audit.AuditEngine.QUESTION_CAP + " questions per report; earlier unanswered ones are "
                + "grouped as waiting. Use it when the user asks to tidy or review sessions, or from cron with mode=headless (only "
                + "rule A runs). Show the text as it is. Read-only for Hermes. Refuses an unknown current_session_id or unreadable database.";
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
