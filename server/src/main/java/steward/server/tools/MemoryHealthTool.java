package steward.server.tools;

import steward.memory.MemoryRules;
import steward.memory.MemoryWriter;
import steward.memory.lifecycle.HermesMemoryRoot;
import steward.memory.lifecycle.LocalZone;
import steward.memory.lifecycle.MemoryHealth;
import steward.memory.lifecycle.Scope;

/** {@code memory_health}: the seed's memory health indicators, read-only. */
public final class MemoryHealthTool extends StewardTool<NoArguments> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "memory_health",
                    "Check the health of long-term memory",
                    "Read-only check of long-term memory: MEMORY.md size (≤ " + MemoryRules.n(Scope.HEALTHY_CHARS)
                            + " ok, > " + MemoryRules.n(Scope.URGENT_CHARS)
                            + " consolidate now), unprocessed logs, untagged or "
                            + "decayed entries, index, last consolidation, each with the action. Use it to decide on memory_consolidate.")
            .readOnly()
            .idempotent();

    public MemoryHealthTool() {
        super(SPEC, NoArguments.class);
    }

    @Override
    public ToolResult call(NoArguments a, ToolContext ctx) {
        HermesMemoryRoot.requireHome(ctx.paths(), "memory_health"); // Claude Code only: no Hermes memory to check
        MemoryHealth.Result r = new MemoryHealth(
                        new HermesMemoryRoot(ctx.paths(), new MemoryWriter(ctx.paths(), ctx.clock()).config()),
                        ctx.paths().stateDir(),
                        ctx.clock(),
                        LocalZone.resolve())
                .check();
        StringBuilder sb = new StringBuilder("memory health: " + r.overall() + "\n");
        for (var i : r.indicators()) {
            sb.append("  [")
                    .append(i.status())
                    .append("] ")
                    .append(i.id())
                    .append(": ")
                    .append(i.value());
            if (!i.action().equals("none")) sb.append(" → ").append(i.action());
            sb.append('\n');
        }
        return ToolResult.ok(r, sb.toString().stripTrailing());
    }
}
