package steward.sessions.audit;

import java.time.Instant;
import steward.StewardError;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.SessionHomes;

/**
 * Arguments of {@code session_audit}. {@code now} null means the engine's clock. {@code store} null means every
 * home that has sessions; {@code idleHours} (Claude Code: hours without an append after which a session counts as
 * ended) 0 or less means the default.
 */
public record AuditRequest(
        String currentSessionId,
        Instant now,
        String mode,
        String locale,
        int maxItemsPerGroup,
        String store,
        double idleHours) {
    public static final int DEFAULT_MAX_ITEMS = 20;
    public static final String DEFAULT_MODE = "interactive", DEFAULT_LOCALE = "en";

    public AuditRequest(String currentSessionId, Instant now, String mode, String locale, int maxItemsPerGroup) {
        this(currentSessionId, now, mode, locale, maxItemsPerGroup, null, 0);
    }

    public AuditRequest {
        if (mode == null) mode = DEFAULT_MODE;
        if (locale == null) locale = DEFAULT_LOCALE;
        if (!mode.equals("interactive") && !mode.equals("headless"))
            throw new StewardError("session_audit", "mode must be interactive or headless, not " + mode);
        if (!locale.equals("en") && !locale.equals("zh"))
            throw new StewardError("session_audit", "locale must be zh or en, not " + locale);
        if (maxItemsPerGroup <= 0) maxItemsPerGroup = DEFAULT_MAX_ITEMS;
        if (currentSessionId != null && currentSessionId.isBlank()) currentSessionId = null;
        if (store != null && !SessionHomes.STORES.contains(store))
            throw new StewardError("session_audit", "store must be hermes or claude, not " + store);
        if (Double.isNaN(idleHours) || Double.isInfinite(idleHours))
            throw new StewardError("session_audit", "idle_hours must be a number");
    }

    public boolean headless() {
        return mode.equals("headless");
    }

    /** The Claude Code idle time in seconds. */
    public double idleSeconds() {
        return idleHours > 0 ? idleHours * 3600.0 : ClaudeSessions.DEFAULT_IDLE_SECONDS;
    }
}
