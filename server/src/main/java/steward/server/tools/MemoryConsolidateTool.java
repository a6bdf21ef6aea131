package steward.server.tools;

import java.util.ArrayList;
import java.util.List;
import steward.StewardError;
import steward.memory.lifecycle.Consolidation;
import steward.memory.lifecycle.LocalZone;

/** {@code memory_consolidate}: daily logs → long-term memory, as gather → plan → apply. */
public final class MemoryConsolidateTool extends StewardTool<MemoryConsolidateTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "memory_consolidate",
                    "Consolidate daily logs into long-term memory",
                    "Turns daily logs into memory entries. gather: unprocessed lines, similar entries. plan: your proposals (+ "
                            + "gather's through) → every file's diff and a plan_id; changes nothing. apply: the plan, backed up, all or "
                            + "nothing. Show the plan first; prunes run only if in confirm_prune.")
            .destructive();
    /** schemas/memory_consolidate.input.json. */
    public record Args(
            String step,
            String workspace,
            String through,
            List<Consolidation.Proposal> proposals,
            String plan_id,
            List<String> confirm_prune,
            String locale,
            Integer max_excerpts) {
        public Args {
            if (max_excerpts == null) max_excerpts = Consolidation.MAX_EXCERPTS;
        }
    }

    public MemoryConsolidateTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        String step = a.step() == null
                ? (a.plan_id() != null ? "apply" : a.proposals() != null ? "plan" : "gather")
                : a.step();
        Consolidation c = Consolidation.hermes(ctx.paths(), ctx.clock(), LocalZone.resolve());
        switch (step) {
            case "gather" -> {
                Consolidation.GatherResult g = c.gather(a.workspace(), a.max_excerpts(), ctx.work());
                StringBuilder sb = new StringBuilder(g.scope() + " (" + g.file() + ", " + g.chars() + "/" + g.limit()
                        + " chars): " + g.excerpts() + " unprocessed log lines"
                        + (g.left_out() > 0 ? " (+" + g.left_out() + " more: call again after applying)" : "") + "\n");
                for (var d : g.days()) {
                    for (var l : d.lines()) {
                        sb.append("  ")
                                .append(l.ref())
                                .append(l.signals().isEmpty() ? "" : " " + l.signals())
                                .append(": ")
                                .append(l.text())
                                .append('\n');
                    }
                }
                sb.append(g.next());
                return ToolResult.ok(g, sb.toString());
            }
            case "plan" -> {
                Consolidation.PlanResult p = c.plan(
                        a.workspace(),
                        a.through(),
                        a.proposals() == null ? List.of() : new ArrayList<>(a.proposals()),
                        a.locale(),
                        ctx.work());
                return ToolResult.ok(p, p.report());
            }
            case "apply" -> {
                if (a.plan_id() == null)
                    throw new StewardError("memory_consolidate", "apply needs plan_id (from step plan)");
                Consolidation.ApplyResult r = c.apply(a.plan_id(), a.confirm_prune(), "mcp", ctx.work());
                return ToolResult.ok(r, r.report());
            }
            default ->
                throw new StewardError("memory_consolidate", "step must be gather, plan or apply, not '" + step + "'");
        }
    }
}
