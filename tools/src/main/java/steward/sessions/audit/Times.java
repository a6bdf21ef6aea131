package steward.sessions.audit;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** ISO-8601 UTC rendering of Hermes' epoch seconds. */
public final class Times {
    private Times() {}

    private static final DateTimeFormatter DAY =
            DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MINUTE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    public static String iso(double epochSeconds) {
        long ms = Math.round(epochSeconds * 1000.0);
        return Instant.ofEpochMilli(ms).toString();
    }

    public static String iso(Double epochSeconds) {
        return epochSeconds == null ? null : iso(epochSeconds.doubleValue());
    }

    public static double epoch(Instant t) {
        return t.toEpochMilli() / 1000.0;
    }

    public static String day(double epochSeconds) {
        return DAY.format(Instant.ofEpochMilli(Math.round(epochSeconds * 1000.0)));
    }

    public static String minute(double epochSeconds) {
        return MINUTE.format(Instant.ofEpochMilli(Math.round(epochSeconds * 1000.0)));
    }
}
