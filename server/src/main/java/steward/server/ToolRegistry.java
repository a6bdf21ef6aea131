package steward.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import steward.StewardError;
import steward.Work;
import steward.json.Json;
import steward.server.tools.StewardTool;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one explicit, ordered list of tools. Every entry point (stdio, HTTP, {@code steward call},
 * the demo, benchmarks) invokes tools through {@link #invoke}, so a tool behaves the same everywhere:
 * arguments are validated against the input schema and bound to the tool's argument record,
 * expected failures become {@code isError} results, and an exception that escapes a tool is logged
 * to stderr and returned as an {@code isError} result, never a protocol error.
 */
public final class ToolRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(ToolRegistry.class);
    private final Map<String, StewardTool<?>> tools = new LinkedHashMap<>();

    public ToolRegistry(List<StewardTool<?>> ordered) {
        for (StewardTool<?> t : ordered) {
            if (tools.putIfAbsent(t.name(), t) != null)
                throw new IllegalArgumentException("duplicate tool " + t.name());
        }
    }

    public List<StewardTool<?>> tools() {
        return new ArrayList<>(tools.values());
    }

    public Optional<StewardTool<?>> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    public ToolResult invoke(String name, JsonNode arguments, ToolContext ctx) {
        StewardTool<?> tool = tools.get(name);
        if (tool == null) {
            return ToolResult.error(name + ": unknown tool (known: " + String.join(", ", tools.keySet()) + ")");
        }
        JsonNode args = arguments == null || arguments.isNull() ? Json.MAPPER.createObjectNode() : arguments;
        if (!args.isObject()) return ToolResult.error(name + ": arguments must be a JSON object");
        args = tool.arguments((ObjectNode) args);
        List<String> problems = Schemas.validate(name + ".input.json", args);
        if (!problems.isEmpty()) {
            return ToolResult.error(name + ": invalid arguments: " + String.join("; ", problems));
        }
        try {
            // a home that does not exist is refused before anything could create it (steward_status reports it itself)
            if (!name.equals("steward_status")) ctx.paths().requireHome(name);
            return bindAndCall(tool, args, ctx);
        } catch (Work.Cancelled e) {
            return ToolResult.error(e.getMessage());
        } catch (StewardError e) {
            String msg = e.getMessage();
            return ToolResult.error(msg.startsWith(name + ":") ? msg : name + ": " + msg);
        } catch (Exception | LinkageError | AssertionError e) {
            LOG.error("tool {} failed unexpectedly", name, e);
            return ToolResult.error(name + ": internal error: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    private static <A extends Record> ToolResult bindAndCall(StewardTool<A> tool, JsonNode args, ToolContext ctx)
            throws Exception {
        A bound;
        try {
            bound = Json.MAPPER.treeToValue(args, tool.argumentType());
        } catch (JacksonException e) {
            String msg = e.getOriginalMessage();
            return ToolResult.error(tool.name() + ": invalid arguments: "
                    + (msg == null
                            ? e.getClass().getSimpleName()
                            : msg.lines().findFirst().orElse(msg)));
        }
        ToolResult r = tool.call(bound, ctx);
        if (r == null) throw new IllegalStateException("tool returned no result");
        return r;
    }

    /** The structured result as a JSON object (what goes into {@code structuredContent}). */
    public static ObjectNode toJson(Object structured) {
        if (structured == null) return null;
        JsonNode n = structured instanceof JsonNode j ? j : Json.MAPPER.valueToTree(structured);
        if (!n.isObject()) throw new IllegalStateException("structured content must be a JSON object");
        return (ObjectNode) n;
    }
}
