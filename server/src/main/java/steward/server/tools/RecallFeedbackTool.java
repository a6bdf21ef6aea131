package steward.server.tools;

import java.util.List;
import steward.recall.RecallService;

/** {@code recall_feedback}: how injected items turned out; changes later recall_inject decisions. */
public final class RecallFeedbackTool extends StewardTool<RecallFeedbackTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
            "recall_feedback",
            "Report how injected memory turned out",
            "Records how items of a recall_inject decision turned out: used, ignored, harmful (never injected again) "
                    + "or corrected; also tunes the gate within bounds (reset: calibration). Pass decision_id with its URIs, "
                    + "or URIs alone. Refuses URIs the decision did not choose.");

    /** schemas/recall_feedback.input.json. */
    public record Args(String decision_id, List<String> uris, String outcome, String reset) {}

    public RecallFeedbackTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        RecallService svc = new RecallService(
                ctx.recall().engine(ctx.paths(), ctx.clock()), ctx.recall().settings());
        if (a.reset() != null) {
            if (a.uris() != null || a.outcome() != null || a.decision_id() != null) {
                return ToolResult.error("recall_feedback: reset is given alone, without uris, outcome or decision_id");
            }
            RecallService.FeedbackOutput out = svc.resetCalibration();
            return ToolResult.ok(
                    out,
                    "gate calibration reset: "
                            + (out.reset().isEmpty()
                                    ? "nothing had been learnt"
                                    : "forgot the outcomes of " + out.reset().keySet())
                            + ", and the weights injections' outcomes gave items; harmful marks and feedback on URIs "
                            + "alone are kept");
        }
        if (a.uris() == null || a.outcome() == null)
            return ToolResult.error("recall_feedback: uris and outcome are required");
        RecallService.FeedbackOutput out = svc.feedback(a.decision_id(), Arguments.list(a.uris()), a.outcome());
        StringBuilder sb = new StringBuilder("recorded ")
                .append(out.outcome())
                .append(" for ")
                .append(out.recorded().size())
                .append(" item(s)")
                .append(out.decision_id() == null ? "" : " of " + out.decision_id());
        for (RecallService.FeedbackItem f : out.recorded()) {
            sb.append("\n- ")
                    .append(f.uri())
                    .append(f.already_recorded() ? ": already recorded, not counted again" : "")
                    .append(f.replaced() != null ? ": replaces the earlier " + f.replaced() : "")
                    .append(String.format(": importance ×%.2f", f.importance_factor()))
                    .append(f.gated() ? ", gated from now on" : "");
        }
        if (out.injection_precision() != null)
            sb.append(String.format(
                    "\ninjection precision so far: %.2f over %d judged", out.injection_precision(), out.judged()));
        return ToolResult.ok(out, sb.toString());
    }
}
