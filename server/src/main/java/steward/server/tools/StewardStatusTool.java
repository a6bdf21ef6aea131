package steward.server.tools;

import java.util.Locale;
import java.util.Map;
import steward.recall.FeedbackStore;
import steward.recall.RecallStatus;
import steward.sessions.store.DiskUsage;
import steward.status.StatusEngine;
import steward.status.StatusReport;

/** {@code steward_status}: what Steward sees of the Hermes home. */
public final class StewardStatusTool extends StewardTool<NoArguments> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "steward_status",
                    "Steward status",
                    "What Steward sees: the Hermes and Claude Code homes and where their paths came from, sessions by status, "
                            + "memory usage vs limits (and what Claude Code loads), warnings. Use it first when a tool fails. Read-only.")
            .readOnly()
            .idempotent();

    public StewardStatusTool() {
        super(SPEC, NoArguments.class);
    }

    @Override
    public ToolResult call(NoArguments arguments, ToolContext ctx) {
        StatusReport r = new StatusEngine(ctx.paths(), ctx.recall(), ctx.clock()).status();
        String text = render(r);
        return r.failed()
                ? ToolResult.error(r, "steward_status: " + String.join("; ", r.errors()) + "\n\n" + text)
                : ToolResult.ok(r, text);
    }

    /** "state.db 1.2 GB (free list 410 MB reclaimable with session_apply vacuum), WAL 4.0 MB; side files 622 MB in 54,647 files (…)". */
    static String disk(DiskUsage d) {
        StringBuilder sb = new StringBuilder("state.db ")
                .append(bytes(d.db_bytes()))
                .append(" (free list ")
                .append(bytes(d.freelist_bytes()));
        if (d.freelist_bytes() > 0) sb.append(" reclaimable with session_apply vacuum");
        sb.append("), WAL ")
                .append(bytes(d.wal_bytes()))
                .append("; side files ")
                .append(bytes(d.side_file_bytes()))
                .append(" in ")
                .append(String.format(Locale.ROOT, "%,d", d.side_files()))
                .append(" files");
        if (d.request_dumps() > 0) {
            sb.append(" (request dumps ")
                    .append(bytes(d.request_dump_bytes()))
                    .append(" in ")
                    .append(String.format(Locale.ROOT, "%,d", d.request_dumps()))
                    .append(')');
        }
        return sb.toString();
    }

    /** Bytes for people: B, KB, MB, GB (powers of 1,024, one decimal from KB on). */
    static String bytes(long n) {
        if (n < 1024) return n + " B";
        String[] units = {"KB", "MB", "GB", "TB"};
        double v = n / 1024.0;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    static String render(StatusReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("Hermes home: ")
                .append(r.paths().hermes_home().path())
                .append(" (")
                .append(r.paths().hermes_home().origin())
                .append(r.hermes_home_exists() ? "" : ", missing")
                .append(")\n");
        sb.append("State dir:   ")
                .append(r.paths().state_dir().path())
                .append(" (")
                .append(r.paths().state_dir().origin())
                .append(")\n");
        StatusReport.StateDb db = r.state_db();
        sb.append("state.db:    ")
                .append(db.exists() ? (db.readable() ? "schema v" + db.schema_version() : "unreadable") : "not found")
                .append('\n');
        if (r.sessions() != null) {
            StatusReport.Sessions s = r.sessions();
            sb.append("Sessions:    ")
                    .append(s.total())
                    .append(" (active ")
                    .append(s.active())
                    .append(", ended ")
                    .append(s.ended())
                    .append(", archived ")
                    .append(s.archived())
                    .append("); ")
                    .append(s.messages())
                    .append(" messages\n");
            sb.append("By source:   ");
            boolean first = true;
            for (Map.Entry<String, Integer> e : s.by_source().entrySet()) {
                if (!first) sb.append(", ");
                sb.append(e.getKey()).append(' ').append(e.getValue());
                first = false;
            }
            sb.append('\n');
        }
        if (r.disk() != null) sb.append("Disk:        ").append(disk(r.disk())).append('\n');
        for (Map.Entry<String, StatusReport.MemoryUsage> e : r.memory().entrySet()) {
            StatusReport.MemoryUsage m = e.getValue();
            sb.append(e.getKey().equals("memory") ? "MEMORY.md:   " : "USER.md:     ");
            if (m.error() != null) sb.append("error: ").append(m.error());
            else if (!m.exists()) sb.append("absent (0/").append(m.limit()).append(" chars)");
            else sb.append(m.usage()).append(", ").append(m.entry_count()).append(" entries");
            sb.append('\n');
        }
        sb.append("Skills:      ").append(r.skills()).append('\n');
        StatusReport.Claude c = r.claude();
        if (c != null) {
            sb.append("Claude home: ")
                    .append(c.home().path())
                    .append(" (")
                    .append(c.home().origin())
                    .append(c.exists() ? "" : ", missing")
                    .append(")\n");
            if (c.exists()) {
                sb.append("Claude:      ")
                        .append(c.sessions())
                        .append(" sessions (live ")
                        .append(c.live())
                        .append(", ended ")
                        .append(c.ended())
                        .append("; live = appended to within ")
                        .append(
                                (c.idle_hours() == Math.rint(c.idle_hours())
                                        ? String.valueOf((long) c.idle_hours())
                                        : String.valueOf(c.idle_hours())))
                        .append(" h), ")
                        .append(c.subagents())
                        .append(" subagent transcripts, ")
                        .append(c.projects())
                        .append(" projects; cleanupPeriodDays ")
                        .append(c.cleanup_period_days())
                        .append('\n');
                int shown = 0;
                for (StatusReport.ClaudeProject p : c.by_project()) {
                    if (shown++ == 3) break;
                    sb.append(shown == 1 ? "  projects:  " : ", ")
                            .append(p.cwd() != null ? p.cwd() : p.project())
                            .append(' ')
                            .append(p.sessions())
                            .append(" (")
                            .append(p.live())
                            .append(" live)");
                }
                if (shown > 0) sb.append('\n');
                if (!c.unparseable_index_files().isEmpty()) {
                    sb.append("  index:     ")
                            .append(c.unparseable_index_files().size())
                            .append(" sessions-index.json cannot be parsed (left as they are)\n");
                }
                StatusReport.ClaudeMemory m = c.memory();
                if (m != null) {
                    sb.append("  memory:    ")
                            .append(m.indexes())
                            .append(" MEMORY.md, ")
                            .append(m.topics())
                            .append(" topics");
                    int n = 0;
                    for (StatusReport.ClaudeMemoryFile f : m.files()) {
                        if (!f.kind().equals("auto_memory_index") || n++ == 3) continue;
                        sb.append("; ")
                                .append(f.scope())
                                .append(' ')
                                .append(f.lines())
                                .append('/')
                                .append(m.index_window())
                                .append(" lines")
                                .append(f.lines_not_loaded() > 0 ? " (" + f.lines_not_loaded() + " not loaded)" : "");
                    }
                    long md = m.files().stream()
                            .filter(f -> f.kind().equals("claude_md"))
                            .count();
                    sb.append("; ").append(md).append(" CLAUDE.md files (loaded whole)\n");
                }
            }
        }
        if (r.recall() != null) {
            RecallStatus rc = r.recall();
            sb.append("Recall:      ")
                    .append(
                            rc.index_built()
                                    ? "index built " + rc.items()
                                    : "index not built yet (first recall call builds it)")
                    .append("; dense ")
                    .append(rc.dense())
                    .append(
                            rc.injection_precision() == null
                                    ? ""
                                    : String.format(
                                            "; injection precision %.2f over %d judged",
                                            rc.injection_precision(), rc.feedback_judged()))
                    .append('\n');
            for (FeedbackStore.Calibration cal : rc.calibration()) {
                if (cal.offset() != 0)
                    sb.append(String.format(
                            "             gate %s/%s %+.2f from %d outcomes%n",
                            cal.lane(),
                            cal.source(),
                            cal.offset(),
                            cal.outcomes().judged()));
            }
        }
        for (String w : r.warnings()) sb.append("warning: ").append(w).append('\n');
        return sb.toString().stripTrailing();
    }
}
