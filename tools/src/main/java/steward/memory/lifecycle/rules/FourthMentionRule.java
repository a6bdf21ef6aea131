package steward.memory.lifecycle.rules;

import java.util.Optional;

@LifecycleMeta(
        id = "P2",
        kind = "promote",
        summary = "[0.5] → [0.7] on the fourth mention",
        rationale = "Seed 002: a preference followed again and again is confirmed; mentions alone never make it core.")
public final class FourthMentionRule implements LifecycleRule {
    public static final int MENTIONS = 4;

    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        if (!e.touched() || e.level() != 0.5 || e.mentions() < MENTIONS) return Optional.empty();
        return Optional.of(
                change("promote", 0.5, 0.7, "mentioned " + e.mentions() + " times", "已提及 " + e.mentions() + " 次"));
    }
}
