package steward.sessions.audit;

import java.time.Instant;

import steward.StewardError;

/** Arguments of {@code session_audit}. {@code now} null means the engine's clock. */
public record AuditRequest(String currentSessionId, Instant now, String mode, String locale, int maxItemsPerGroup) {
    public static final int DEFAULT_MAX_ITEMS = 20;
    public static final String DEFAULT_MODE = "interactive", DEFAULT_LOCALE = "en";

    public AuditRequest {
        if (mode == null) mode = DEFAULT_MODE;
        if (locale == null) locale = DEFAULT_LOCALE;
        if (!mode.equals("interactive") && !mode.equals("headless")) throw new StewardError("session_audit", "mode must be interactive or headless, not " + mode);
        if (!locale.equals("en") && !locale.equals("zh")) throw new StewardError("session_audit", "locale must be zh or en, not " + locale);
        if (maxItemsPerGroup <= 0) maxItemsPerGroup = DEFAULT_MAX_ITEMS;
        if (currentSessionId != null && currentSessionId.isBlank()) currentSessionId = null;
    }

    public boolean headless() {
        return mode.equals("headless");
    }
}
