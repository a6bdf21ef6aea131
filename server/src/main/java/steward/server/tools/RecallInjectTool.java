package steward.server.tools;

import java.util.ArrayList;
import java.util.List;

import steward.recall.InjectEngine;
import steward.recall.RecallService;
import tools.jackson.databind.JsonNode;

/** {@code recall_inject}: whether anything from memory deserves a place in context right now, what, within what budget. */
public final class RecallInjectTool implements StewardTool {
    @Override
    public String name() {
        return "recall_inject";
    }

    @Override
    public String title() {
        return "Decide what memory to inject";
    }

    @Override
    public String description() {
        return "Given the latest user message (context, optionally recent_turns) decides without an explicit query whether "
                + "anything from memory, skills, past sessions or logs deserves a place in your context now, what, and within "
                + "budget_chars (default 2400, code points). Pipeline, each step shown: hard gates (the current session's own "
                + "recent turns, items injected into this session in the last 2 calls, items marked harmful, anything that looks "
                + "like a secret), lane (explicit when the message asks to remember, refers back or asks about a past fact, else "
                + "proactive), echo veto (a message that merely restates a stored item does not get it back), a calibrated 0–1 "
                + "score with hysteresis (tauHi 0.45 to open, tauLo 0.35 to stay open; proactive needs 0.15 more; a clear "
                + "margin is required), then whole items packed into the budget (never cut). Modes: shadow (default: decides "
                + "and logs, returns the block that would have been injected), canary (injects explicit-lane decisions only), "
                + "active. Returns decision inject|skip|shadow, the reason, the ready block, chosen and dropped items with "
                + "reasons, and a decision_id to pass to recall_feedback. Refuses an empty context.";
    }

    @Override
    public ToolHints hints() {
        return new ToolHints(false, false, false, false);
    }

    @Override
    public ToolResult call(JsonNode a, ToolContext ctx) {
        List<String> recent = null;
        if (a.has("recent_turns")) {
            recent = new ArrayList<>();
            for (JsonNode t : a.get("recent_turns")) recent.add(t.asString());
        }
        RecallService svc = new RecallService(ctx.recall().engine(ctx.paths(), ctx.clock()), ctx.recall().settings());
        InjectEngine.Result r = svc.inject(new InjectEngine.Request(a.path("context").asString(""), recent,
                RecallSearchTool.text(a, "session_id"), a.has("budget_chars") ? a.get("budget_chars").asInt() : null,
                RecallSearchTool.text(a, "mode")), ctx.work());
        StringBuilder sb = new StringBuilder();
        sb.append(r.decision()).append(" (").append(r.mode()).append(", ").append(r.lane()).append(" lane): ").append(r.reason())
                .append("\ndecision_id: ").append(r.decision_id());
        if (!r.block().isEmpty()) sb.append("\n\n").append(r.block());
        return ToolResult.ok(r, sb.toString());
    }
}
