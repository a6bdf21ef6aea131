package steward.server.tools;

import java.util.List;

import steward.recall.RecallEngine;
import steward.recall.RecallService;

/** {@code recall_feedback}: how injected items turned out; changes later recall_inject decisions. */
public final class RecallFeedbackTool extends StewardTool<RecallFeedbackTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of("recall_feedback", "Report how injected memory turned out",
            "Records how items of a recall_inject decision turned out: used, ignored, harmful (never injected again) "
                + "or corrected. Pass decision_id with its URIs, or URIs alone (e.g. from recall_search). Refuses URIs the "
                + "decision did not choose.");

    /** schemas/recall_feedback.input.json. */
    public record Args(String decision_id, List<String> uris, String outcome) {}

    public RecallFeedbackTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        RecallService svc = new RecallService(RecallEngine.shared(ctx.paths(), ctx.clock()));
        RecallService.FeedbackOutput out = svc.feedback(a.decision_id(), Arguments.list(a.uris()), a.outcome() == null ? "" : a.outcome());
        StringBuilder sb = new StringBuilder("recorded ").append(out.outcome()).append(" for ").append(out.recorded().size())
                .append(" item(s)").append(out.decision_id() == null ? "" : " of " + out.decision_id());
        for (RecallService.FeedbackItem f : out.recorded()) {
            sb.append("\n- ").append(f.uri()).append(String.format(": importance ×%.2f", f.importance_factor()))
                    .append(f.gated() ? ", gated from now on" : "");
        }
        if (out.injection_precision() != null) sb.append(String.format("\ninjection precision so far: %.2f over %d judged", out.injection_precision(), out.judged()));
        return ToolResult.ok(out, sb.toString());
    }
}
