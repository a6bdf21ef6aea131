package steward.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import steward.Work;
import steward.json.Json;
import steward.server.tools.StewardTool;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import tools.jackson.core.type.TypeReference;

/** Wires the tool registry into an MCP server over any transport. Adapters never see SQL; engines never see JSON-RPC. */
public final class McpServerFactory {
    public static final String SERVER_NAME = "steward";
    public static final String VERSION = "0.1.0";
    static final String INSTRUCTIONS = "Steward keeps this agent's sessions and memory in order. Call steward_status to see "
            + "what it sees. Every tool result has a readable text and a structured record; errors read 'context: cause'.";

    private McpServerFactory() {}

    /** The tool as it appears in {@code tools/list}. */
    public static McpSchema.Tool describe(StewardTool t) {
        Map<String, Object> in = Json.MAPPER.convertValue(Schemas.input(t.name()), new TypeReference<Map<String, Object>>() {});
        Map<String, Object> out = Json.MAPPER.convertValue(Schemas.output(t.name()), new TypeReference<Map<String, Object>>() {});
        var h = t.hints();
        return McpSchema.Tool.builder()
                .name(t.name())
                .title(t.title())
                .description(t.description())
                .inputSchema(in)
                .outputSchema(out)
                .annotations(new McpSchema.ToolAnnotations(t.title(), h.readOnly(), h.destructive(), h.idempotent(), h.openWorld(), null))
                .build();
    }

    public static McpSchema.CallToolResult toMcp(ToolResult r) {
        var b = McpSchema.CallToolResult.builder().addTextContent(r.text() == null ? "" : r.text()).isError(r.isError());
        if (r.structured() != null) {
            b.structuredContent(Json.MAPPER.convertValue(ToolRegistry.toJson(r.structured()), new TypeReference<Map<String, Object>>() {}));
        }
        return b.build();
    }

    public static McpSyncServer build(McpServerTransportProvider transport, ToolRegistry registry, ToolContext ctx) {
        List<McpServerFeatures.SyncToolSpecification> specs = new ArrayList<>();
        for (StewardTool t : registry.tools()) {
            specs.add(McpServerFeatures.SyncToolSpecification.builder()
                    .tool(describe(t))
                    .callHandler((exchange, req) -> toMcp(registry.invoke(t.name(),
                            Json.MAPPER.valueToTree(req.arguments() == null ? Map.of() : req.arguments()), ctx.withWork(Work.NONE))))
                    .build());
        }
        return McpServer.sync(transport)
                .serverInfo(SERVER_NAME, VERSION)
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).logging().build())
                .validateToolInputs(false) // the registry validates, with messages in Steward's "context: cause" form
                .tools(specs)
                .resources(steward.server.resources.MemoryResources.specifications(ctx))
                .build();
    }

    public static McpJsonMapper mapper() {
        return io.modelcontextprotocol.json.McpJsonDefaults.getMapper();
    }
}
