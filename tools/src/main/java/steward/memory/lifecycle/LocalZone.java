package steward.memory.lifecycle;

import java.time.DateTimeException;
import java.time.ZoneId;

/** The user's time zone for daily logs and the night cooldown: {@code STEWARD_TZ}, else the system's. */
public final class LocalZone {
    private LocalZone() {}

    public static ZoneId resolve() {
        String tz = System.getenv("STEWARD_TZ");
        if (tz != null && !tz.isBlank()) {
            try {
                return ZoneId.of(tz.strip());
            } catch (DateTimeException e) {
                System.err.println(
                        "steward: STEWARD_TZ '" + tz + "' is not a time zone; using " + ZoneId.systemDefault());
            }
        }
        return ZoneId.systemDefault();
    }
}
