package steward.claude;

/**
 * One block of a transcript message's content. A string content is one {@link Kind#TEXT} block. Only
 * {@code TEXT} is what the user or the assistant said; thinking, tool calls and tool output are kept apart
 * so that a reader (recall) can leave them out.
 */
public record ContentBlock(Kind kind, String text) {
    public enum Kind {
        TEXT,
        THINKING,
        TOOL_USE,
        TOOL_RESULT,
        IMAGE,
        OTHER
    }
}
