package steward.memory.lifecycle.rules;

import java.util.Optional;

@LifecycleMeta(
        id = "R1",
        kind = "prune",
        summary = "over the size target: propose [0.3] entries first",
        rationale =
                "Seed 002 pruning order ①: tentative entries (mentioned once) go first; never without the user's confirmation.")
public final class PruneTentativeRule implements LifecycleRule {
    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        if (!ctx.overTarget() || e.touched() || e.level() != 0.3) return Optional.empty();
        return Optional.of(change("prune", e.level(), e.level(), "tentative (mentioned once)", "试探性条目（仅提及一次）"));
    }
}
