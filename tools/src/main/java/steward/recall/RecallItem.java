package steward.recall;

/**
 * One retrievable thing with a stable URI. {@code key} groups the items that are re-indexed together
 * (one memory file, one skill, one log, one session). {@code context} holds the neighbouring turns
 * of a session message (searched with a lower weight, never shown as the item). Times are epoch seconds.
 */
public record RecallItem(String uri, String source, String key, String title, String text, String context,
                         double timestamp, String sessionId, boolean pinned) {
    public static final String MEMORY = "memory";
    public static final String SKILL = "skill";
    public static final String SESSION = "session";
    public static final String LOG = "log";
}
