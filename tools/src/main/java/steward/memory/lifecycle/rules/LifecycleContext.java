package steward.memory.lifecycle.rules;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;

/** The run's date and the scope's size against the size a consolidation keeps it under. */
public record LifecycleContext(LocalDate today, int chars, int target) {
    public long daysSince(LocalDate d) {
        return d == null ? 0 : ChronoUnit.DAYS.between(d, today);
    }

    public boolean overTarget() {
        return chars > target;
    }
}
