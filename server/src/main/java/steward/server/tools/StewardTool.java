package steward.server.tools;

import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * One MCP tool: its {@link ToolSpec} and a handler that takes the tool's typed argument record {@code A} and calls
 * an engine with records. The input and output schemas are not here: they are {@code schemas/<name>.input.json}
 * and {@code schemas/<name>.output.json}. The registry validates the arguments against the input schema and binds
 * them to {@code A} (a record whose components are named like the schema's properties) before {@link #call}.
 * Throw {@link steward.StewardError} for expected failures; the registry turns it (and anything unexpected) into
 * an {@code isError} result.
 *
 * @param <A> the tool's argument record; {@link NoArguments} for a tool without arguments
 */
public abstract class StewardTool<A extends Record> {
    private final ToolSpec spec;
    private final Class<A> arguments;

    protected StewardTool(ToolSpec spec, Class<A> arguments) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.arguments = Objects.requireNonNull(arguments, "arguments");
    }

    public final ToolSpec spec() {
        return spec;
    }

    public final String name() {
        return spec.name();
    }

    public final String title() {
        return spec.title();
    }

    public final String description() {
        return spec.description();
    }

    public final ToolHints hints() {
        return spec.hints();
    }

    /** The record the validated arguments are bound to. */
    public final Class<A> argumentType() {
        return arguments;
    }

    /**
     * The arguments as the input schema checks them. The default is the arguments as given; a tool whose callers send
     * JSON null for what they leave out returns them without those nulls.
     */
    public ObjectNode arguments(ObjectNode given) {
        return given;
    }

    /** Runs the tool on arguments already validated against the input schema and bound to {@code A}. */
    public abstract ToolResult call(A arguments, ToolContext context) throws Exception;
}
