package steward.sessions.inspect;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The short readable summary of a {@code session_inspect} result (also what {@code steward://session/{id}} shows). */
public final class InspectRenderer {
    private InspectRenderer() {}

    /** Entries per line of the summary; the structured result holds up to max_items. */
    static final int LINE_ITEMS = 5;

    public static String render(InspectResult r) {
        StringBuilder sb = new StringBuilder();
        for (InspectResult.Report s : r.sessions()) {
            if (sb.length() > 0) sb.append('\n');
            render(sb, s);
        }
        if (!r.not_found().isEmpty())
            sb.append("\nNot found: ").append(String.join(", ", r.not_found())).append('\n');
        return sb.toString().stripTrailing();
    }

    static void render(StringBuilder sb, InspectResult.Report s) {
        sb.append("Session ")
                .append(s.session_id())
                .append(" — ")
                .append(s.title() == null ? "(untitled)" : "\"" + s.title() + "\"")
                .append(" (")
                .append(s.source())
                .append(", ")
                .append(s.status())
                .append(s.end_reason() != null && !"active".equals(s.status()) ? ": " + s.end_reason() : "")
                .append(")\n");
        InspectResult.Timeline t = s.timeline();
        if (t.first_activity() == null) {
            sb.append("Time: no messages; started ")
                    .append(minute(t.started_at()))
                    .append('\n');
        } else {
            sb.append("Time: ")
                    .append(minute(t.first_activity()))
                    .append(" → ")
                    .append(minute(t.last_activity()))
                    .append(" UTC (span ")
                    .append(duration(t.span_seconds()))
                    .append(", active ")
                    .append(duration(t.active_seconds()))
                    .append(")");
            if (t.gap_count() > 0) {
                sb.append("; ")
                        .append(t.gap_count())
                        .append(t.gap_count() == 1 ? " pause" : " pauses")
                        .append(" ≥ ")
                        .append(duration(t.gap_threshold_seconds()))
                        .append(" (longest ")
                        .append(duration(t.gaps().stream()
                                .mapToDouble(InspectResult.Gap::seconds)
                                .max()
                                .orElse(0)))
                        .append(')');
            }
            sb.append('\n');
            if (t.phase_count() > 1) {
                sb.append("Phases: ").append(t.phase_count()).append('\n');
                for (InspectResult.Phase p :
                        t.phases().subList(0, Math.min(LINE_ITEMS, t.phases().size()))) {
                    sb.append("  ")
                            .append(p.index())
                            .append(". ")
                            .append(minute(p.start()))
                            .append(" ")
                            .append(
                                    switch (p.started_by()) {
                                        case "pause" -> "after a pause";
                                        case "topic_shift" -> "topic shift";
                                        default -> "start";
                                    })
                            .append(" · ")
                            .append(p.messages())
                            .append(" msgs");
                    if (p.tool_calls() > 0)
                        sb.append(" · ")
                                .append(p.tool_calls())
                                .append(p.tool_calls() == 1 ? " tool call" : " tool calls");
                    if (!p.keywords().isEmpty()) sb.append(" · ").append(String.join(", ", p.keywords()));
                    sb.append('\n');
                }
                more(sb, t.phase_count() - Math.min(LINE_ITEMS, t.phases().size()));
            }
        }
        InspectResult.Messages m = s.messages();
        sb.append("Messages: ").append(m.total());
        if (!m.by_role().isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, Integer> e : m.by_role().entrySet()) parts.add(e.getKey() + " " + e.getValue());
            sb.append(" (").append(String.join(", ", parts)).append(')');
        }
        if (m.compacted() > 0) sb.append("; ").append(m.compacted()).append(" compacted");
        if (m.rewound() > 0) sb.append("; ").append(m.rewound()).append(" rewound");
        if (m.malformed_lines() != null && m.malformed_lines() > 0)
            sb.append("; ").append(m.malformed_lines()).append(" malformed lines skipped");
        sb.append('\n');
        InspectResult.Tools tl = s.tools();
        if (tl.calls() > 0) {
            sb.append("Tools: ").append(tl.calls()).append(tl.calls() == 1 ? " call" : " calls");
            if (tl.failures() > 0) sb.append(", ").append(tl.failures()).append(" failed");
            sb.append(" — ");
            List<String> parts = new ArrayList<>();
            for (InspectResult.ToolStat ts :
                    tl.by_tool().subList(0, Math.min(LINE_ITEMS, tl.by_tool().size()))) {
                StringBuilder p = new StringBuilder(ts.name()).append(' ').append(ts.calls());
                if (ts.failures() > 0) p.append(" (").append(ts.failures()).append(" failed)");
                parts.add(p.toString());
            }
            sb.append(String.join(", ", parts));
            if (tl.distinct() > LINE_ITEMS)
                sb.append(", … ").append(tl.distinct() - LINE_ITEMS).append(" more tools");
            sb.append('\n');
        }
        InspectResult.Subagents sa = s.subagents();
        if (sa.count() > 0) {
            sb.append("Subagents: ").append(sa.count()).append('\n');
            for (InspectResult.Subagent a :
                    sa.items().subList(0, Math.min(LINE_ITEMS, sa.items().size()))) {
                boolean ok = "completed".equals(a.status());
                sb.append("  ")
                        .append(ok ? "✓ " : "active".equals(a.status()) ? "… " : "✗ ")
                        .append(a.goal() == null ? a.session_id() : a.goal())
                        .append(" — ")
                        .append(a.status())
                        .append(", ")
                        .append(a.messages())
                        .append(" msgs");
                if (a.duration_seconds() != null) sb.append(", ").append(duration(a.duration_seconds()));
                if (!ok && a.outcome() != null) sb.append(": ").append(a.outcome());
                sb.append('\n');
            }
            more(sb, sa.count() - Math.min(LINE_ITEMS, sa.items().size()));
        }
        InspectResult.UsageOut u = s.usage();
        if (u.recorded()) {
            sb.append("Tokens: in ")
                    .append(num(u.input_tokens()))
                    .append(" · out ")
                    .append(num(u.output_tokens()));
            if (nz(u.cache_read_tokens()) || nz(u.cache_write_tokens())) {
                sb.append(" · cache read/write ")
                        .append(num(u.cache_read_tokens()))
                        .append('/')
                        .append(num(u.cache_write_tokens()));
            }
            if (nz(u.reasoning_tokens())) sb.append(" · reasoning ").append(num(u.reasoning_tokens()));
            if (u.actual_cost_usd() != null) sb.append(" · cost $").append(money(u.actual_cost_usd()));
            else if (u.estimated_cost_usd() != null)
                sb.append(" · cost ≈ $").append(money(u.estimated_cost_usd())).append(" (estimated)");
            if (u.by_model().size() > 1)
                sb.append(" · ").append(u.by_model().size()).append(" models");
            if (u.with_subagents() != null && u.with_subagents().estimated_cost_usd() != null) {
                sb.append(" · with subagents ≈ $")
                        .append(money(u.with_subagents().estimated_cost_usd()));
            }
            sb.append('\n');
        } else {
            sb.append("Tokens: not recorded by the store\n");
        }
        if (s.files().distinct() > 0) {
            List<String> parts = new ArrayList<>();
            for (InspectResult.FileOut f : s.files()
                    .items()
                    .subList(0, Math.min(LINE_ITEMS, s.files().items().size()))) {
                parts.add(f.path() + " ×" + f.touches() + (f.writes() > 0 ? " (" + f.writes() + " written)" : ""));
            }
            sb.append("Files: ").append(String.join(", ", parts));
            if (s.files().distinct() > LINE_ITEMS)
                sb.append(", … ").append(s.files().distinct() - LINE_ITEMS).append(" more");
            sb.append('\n');
        }
        if (s.commands().distinct() > 0) {
            List<String> parts = new ArrayList<>();
            for (InspectResult.CommandOut c : s.commands()
                    .items()
                    .subList(0, Math.min(LINE_ITEMS, s.commands().items().size()))) {
                parts.add(c.command() + " ×" + c.runs() + (c.failures() > 0 ? " (" + c.failures() + " failed)" : ""));
            }
            sb.append("Commands: ").append(String.join("; ", parts));
            if (s.commands().distinct() > LINE_ITEMS)
                sb.append("; … ").append(s.commands().distinct() - LINE_ITEMS).append(" more");
            sb.append('\n');
        }
        InspectResult.Lineage l = s.lineage();
        List<String> lin = new ArrayList<>();
        if (l.parent() != null)
            lin.add(
                    switch (l.parent().relation()) {
                        case "delegated" -> "subagent of " + l.parent().session_id();
                        case "continued" -> "continues " + l.parent().session_id() + " (after compression)";
                        case "branched" -> "branched from " + l.parent().session_id();
                        default -> "child of " + l.parent().session_id();
                    });
        if (l.compressed_into() != null) lin.add("compressed into " + l.compressed_into());
        else if (!l.continuations().isEmpty())
            lin.add("continued in " + l.continuations().get(0).session_id());
        if (!l.branches().isEmpty())
            lin.add(l.branches().size() + (l.branches().size() == 1 ? " branch" : " branches"));
        if (l.chain().size() > 1) lin.add("chain of " + l.chain().size() + " sessions");
        if (l.compacted_messages() > 0) lin.add(l.compacted_messages() + " messages compacted in place");
        if (!lin.isEmpty())
            sb.append("Lineage: ").append(String.join("; ", lin)).append('\n');
    }

    private static void more(StringBuilder sb, int n) {
        if (n > 0) sb.append("  … ").append(n).append(" more\n");
    }

    private static boolean nz(Long v) {
        return v != null && v != 0;
    }

    private static String num(Long v) {
        return v == null ? "?" : String.format(Locale.ROOT, "%,d", v);
    }

    private static String money(double v) {
        return new DecimalFormat("0.00##", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(v);
    }

    /** {@code 2026-08-01T09:00:00Z} → {@code 2026-08-01 09:00}. */
    static String minute(String iso) {
        if (iso == null) return "?";
        return iso.length() >= 16 ? iso.substring(0, 10) + " " + iso.substring(11, 16) : iso;
    }

    /** 7200 → {@code 2h}, 7260 → {@code 2h 1m}, 520 → {@code 8m 40s}, 42.5 → {@code 42.5 s}. */
    public static String duration(double seconds) {
        if (seconds < 60)
            return (seconds == Math.rint(seconds)
                            ? String.valueOf((long) seconds)
                            : String.format(Locale.ROOT, "%.1f", seconds))
                    + " s";
        long s = Math.round(seconds);
        if (s < 3600) return (s / 60) + "m" + (s % 60 == 0 ? "" : " " + (s % 60) + "s");
        if (s < 86400) return (s / 3600) + "h" + (s % 3600 / 60 == 0 ? "" : " " + (s % 3600 / 60) + "m");
        return (s / 86400) + "d " + (s % 86400 / 3600) + "h";
    }
}
