package steward.claude;

/**
 * A title-bearing entry of a transcript: {@code custom-title} (the user's rename), {@code ai-title} (generated),
 * {@code summary} (older versions) or {@code tag}. {@code line} is 1-based; for a fast scan of a large file it
 * is the byte offset of the line instead (only its order matters).
 */
public record TitleEntry(String kind, String text, long line) {
    public static final String CUSTOM = "custom-title";
    public static final String AI = "ai-title";
    public static final String SUMMARY = "summary";
    public static final String TAG = "tag";
}
