package steward.memory.lifecycle.rules;

import java.util.Optional;

@LifecycleMeta(
        id = "R4",
        kind = "prune",
        summary =
                "over the size target: propose entries another entry already covers, every number, host, version and path"
                        + " included; an entry named as covering is never proposed itself",
        rationale = "Seed 002 pruning order ④: redundant wording is the cheapest loss (冗余损失).")
public final class PruneRedundantRule implements LifecycleRule {
    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        if (!ctx.overTarget() || e.touched() || e.redundantWith() == null) return Optional.empty();
        return Optional.of(change(
                "prune", e.level(), e.level(), "covered by: " + e.redundantWith(), "已被其他条目覆盖：" + e.redundantWith()));
    }
}
