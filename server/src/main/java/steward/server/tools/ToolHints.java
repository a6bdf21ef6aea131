package steward.server.tools;

/** The four MCP tool annotations, every one set on purpose. */
public record ToolHints(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {
    public static ToolHints readOnlyQuery() {
        return new ToolHints(true, false, true, false);
    }
}
