package steward.server.tools;

import steward.memory.MemoryWriter;
import steward.memory.lifecycle.HermesMemoryRoot;
import steward.memory.lifecycle.LocalZone;
import steward.memory.lifecycle.MemoryHealth;
import tools.jackson.databind.JsonNode;

/** {@code memory_health}: the seed's memory health indicators, read-only. */
public final class MemoryHealthTool implements StewardTool {
    @Override
    public String name() {
        return "memory_health";
    }

    @Override
    public String title() {
        return "Check the health of long-term memory";
    }

    @Override
    public String description() {
        return "Read-only check of long-term memory: MEMORY.md size (≤ 4,000 ok, > 6,000 consolidate now) and Hermes' cap, days of "
                + "unprocessed logs (< 7), log files (< 30), entries without a confidence prefix or past their decay date, "
                + "workspace partitions, index freshness, the last consolidation, surplus .bak files. Each indicator says ok / warn / "
                + "act and the action. Use it to decide whether to run memory_consolidate.";
    }

    @Override
    public ToolHints hints() {
        return ToolHints.readOnlyQuery();
    }

    @Override
    public ToolResult call(JsonNode arguments, ToolContext ctx) {
        MemoryHealth.Result r = new MemoryHealth(new HermesMemoryRoot(ctx.paths(), new MemoryWriter(ctx.paths(), ctx.clock()).config()),
                ctx.paths().stateDir(), ctx.clock(), LocalZone.resolve()).check();
        StringBuilder sb = new StringBuilder("memory health: " + r.overall() + "\n");
        for (var i : r.indicators()) {
            sb.append("  [").append(i.status()).append("] ").append(i.id()).append(": ").append(i.value());
            if (!i.action().equals("none")) sb.append(" → ").append(i.action());
            sb.append('\n');
        }
        return ToolResult.ok(r, sb.toString().stripTrailing());
    }
}
