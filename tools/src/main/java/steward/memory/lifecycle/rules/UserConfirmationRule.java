package steward.memory.lifecycle.rules;

import java.util.Optional;

@LifecycleMeta(
        id = "P3",
        kind = "promote",
        summary = "→ [0.9] only when the user confirmed it (said \"remember\")",
        rationale =
                "Seed 002: core habits are what the user explicitly asked to remember; no count of mentions reaches [0.9].")
public final class UserConfirmationRule implements LifecycleRule {
    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        if (!e.confirmed() || e.level() >= 0.9) return Optional.empty();
        return Optional.of(change("promote", e.level(), 0.9, "the user confirmed it", "用户明确确认"));
    }
}
