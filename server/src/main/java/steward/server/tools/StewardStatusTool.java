package steward.server.tools;

import java.util.Map;

import steward.status.StatusEngine;
import steward.status.StatusReport;
import tools.jackson.databind.JsonNode;

/** {@code steward_status}: what Steward sees of the Hermes home. */
public final class StewardStatusTool implements StewardTool {
    @Override
    public String name() {
        return "steward_status";
    }

    @Override
    public String title() {
        return "Steward status";
    }

    @Override
    public String description() {
        return "Shows what Steward sees of this agent's Hermes home: the resolved paths and where each came from, "
                + "whether state.db exists and its schema version, sessions by status (active/ended/archived) and by "
                + "source, the message count, MEMORY.md and USER.md usage (characters/limit/percent, entries), the number "
                + "of skills, and warnings. Use it first when Steward's other tools fail or to check memory headroom. "
                + "Read-only: it never creates or changes a file. Reports an error when the home is missing or a file "
                + "Steward needs cannot be read (the structured result still shows everything else).";
    }

    @Override
    public ToolHints hints() {
        return ToolHints.readOnlyQuery();
    }

    @Override
    public ToolResult call(JsonNode arguments, ToolContext ctx) {
        StatusReport r = new StatusEngine(ctx.paths(), ctx.recall(), ctx.clock()).status();
        String text = render(r);
        return r.failed() ? ToolResult.error(r, "steward_status: " + String.join("; ", r.errors()) + "\n\n" + text)
                : ToolResult.ok(r, text);
    }

    static String render(StatusReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("Hermes home: ").append(r.paths().hermes_home().path()).append(" (").append(r.paths().hermes_home().origin())
                .append(r.hermes_home_exists() ? "" : ", missing").append(")\n");
        sb.append("State dir:   ").append(r.paths().state_dir().path()).append(" (").append(r.paths().state_dir().origin()).append(")\n");
        StatusReport.StateDb db = r.state_db();
        sb.append("state.db:    ").append(db.exists() ? (db.readable() ? "schema v" + db.schema_version() : "unreadable") : "not found").append('\n');
        if (r.sessions() != null) {
            StatusReport.Sessions s = r.sessions();
            sb.append("Sessions:    ").append(s.total()).append(" (active ").append(s.active()).append(", ended ").append(s.ended())
                    .append(", archived ").append(s.archived()).append("); ").append(s.messages()).append(" messages\n");
            sb.append("By source:   ");
            boolean first = true;
            for (Map.Entry<String, Integer> e : s.by_source().entrySet()) {
                if (!first) sb.append(", ");
                sb.append(e.getKey()).append(' ').append(e.getValue());
                first = false;
            }
            sb.append('\n');
        }
        for (Map.Entry<String, StatusReport.MemoryUsage> e : r.memory().entrySet()) {
            StatusReport.MemoryUsage m = e.getValue();
            sb.append(e.getKey().equals("memory") ? "MEMORY.md:   " : "USER.md:     ");
            if (m.error() != null) sb.append("error: ").append(m.error());
            else if (!m.exists()) sb.append("absent (0/").append(m.limit()).append(" chars)");
            else sb.append(m.usage()).append(", ").append(m.entry_count()).append(" entries");
            sb.append('\n');
        }
        sb.append("Skills:      ").append(r.skills()).append('\n');
        if (r.recall() != null) {
            steward.recall.RecallStatus rc = r.recall();
            sb.append("Recall:      ").append(rc.index_built() ? "index built " + rc.items() : "index not built yet (first recall call builds it)")
                    .append("; dense ").append(rc.dense())
                    .append(rc.injection_precision() == null ? "" : String.format("; injection precision %.2f over %d judged",
                            rc.injection_precision(), rc.feedback_judged())).append('\n');
            for (steward.recall.FeedbackStore.Calibration c : rc.calibration()) {
                if (c.offset() != 0) sb.append(String.format("             gate %s/%s %+.2f from %d outcomes%n", c.lane(), c.source(), c.offset(), c.outcomes().judged()));
            }
        }
        for (String w : r.warnings()) sb.append("warning: ").append(w).append('\n');
        return sb.toString().stripTrailing();
    }
}
