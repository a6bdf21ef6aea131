package steward.server.tools;

import steward.learning.PreferencesEngine;
import tools.jackson.databind.JsonNode;

/** {@code session_preferences}: show or change what housekeeping has learned. */
public final class SessionPreferencesTool implements StewardTool {
    @Override
    public String name() {
        return "session_preferences";
    }

    @Override
    public String title() {
        return "Housekeeping preferences (learning loop)";
    }

    @Override
    public String description() {
        return "Shows what session housekeeping has learned from the user's decisions in session_apply: per rule condition its "
                + "level (HIGH runs automatically, MEDIUM/LOW are asked), approvals, vetoes, whether it is locked at LOW after "
                + "contradictory choices; the active-session threshold N; sessions the user kept or deleted; topics confirmed as "
                + "consolidated. Actions: show (default), reset (everything, or one rule such as B or B.long), trust (unlock a rule "
                + "the user says to trust again), set_threshold (N between 2 and 6), reset_threshold, forget_session. Use it when "
                + "the user asks why something was or was not asked, or tells you to trust, reset or change a rule. Every change is "
                + "logged. Learning never overrides the safety guard. A corrupt store is reported as an error and left untouched.";
    }

    @Override
    public ToolHints hints() {
        return new ToolHints(false, false, false, false);
    }

    @Override
    public ToolResult call(JsonNode a, ToolContext ctx) {
        String action = SessionAuditTool.text(a, "action");
        Double value = a.has("value") ? a.get("value").asDouble() : null;
        PreferencesEngine.State s = new PreferencesEngine(ctx.paths().stateDir(), ctx.clock())
                .call(action, SessionAuditTool.text(a, "rule"), value, SessionAuditTool.text(a, "session_id"));
        StringBuilder sb = new StringBuilder();
        if (s.changed() != null) sb.append("Changed: ").append(s.changed()).append('\n');
        sb.append("Learned over ").append(s.run_count()).append(" runs").append(s.status().equals("absent") ? " (nothing yet)" : "").append('\n');
        sb.append("Rule state: ").append(s.rule_state()).append('\n');
        for (PreferencesEngine.RuleOut r : s.rules()) {
            sb.append("  ").append(r.condition()).append(": ").append(r.level()).append(r.locked() ? " (locked)" : "")
                    .append(r.level().equals(r.base_level()) ? "" : " (rule says " + r.base_level() + ")")
                    .append(", approved ").append(r.approvals()).append(", kept ").append(r.vetoes()).append('\n');
        }
        sb.append("Sessions kept: ").append(s.sessions().kept()).append(", deleted on request: ").append(s.sessions().deleted())
                .append(", renamed: ").append(s.sessions().renamed()).append('\n');
        if (!s.consolidated_topics().isEmpty()) sb.append("Consolidated topics: ").append(String.join(", ", s.consolidated_topics())).append('\n');
        return ToolResult.ok(s, sb.toString().stripTrailing());
    }
}
