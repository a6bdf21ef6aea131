package steward.memory.precheck;

import steward.memory.MemoryRules;

@CheckMeta(
        id = "capacity",
        verdict = "needs_compression",
        summary = "fits under the store's limit after the write",
        rationale = "Seed 001 (溢出处理决策树): compress first (merge or remove), then add; Steward never raises the limit.")
public final class CapacityCheck implements PrecheckCheck {
    @Override
    public Outcome evaluate(PrecheckInput in) {
        String d = MemoryRules.n(in.charsAfter()) + "/" + MemoryRules.n(in.limit()) + " chars after the write ("
                + MemoryRules.percent(in.charsAfter(), in.limit()) + " %)";
        if (!in.fits()) return Outcome.fail(d);
        return MemoryRules.nearLimit(in.charsAfter(), in.limit()) ? Outcome.warn(d) : Outcome.pass(d);
    }
}
