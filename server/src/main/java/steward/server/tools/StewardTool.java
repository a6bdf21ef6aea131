package steward.server.tools;

import tools.jackson.databind.JsonNode;

/**
 * One MCP tool: an adapter between JSON arguments and an engine's records. Its input and output
 * schemas are not here: they are loaded from {@code schemas/<name>.input.json} and
 * {@code schemas/<name>.output.json}. Throw {@link steward.StewardError} for expected failures;
 * the registry turns it (and anything unexpected) into an {@code isError} result.
 */
public interface StewardTool {
    /** {@code group_verb}, with a group prefix: {@code session_}, {@code memory_}, {@code recall_}, {@code steward_}. */
    String name();

    String title();

    /** Written for the model: what it does, when to use it, what it refuses. */
    String description();

    ToolHints hints();

    /** Arguments have already been validated against the input schema. */
    ToolResult call(JsonNode arguments, ToolContext context) throws Exception;
}
