package steward.memory.lifecycle.rules;

import java.util.Optional;

@LifecycleMeta(
        id = "R2",
        kind = "prune",
        summary = "over the size target: propose entries unreferenced for more than 60 days",
        rationale = "Seed 002 pruning order ②: what nobody used for two months costs every turn for nothing.")
public final class PruneStaleRule implements LifecycleRule {
    public static final int DAYS = 60;

    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        long idle = ctx.daysSince(e.lastActivity());
        if (!ctx.overTarget() || e.touched() || idle <= DAYS) return Optional.empty();
        return Optional.of(
                change("prune", e.level(), e.level(), "not referenced for " + idle + " days", idle + " 天未被引用"));
    }
}
