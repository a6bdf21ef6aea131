package steward.memory.lifecycle.rules;

import java.time.LocalDate;

/**
 * What the lifecycle rules see of one entry: its confidence, how often it was mentioned in all, whether the user
 * confirmed it in this run, when it was last seen or referenced, when its level last changed, whether this run
 * mentioned it ({@code touched}), whether a newer entry contradicts it, whether it reads as a procedure, and
 * which entry makes it redundant.
 */
public record EntryState(
        String body,
        double level,
        int mentions,
        boolean confirmed,
        LocalDate lastActivity,
        LocalDate levelChanged,
        boolean touched,
        String supersededBy,
        boolean procedure,
        String redundantWith) {
    public EntryState withLevel(double l, LocalDate on) {
        return new EntryState(
                body, l, mentions, confirmed, lastActivity, on, touched, supersededBy, procedure, redundantWith);
    }
}
