package steward.memory.lifecycle.rules;

import java.util.Optional;

@LifecycleMeta(
        id = "P1",
        kind = "promote",
        summary = "[0.3] → [0.5] on the second mention",
        rationale =
                "Seed 002: 2–3 mentions make a leaning; one mention is only tentative. Only a mention in this run promotes.")
public final class SecondMentionRule implements LifecycleRule {
    public static final int MENTIONS = 2;

    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        if (!e.touched() || e.level() != 0.3 || e.mentions() < MENTIONS) return Optional.empty();
        return Optional.of(
                change("promote", 0.3, 0.5, "mentioned " + e.mentions() + " times", "已提及 " + e.mentions() + " 次"));
    }
}
