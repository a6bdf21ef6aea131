package steward.memory.lifecycle.rules;

import java.util.Optional;
import steward.memory.lifecycle.Confidence;

@LifecycleMeta(
        id = "D1",
        kind = "decay",
        summary = "one level down after 30 days unreferenced",
        rationale =
                "Seed 002: an entry nobody recalled or re-mentioned for 30 days loses a level; the clock restarts at each change.")
public final class UnreferencedDecayRule implements LifecycleRule {
    public static final int DAYS = 30;

    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        if (e.touched() || e.level() <= 0.3) return Optional.empty();
        long idle = ctx.daysSince(e.lastActivity());
        long since = ctx.daysSince(e.levelChanged());
        if (idle < DAYS || since < DAYS) return Optional.empty();
        double to = Confidence.down(e.level());
        return Optional.of(change("demote", e.level(), to, "not referenced for " + idle + " days", idle + " 天未被引用"));
    }
}
