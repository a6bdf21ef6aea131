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

    /** The optional {@code now} argument: an ISO-8601 instant or offset date-time; null when absent. */
    public static Instant now(String iso, String tool) {
        if (iso == null) return null;
        try {
            return Instant.parse(iso);
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(iso).toInstant();
            } catch (DateTimeParseException e2) {
                throw new StewardError(
                        tool, "now must be an ISO-8601 time such as 2026-08-10T12:00:00Z, not '" + iso + "'");
            }
        }
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
