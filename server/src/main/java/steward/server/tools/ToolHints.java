package steward.server.tools;

/**
 * The four MCP tool annotations. Tools never build this by position: {@link ToolSpec}'s named builders
 * ({@code readOnly()}, {@code destructive()}, {@code idempotent()}, {@code openWorld()}) set each hint that holds,
 * and every hint not named is explicitly false.
 */
public record ToolHints(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {
    /** Writes, but only adds or updates; a repeated call may act again; touches nothing outside this machine. */
    public static final ToolHints NONE = new ToolHints(false, false, false, false);

    public ToolHints {
        if (readOnly && destructive) throw new IllegalArgumentException("a read-only tool cannot be destructive");
    }
}
