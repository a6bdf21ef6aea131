package steward.recall;

import java.util.List;

/**
 * One retrievable thing with a stable URI. {@code key} groups the items that are re-indexed together
 * (one memory file, one skill, one log, one session). {@code context} holds the neighbouring turns
 * of a session message (searched with a lower weight, never shown as the item). Times are epoch seconds.
 */
public record RecallItem(
        String uri,
        String source,
        String key,
        String title,
        String text,
        String context,
        double timestamp,
        String sessionId,
        boolean pinned) {
    public static final String MEMORY = "memory";
    public static final String SKILL = "skill";
    public static final String SESSION = "session";
    public static final String LOG = "log";
    /** A Claude Code home's transcript events and its CLAUDE.md files and auto memory ({@link ClaudeRecall}). */
    public static final String CLAUDE_SESSION = "claude_session", CLAUDE_MEMORY = "claude_memory";
    /** Every kind, in scope order. */
    public static final List<String> KINDS = List.of(MEMORY, SKILL, SESSION, LOG, CLAUDE_SESSION, CLAUDE_MEMORY);

    /** A message of a past session (Hermes or Claude Code). */
    public static boolean session(String kind) {
        return SESSION.equals(kind) || CLAUDE_SESSION.equals(kind);
    }

    /** Curated memory (Hermes' entries, Claude Code's CLAUDE.md files and auto memory). */
    public static boolean memory(String kind) {
        return MEMORY.equals(kind) || CLAUDE_MEMORY.equals(kind);
    }
}
