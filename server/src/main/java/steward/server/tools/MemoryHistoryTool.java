package steward.server.tools;

import steward.StewardError;
import steward.memory.history.History;
import steward.memory.lifecycle.HermesMemoryRoot;

/** {@code memory_history}: versions of memories/ and skills/ files: list, diff, roll back. */
public final class MemoryHistoryTool extends StewardTool<MemoryHistoryTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "memory_history",
                    "Versions of memory and skill files",
                    "Versions of every change under memories/ and skills/ (a private git repository): list; diff two (to "
                            + "omitted: now); rollback restores a version's exact bytes as a new, backed-up version. Use it to show or "
                            + "undo a change.")
            .destructive();
    /** schemas/memory_history.input.json. */
    public record Args(String action, String file, String version, String from, String to, Integer limit) {
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
                History.RollbackResult r = h.rollback(a.file(), a.version());
                return ToolResult.ok(
                        r,
                        r.changed()
                                ? "restored " + r.file() + " to " + r.restored_version() + " (" + r.bytes()
                                        + " bytes) "
                                        + (r.version() == null
                                                ? "(the bytes of its last recorded version, so no new version)"
                                                : "as version " + r.version())
                                        + "; previous bytes backed up at " + r.backup()
                                : r.file() + " already has the bytes of " + r.restored_version());
            }
            default ->
                throw new StewardError("memory_history", "action must be list, diff or rollback, not '" + action + "'");
        }
    }
}
