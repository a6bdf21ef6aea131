package steward.memory.precheck;

@CheckMeta(
        id = "value",
        verdict = "route_skill",
        summary = "frequent or costly to miss (the agent's judgment)",
        rationale =
                "Seed 001 steps 3–4 (频率门槛, 后果评估): low frequency and a recoverable miss do not earn a place in every system prompt.")
public final class ValueCheck implements PrecheckCheck {
    @Override
    public Outcome evaluate(PrecheckInput in) {
        if (in.frequency() == null || in.consequence() == null) {
            return new Outcome(
                    "question", "needs the agent's judgment: answer the questions and call again with answers");
        }
        boolean low = "low".equals(in.frequency()) && "recoverable".equals(in.consequence());
        return low
                ? Outcome.fail("low frequency and recoverable: not worth a place in every system prompt")
                : Outcome.pass("frequent or costly to miss");
    }
}
