package steward.server.tools;

import steward.memory.MemoryWriter;
import steward.memory.lifecycle.HermesMemoryRoot;
import steward.memory.lifecycle.LocalZone;
import steward.memory.lifecycle.LogWriter;

/** {@code memory_log}: one short note in today's daily log, within the seed's limits. */
public final class MemoryLogTool extends StewardTool<MemoryLogTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
            "memory_log",
            "Note something in today's memory log",
            "Appends a short note to today's log in memories/logs/ for later consolidation: a preference, decision or "
                    + "pitfall seen this turn. Rate-limited, no duplicates. Refuses injection or secrets.");

    /** schemas/memory_log.input.json. */
    public record Args(String note, String cwd, String workspace) {}

    public MemoryLogTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        LogWriter.Result r = new LogWriter(
                        ctx.paths(),
                        new HermesMemoryRoot(ctx.paths(), new MemoryWriter(ctx.paths(), ctx.clock()).config()),
                        ctx.clock(),
                        LocalZone.resolve())
                .append(new LogWriter.Request(a.note(), a.cwd(), a.workspace()));
        String text = r.written()
                ? "noted (" + r.notes_today() + "/" + r.max_per_day() + " today) in " + r.file() + "; next note at "
                        + r.next_allowed_at()
                : "not noted (" + r.refused() + "): " + r.message()
                        + (r.next_allowed_at() == null ? "" : "; next note at " + r.next_allowed_at());
        return ToolResult.ok(r, text);
    }
}
