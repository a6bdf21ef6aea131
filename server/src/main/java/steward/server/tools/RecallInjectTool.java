package steward.server.tools;

import java.util.List;

import steward.recall.InjectEngine;
import steward.recall.RecallService;
import steward.recall.gate.CooldownGate;

/** {@code recall_inject}: whether anything from memory deserves a place in context right now, what, within what budget. */
public final class RecallInjectTool extends StewardTool<RecallInjectTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of("recall_inject", "Decide what memory to inject",
            "Given the latest user message (context, optionally recent_turns) decides without an explicit query whether "
                + "anything from memory, skills, past sessions or logs deserves a place in your context now, what, and within "
                + "budget_chars (default " + InjectEngine.DEFAULT_BUDGET + ", code points). Pipeline, each step shown: hard gates (the current session's own "
                + "recent turns, items injected into this session in the last " + CooldownGate.DEFAULT_CALLS + " calls, items marked harmful, anything that looks "
                + "like a secret), lane (explicit when the message asks to remember, refers back or asks about a past fact, else "
                + "proactive), echo veto (a message that merely restates a stored item does not get it back), a calibrated 0–1 "
                + "score with hysteresis (tauHi " + InjectEngine.TAU_HI + " to open, tauLo " + InjectEngine.TAU_LO + " to stay open; proactive needs "
                + InjectEngine.PROACTIVE_EXTRA + " more; a clear "
                + "margin is required), then whole items packed into the budget (never cut). Modes: shadow (default: decides "
                + "and logs, returns the block that would have been injected), canary (injects explicit-lane decisions only), "
                + "active. Returns decision inject|skip|shadow, the reason, the ready block, chosen and dropped items with "
                + "reasons, and a decision_id to pass to recall_feedback. Refuses an empty context.");

    /** schemas/recall_inject.input.json; no mode means the configured one (shadow unless STEWARD_RECALL_MODE says otherwise). */
    public record Args(String context, List<String> recent_turns, String session_id, Integer budget_chars, String mode) {
        public Args {
            if (budget_chars == null) budget_chars = InjectEngine.DEFAULT_BUDGET;
        }
    }

    public RecallInjectTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        List<String> recent = a.recent_turns() == null ? null : Arguments.list(a.recent_turns());
        RecallService svc = new RecallService(ctx.recall().engine(ctx.paths(), ctx.clock()), ctx.recall().settings());
        InjectEngine.Result r = svc.inject(new InjectEngine.Request(a.context() == null ? "" : a.context(), recent,
                a.session_id(), a.budget_chars(), a.mode()), ctx.work());
        StringBuilder sb = new StringBuilder();
        sb.append(r.decision()).append(" (").append(r.mode()).append(", ").append(r.lane()).append(" lane): ").append(r.reason())
                .append("\ndecision_id: ").append(r.decision_id());
        if (!r.block().isEmpty()) sb.append("\n\n").append(r.block());
        return ToolResult.ok(r, sb.toString());
    }
}
