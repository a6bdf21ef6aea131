package steward.server;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;
import steward.Work;
import steward.json.Json;
import steward.server.protocol.Cancellations;
import steward.server.protocol.ExchangeWork;
import steward.server.protocol.JsonRpcInspector;
import steward.server.protocol.MemoryWatcher;
import steward.server.protocol.StewardPrompts;
import steward.server.protocol.StewardResources;
import steward.server.resources.MemoryResources;
import steward.server.tools.StewardTool;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import tools.jackson.core.type.TypeReference;

/** Wires the tool registry into an MCP server over any transport. Adapters never see SQL; engines never see JSON-RPC. */
public final class McpServerFactory {
    public static final String SERVER_NAME = "steward";
    public static final String VERSION = "0.1.0";
    static final String INSTRUCTIONS =
            "Steward keeps this agent's sessions and memory in order. Call steward_status to see "
                    + "what it sees. Every tool result has a readable text and a structured record; errors read 'context: cause'.";

    private McpServerFactory() {}

    /** The tool as it appears in {@code tools/list}. */
    public static McpSchema.Tool describe(StewardTool<?> t) {
        Map<String, Object> in =
                Json.MAPPER.convertValue(Schemas.input(t.name()), new TypeReference<Map<String, Object>>() {});
        Map<String, Object> out =
                Json.MAPPER.convertValue(Schemas.output(t.name()), new TypeReference<Map<String, Object>>() {});
        var h = t.hints();
        return McpSchema.Tool.builder(t.name(), in)
                .title(t.title())
                .description(t.description())
                .outputSchema(out)
                .annotations(new McpSchema.ToolAnnotations(
                        t.title(), h.readOnly(), h.destructive(), h.idempotent(), h.openWorld(), null))
                .build();
    }

    public static McpSchema.CallToolResult toMcp(ToolResult r) {
        var b = McpSchema.CallToolResult.builder()
                .addTextContent(r.text() == null ? "" : r.text())
                .isError(r.isError());
        if (r.structured() != null) {
            b.structuredContent(Json.MAPPER.convertValue(
                    ToolRegistry.toJson(r.structured()), new TypeReference<Map<String, Object>>() {}));
        }
        return b.build();
    }

    /** Process-wide: every transport reports {@code notifications/cancelled} here, every tool call reads it. */
    public static final Cancellations CANCELLATIONS = new Cancellations();

    /**
     * What a server carries besides the registry's tools. {@code fixtures} are test-only
     * features (the conformance suite's fixture tools, resources and prompts); production passes
     * {@link #PRODUCTION}, which has none.
     */
    public record Extras(
            List<McpServerFeatures.SyncToolSpecification> tools,
            List<McpServerFeatures.SyncResourceSpecification> resources,
            List<McpServerFeatures.SyncResourceTemplateSpecification> templates,
            List<McpServerFeatures.SyncPromptSpecification> prompts,
            List<McpServerFeatures.SyncCompletionSpecification> completions) {
        public static final Extras PRODUCTION = new Extras(List.of(), List.of(), List.of(), List.of(), List.of());
    }

    /** A tool body that gets the per-request context (its {@link Work} carries progress and cancellation). */
    @FunctionalInterface
    public interface ToolBody {
        McpSchema.CallToolResult call(Map<String, Object> arguments, ToolContext ctx, McpSyncServerExchange exchange);
    }

    /**
     * Wraps a tool body with Steward's per-request plumbing: a {@link Work} built from the request's
     * {@code progressToken} (progress notifications) and the cancellation flag of this request, log
     * notifications to the client, and the request's bookkeeping removed when it ends.
     */
    public static McpServerFeatures.SyncToolSpecification toolSpec(
            McpSchema.Tool tool, ToolContext ctx, ToolBody body) {
        JsonRpcInspector.knownTool(tool.name());
        return McpServerFeatures.SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, req) -> {
                    Object unknown = req.meta() == null ? null : req.meta().get(JsonRpcInspector.UNKNOWN_TOOL_META);
                    if (unknown != null) {
                        throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                                .message("Unknown tool: " + unknown)
                                .data("Tool not found: " + unknown)
                                .build();
                    }
                    String session = exchange == null ? null : exchange.sessionId();
                    Object rid = req.meta() == null ? null : req.meta().get(Cancellations.REQUEST_ID_META);
                    String requestId = rid == null ? null : rid.toString();
                    Object bad = req.meta() == null ? null : req.meta().get(JsonRpcInspector.BAD_ARGUMENTS_META);
                    if (bad != null) {
                        return McpSchema.CallToolResult.builder()
                                .isError(true)
                                .addTextContent(tool.name() + ": arguments must be a JSON object, not " + bad
                                        + "; nothing was changed")
                                .build();
                    }
                    AtomicBoolean flag = CANCELLATIONS.register(session, requestId);
                    try {
                        ExchangeWork.log(
                                exchange, McpSchema.LoggingLevel.DEBUG, "tools/call " + tool.name() + " started");
                        McpSchema.CallToolResult r = body.call(
                                req.arguments() == null ? Map.of() : req.arguments(),
                                ctx.withWork(new ExchangeWork(exchange, req.progressToken(), flag)),
                                exchange);
                        if (Boolean.TRUE.equals(r.isError())) {
                            String first = r.content() != null
                                            && !r.content().isEmpty()
                                            && r.content().get(0) instanceof McpSchema.TextContent t
                                    ? t.text()
                                    : "";
                            ExchangeWork.log(
                                    exchange,
                                    flag.get() ? McpSchema.LoggingLevel.NOTICE : McpSchema.LoggingLevel.WARNING,
                                    tool.name() + ": " + first);
                        } else {
                            ExchangeWork.log(
                                    exchange, McpSchema.LoggingLevel.DEBUG, "tools/call " + tool.name() + " done");
                        }
                        return r;
                    } finally {
                        CANCELLATIONS.finished(session, requestId);
                    }
                })
                .build();
    }

    public static McpSyncServer build(McpServerTransportProvider transport, ToolRegistry registry, ToolContext ctx) {
        return build(transport, registry, ctx, Extras.PRODUCTION);
    }

    public static McpSyncServer build(
            McpServerTransportProvider transport, ToolRegistry registry, ToolContext ctx, Extras extras) {
        return configure(McpServer.sync(transport), registry, ctx, extras).build();
    }

    /**
     * The same server over Streamable HTTP (one MCP session per client, all sharing the registry). Handlers run on
     * the servlet container's request thread ({@code immediateExecution}): run on a Reactor thread, the SDK writes a
     * request's SSE answer and completes its {@code AsyncContext} from that thread, and under Tomcat 11 about 3 % of
     * answers were cut after their headers (clients read "chunked transfer encoding, state: READING_LENGTH"; the SDK
     * then also dropped the MCP session). HttpTransportIT#manyCallsOnOneConnectionAllComeBackWhole.
     */
    public static McpSyncServer build(
            McpStreamableServerTransportProvider transport, ToolRegistry registry, ToolContext ctx, Extras extras) {
        return configure(McpServer.sync(transport), registry, ctx, extras)
                .immediateExecution(true)
                .build();
    }

    private static <S extends McpServer.SyncSpecification<S>> McpServer.SyncSpecification<S> configure(
            McpServer.SyncSpecification<S> spec, ToolRegistry registry, ToolContext ctx, Extras extras) {
        List<McpServerFeatures.SyncToolSpecification> tools = new ArrayList<>();
        for (StewardTool<?> t : registry.tools()) {
            tools.add(toolSpec(
                    describe(t),
                    ctx,
                    (args, c, ex) -> toMcp(registry.invoke(t.name(), Json.MAPPER.valueToTree(args), c))));
        }
        tools.addAll(extras.tools());
        for (McpServerFeatures.SyncToolSpecification t : extras.tools())
            JsonRpcInspector.knownTool(t.tool().name());

        List<McpServerFeatures.SyncResourceSpecification> resources = new ArrayList<>(StewardResources.resources(ctx));
        resources.addAll(MemoryResources.specifications(ctx));
        resources.addAll(extras.resources());
        List<McpServerFeatures.SyncResourceTemplateSpecification> templates =
                new ArrayList<>(StewardResources.templates(ctx));
        templates.addAll(extras.templates());
        List<McpServerFeatures.SyncPromptSpecification> prompts = new ArrayList<>(StewardPrompts.prompts());
        prompts.addAll(extras.prompts());
        List<McpServerFeatures.SyncCompletionSpecification> completions =
                new ArrayList<>(StewardPrompts.completions(ctx));
        completions.addAll(extras.completions());

        return spec.serverInfo(SERVER_NAME, VERSION)
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder()
                        .tools(false)
                        .resources(true, false)
                        .prompts(false)
                        .completions()
                        .logging()
                        .build())
                .validateToolInputs(false) // the registry validates, with messages in Steward's "context: cause" form
                .tools(tools)
                .resources(resources)
                .resourceTemplates(templates)
                .prompts(prompts)
                .completions(completions);
    }

    /**
     * Sends {@code notifications/resources/updated} to this server's subscribers whenever MEMORY.md or
     * USER.md changes: for every listed resource whose URI ends with the file name, and for the
     * default {@code steward://memory/<file>} URIs.
     */
    public static void notifyOnMemoryChange(McpSyncServer server, MemoryWatcher watcher) {
        watcher.addListener(file -> {
            Set<String> uris = new LinkedHashSet<>();
            uris.add(MEMORY_URI_PREFIX + file);
            for (McpSchema.Resource r : server.listResources()) {
                if (r.uri() != null && r.uri().endsWith(file)) uris.add(r.uri());
            }
            for (String uri : uris) {
                try {
                    server.notifyResourcesUpdated(new McpSchema.ResourcesUpdatedNotification(uri));
                } catch (RuntimeException e) {
                    LoggerFactory.getLogger(McpServerFactory.class)
                            .debug("resources/updated {} failed: {}", uri, e.toString());
                }
            }
        });
    }

    /** Default URI prefix of the memory file resources ({@code steward://memory/MEMORY.md}). */
    public static final String MEMORY_URI_PREFIX = "steward://memory/";

    public static McpJsonMapper mapper() {
        return McpJsonDefaults.getMapper();
    }
}
