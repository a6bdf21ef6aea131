package steward.server.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import steward.StewardError;
import steward.memory.MemoryResult;
import steward.memory.MemoryStaging;
import steward.memory.MemoryWriter;

/** {@code memory_pending}: the staged memory writes (write approval): list, approve, reject. */
public final class MemoryPendingTool extends StewardTool<MemoryPendingTool.Args> {
    static final int MAX_LISTED = 50;
    static final String DEFAULT_ACTION = "list";

    static final ToolSpec SPEC = ToolSpec.of(
                    "memory_pending",
                    "Staged memory writes: list, approve, reject",
                    "Lists, approves or rejects the writes memory_write staged because memory.write_approval is on. approve "
                            + "applies one as staged (checks rerun: it can fail); reject deletes it. Only when the user said so "
                            + "explicitly.")
            .destructive();

    /** schemas/memory_pending.input.json. */
    public record Args(String action, String pending_id) {
        public Args {
            if (action == null) action = DEFAULT_ACTION;
        }
    }

    public MemoryPendingTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        String action = a.action();
        String id = a.pending_id();
        MemoryStaging staging = new MemoryStaging(ctx.paths(), ctx.clock());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("action", action);
        switch (action) {
            case "approve" -> {
                MemoryResult r = staging.approve(require(id, action), new MemoryWriter(ctx.paths(), ctx.clock()));
                out.put("pending_id", id);
                out.put("applied", r.success());
                out.put("result", r.record());
                String text =
                        "approve " + id + ": " + (r.success() ? "applied" : "NOT applied (the staged write is kept)")
                                + "\n" + MemoryTexts.render(r);
                return r.success()
                        ? ToolResult.ok(out, text)
                        : ToolResult.error(out, "memory_pending: " + r.record().get("error") + "\n\n" + text);
            }
            case "reject" -> {
                MemoryStaging.Pending p = staging.reject(require(id, action));
                out.put("pending_id", id);
                out.put("applied", false);
                return ToolResult.ok(out, "rejected " + id + ": " + p.summary());
            }
            default -> {
                MemoryStaging.Listing listing = staging.listing();
                List<MemoryStaging.Pending> all = listing.pending();
                List<Map<String, Object>> rows = new ArrayList<>();
                StringBuilder sb = new StringBuilder(
                        all.isEmpty() ? "no staged memory writes" : all.size() + " staged memory write(s):");
                for (MemoryStaging.Pending p : all.subList(0, Math.min(MAX_LISTED, all.size()))) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("pending_id", p.pending_id());
                    row.put("created_at", p.created_at());
                    row.put("created_at_epoch", p.created_at_epoch());
                    row.put("target", p.target());
                    row.put("summary", p.summary());
                    row.put(
                            "path",
                            staging.dir().resolve(p.pending_id() + ".json").toString());
                    rows.add(row);
                    sb.append("\n  ")
                            .append(p.pending_id())
                            .append("  ")
                            .append(p.created_at())
                            .append("  ")
                            .append(p.summary());
                }
                out.put("count", all.size());
                out.put("left_out", Math.max(0, all.size() - MAX_LISTED));
                out.put("pending", rows);
                if (!listing.unreadable().isEmpty()) {
                    List<String> paths = listing.unreadable().stream()
                            .map(java.nio.file.Path::toString)
                            .toList();
                    out.put("unreadable", paths);
                    sb.append("\n")
                            .append(paths.size())
                            .append(" staged file(s) Steward cannot read, left as they are:");
                    for (String p : paths) sb.append("\n  ").append(p);
                }
                return ToolResult.ok(out, sb.toString());
            }
        }
    }

    private static String require(String id, String action) {
        if (id == null || id.isBlank())
            throw new StewardError(SPEC.name(), action + " needs pending_id (see action 'list')");
        return id;
    }
}
