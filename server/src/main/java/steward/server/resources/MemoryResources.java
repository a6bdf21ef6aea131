package steward.server.resources;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import steward.memory.MemoryRender;
import steward.memory.MemoryTarget;
import steward.server.tools.ToolContext;

/** MEMORY.md and USER.md as read-only MCP resources, rendered as the agent sees them in Hermes' system prompt. */
public final class MemoryResources {
    private MemoryResources() {}

    public static String uri(MemoryTarget t) {
        return "steward://memory/" + t.fileName;
    }

    public static List<McpServerFeatures.SyncResourceSpecification> specifications(ToolContext ctx) {
        List<McpServerFeatures.SyncResourceSpecification> out = new ArrayList<>();
        for (MemoryTarget t : MemoryTarget.values()) {
            McpSchema.Resource res = McpSchema.Resource.builder(uri(t), t.fileName)
                    .title(t == MemoryTarget.USER ? "USER.md — who the user is" : "MEMORY.md — the agent's notes")
                    .description("Read-only: " + t.fileName
                            + " as Hermes injects it into the system prompt (header with usage, then "
                            + "the entries separated by §). Change it with memory_write.")
                    .mimeType("text/plain")
                    .build();
            out.add(new McpServerFeatures.SyncResourceSpecification(
                    res,
                    (exchange, req) -> McpSchema.ReadResourceResult.builder(
                                    List.of(McpSchema.TextResourceContents.builder(
                                                    uri(t), MemoryRender.resource(ctx.paths(), t))
                                            .mimeType("text/plain")
                                            .build()))
                            .build()));
        }
        return out;
    }
}
