package steward.server.tools;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import steward.StewardError;

/** The argument helpers every tool shares: what JSON Schema cannot say (an ISO time) and absent collections. */
public final class Arguments {
    private Arguments() {}

    /** The earliest and latest {@code now}: the years a four-digit ISO-8601 year writes. */
    static final Instant EARLIEST = Instant.parse("0000-01-01T00:00:00Z"),
            LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    /**
     * The optional {@code now} argument: an ISO-8601 instant or offset date-time in the years 0000–9999; null when absent.
     * (ISO-8601 also writes years up to ±999,999,999, which the tools' epoch arithmetic cannot hold.)
     */
    public static Instant now(String iso, String tool) {
        if (iso == null) return null;
        Instant t;
        try {
            t = Instant.parse(iso);
        } catch (DateTimeParseException e) {
            try {
                t = OffsetDateTime.parse(iso).toInstant();
            } catch (DateTimeParseException e2) {
                throw new StewardError(
                        tool, "now must be an ISO-8601 time such as 2026-08-10T12:00:00Z, not '" + iso + "'");
            }
        }
        if (t.isBefore(EARLIEST) || t.isAfter(LATEST))
            throw new StewardError(tool, "now must be a time in the years 0000–9999, not '" + iso + "'");
        return t;
    }

    /** A mutable copy, empty when the argument was absent. */
    public static <T> List<T> list(List<T> l) {
        return l == null ? new ArrayList<>() : new ArrayList<>(l);
    }

    /** A mutable, order-keeping copy, empty when the argument was absent. */
    public static <K, V> Map<K, V> map(Map<K, V> m) {
        return m == null ? new LinkedHashMap<>() : new LinkedHashMap<>(m);
    }
}
