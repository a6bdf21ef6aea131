package steward.server.tools;

import java.util.List;
import steward.recall.InjectEngine;
import steward.recall.RecallService;

/** {@code recall_inject}: whether anything from memory deserves a place in context right now, what, within what budget. */
public final class RecallInjectTool extends StewardTool<RecallInjectTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
            "recall_inject",
            "Decide what memory to inject",
            "Given the latest user message (context), decides without a query whether anything from memory, skills, "
                    + "sessions or logs belongs in your context now, within budget_chars. mode: shadow "
                    + "(logs only), canary (explicit asks only), active. Returns the block and a decision_id for "
                    + "recall_feedback.");

    /** schemas/recall_inject.input.json; no mode means the configured one (shadow unless STEWARD_RECALL_MODE says otherwise). */
    public record Args(
            String context, List<String> recent_turns, String session_id, Integer budget_chars, String mode) {
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
        RecallService svc = new RecallService(
                ctx.recall().engine(ctx.paths(), ctx.clock()), ctx.recall().settings());
        InjectEngine.Result r = svc.inject(
                new InjectEngine.Request(
                        a.context() == null ? "" : a.context(), recent, a.session_id(), a.budget_chars(), a.mode()),
                ctx.work());
        StringBuilder sb = new StringBuilder();
        sb.append(r.decision())
                .append(" (")
                .append(r.mode())
                .append(", ")
                .append(r.lane())
                .append(" lane): ")
                .append(r.reason())
                .append("\ndecision_id: ")
                .append(r.decision_id());
        for (String w : r.warnings()) sb.append("\nwarning: ").append(w);
        if (!r.block().isEmpty()) sb.append("\n\n").append(r.block());
        return ToolResult.ok(r, sb.toString());
    }
}
