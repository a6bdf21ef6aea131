package steward.memory.lifecycle.rules;

import java.util.Optional;

@LifecycleMeta(
        id = "X1",
        kind = "supersede",
        summary = "a contradicted entry is superseded with a date and kept in the archive",
        rationale =
                "Seed 003: contradictions are marked in time, not overwritten; the newer entry links to the older one.")
public final class ContradictionSupersedeRule implements LifecycleRule {
    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        if (e.supersededBy() == null) return Optional.empty();
        return Optional.of(change(
                "supersede",
                e.level(),
                e.level(),
                "contradicted on " + ctx.today() + " by: " + e.supersededBy(),
                ctx.today() + " 被新条目取代：" + e.supersededBy()));
    }
}
