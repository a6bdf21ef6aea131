package steward.server.tools;

import steward.StewardError;
import steward.memory.history.History;
import steward.memory.lifecycle.HermesMemoryRoot;

/** {@code memory_history}: versions of memories/ and skills/ files: list, diff, roll back. */
public final class MemoryHistoryTool extends StewardTool<MemoryHistoryTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "memory_history",
                    "Versions of memory and skill files",
                    "Versions of every change under memories/ and skills/: list; diff two (to "
                            + "omitted: now); rollback restores a version's exact bytes as a new, backed-up version. Use it to show or "
                            + "undo a change.")
            .destructive();
    /** schemas/memory_history.input.json. */
    public record Args(
            String action, String file, String version, String from, String to, Integer limit, Boolean confirm) {
        public Args {
            if (action == null) action = "list";
            if (limit == null) limit = History.DEFAULT_LIMIT;
        }
    }

    public MemoryHistoryTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        String action = a.action();
        // an argument the action does not use is refused, not ignored (a list "of version X" listed every version)
        if (action.equals("list") && a.version() != null)
            throw new StewardError(
                    "memory_history", "version is only for diff and rollback (list shows every version of the file)");
        if (action.equals("list") || action.equals("rollback")) {
            if (a.from() != null)
                throw new StewardError("memory_history", "from is only for diff (" + action + " does not use it)");
            if (a.to() != null)
                throw new StewardError("memory_history", "to is only for diff (" + action + " does not use it)");
        }
        if (!action.equals("rollback") && a.confirm() != null)
            throw new StewardError("memory_history", "confirm is only for rollback (" + action + " changes nothing)");
        HermesMemoryRoot.requireHome(ctx.paths(), "memory_history"); // its files are the Hermes home's
        History h = new History(ctx.paths(), ctx.clock());
        switch (action) {
            case "list" -> {
                History.ListResult r = h.list(a.file(), a.limit());
                StringBuilder sb = new StringBuilder(r.file() + ": " + r.total() + " version(s)"
                        + (r.left_out() > 0 ? ", newest " + r.versions().size() + " shown (limit raises it)" : "")
                        + "\n");
                for (var v : r.versions()) {
                    sb.append("  ")
                            .append(v.id())
                            .append(' ')
                            .append(v.time())
                            .append(' ')
                            .append(v.message())
                            .append(v.deleted() ? " (absent)" : " (" + v.bytes() + " bytes)")
                            .append('\n');
                }
                return ToolResult.ok(r, sb.toString().stripTrailing());
            }
            case "diff" -> {
                History.DiffResult r = h.diff(a.file(), a.from() != null ? a.from() : a.version(), a.to());
                return ToolResult.ok(
                        r,
                        r.identical()
                                ? r.file() + ": " + r.from() + " and " + r.to() + " are identical"
                                : r.file() + " " + r.from() + " → " + r.to() + " (+" + r.added() + " −" + r.removed()
                                        + ")\n" + r.diff());
            }
            case "rollback" -> {
                if (a.version() == null) throw new StewardError("memory_history", "rollback needs version (from list)");
                History.RollbackResult r = h.rollback(a.file(), a.version(), Boolean.TRUE.equals(a.confirm()));
                return ToolResult.ok(r, rollbackText(r));
            }
            default ->
                throw new StewardError("memory_history", "action must be list, diff or rollback, not '" + action + "'");
        }
    }

    static String rollbackText(History.RollbackResult r) {
        StringBuilder sb = new StringBuilder();
        if (r.needs_confirm()) {
            int n = r.would_remove().size() + r.would_remove_left_out();
            sb.append(r.file())
                    .append(" not rolled back to ")
                    .append(r.restored_version())
                    .append(": it would remove ")
                    .append(entries(n))
                    .append(" the file has now:\n");
            list(sb, "  - ", r.would_remove(), r.would_remove_left_out());
            int b = r.would_restore().size() + r.would_restore_left_out();
            sb.append(b == 0 ? "and bring back none.\n" : "and bring back " + entries(b) + ":\n");
            list(sb, "  + ", r.would_restore(), r.would_restore_left_out());
            sb.append("Ask the user; to roll back anyway, call again with confirm: true (the current bytes stay a "
                    + "version).");
        } else if (r.changed()) {
            sb.append("restored ")
                    .append(r.file())
                    .append(" to ")
                    .append(r.restored_version())
                    .append(" (")
                    .append(r.bytes())
                    .append(" bytes) ")
                    .append(
                            r.version() == null
                                    ? "(the bytes of its last recorded version, so no new version)"
                                    : "as version " + r.version())
                    .append("; previous bytes backed up at ")
                    .append(r.backup());
            if (r.removed_entries() != null && !r.removed_entries().isEmpty()) {
                sb.append("\nremoved ")
                        .append(entries(r.removed_entries().size() + r.removed_entries_left_out()))
                        .append(":\n");
                list(sb, "  - ", r.removed_entries(), r.removed_entries_left_out());
            }
        } else {
            sb.append(r.file()).append(" already has the bytes of ").append(r.restored_version());
        }
        StringBuilder out = new StringBuilder(sb.toString().stripTrailing());
        for (String w : r.warnings()) out.append("\nwarning: ").append(w);
        return out.toString();
    }

    private static String entries(int n) {
        return n + (n == 1 ? " entry" : " entries");
    }

    private static void list(StringBuilder sb, String mark, java.util.List<String> entries, int leftOut) {
        for (String e : entries)
            sb.append(mark).append(e.replace("\n", "\n    ")).append('\n');
        if (leftOut > 0) sb.append("  … and ").append(leftOut).append(" more\n");
    }
}
