package steward.server.tools;

/**
 * What a tool returns: the full record (serialised as {@code structuredContent}, validated against
 * the tool's output schema) and a short readable rendering for {@code content}. An error result
 * carries the "context: cause" message as its text and, optionally, a structured record too.
 */
public record ToolResult(Object structured, String text, boolean isError) {
    public static ToolResult ok(Object structured, String text) {
        return new ToolResult(structured, text, false);
    }

    public static ToolResult error(String message) {
        return new ToolResult(null, message, true);
    }

    public static ToolResult error(Object structured, String message) {
        return new ToolResult(structured, message, true);
    }
}
