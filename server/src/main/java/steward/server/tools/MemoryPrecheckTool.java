package steward.server.tools;

import java.util.List;
import steward.StewardError;
import steward.memory.MemoryPrecheck;
import steward.memory.MemoryWriter;
import steward.memory.claude.ClaudeMemoryPrecheck;

/** {@code memory_precheck}: may I write this to memory, and where does it belong? */
public final class MemoryPrecheckTool extends StewardTool<MemoryPrecheckTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "memory_precheck",
                    "Check a memory write before making it",
                    "Before writing long-term memory, checks the exact content: write, write_pointer, already_covered, "
                            + "route_skill/archive/session_search/claude_md, reject_history/threat, split (> "
                            + MemoryPrecheck.SPLIT_CHARS + " chars) or needs_compression. "
                            + "target claude: also against CLAUDE.md. Answer its questions in a second call. Read-only.")
            .readOnly()
            .idempotent();

    /** schemas/memory_precheck.input.json. */
    public record Args(String target, String content, Answers answers, String project) {}

    /** Answers to the judgment questions of a previous call. */
    public record Answers(String frequency, String consequence) {}

    public MemoryPrecheckTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        MemoryPrecheck.Answers answers = a.answers() == null
                ? null
                : new MemoryPrecheck.Answers(
                        a.answers().frequency(), a.answers().consequence());
        if (ClaudeMemoryPrecheck.TARGET.equals(a.target())) {
            var c = new ClaudeMemoryPrecheck(ClaudeMemoryTargets.home(ctx, SPEC.name()))
                    .check(
                            ClaudeMemoryTargets.project(a.project(), SPEC.name()),
                            a.content() == null ? "" : a.content(),
                            answers);
            String text = render(new MemoryPrecheck.Result(
                    c.verdict(),
                    c.is_final(),
                    c.reason(),
                    c.target(),
                    c.file(),
                    c.chars_before(),
                    c.chars_after(),
                    c.limit(),
                    c.percent_after(),
                    c.fits(),
                    c.checks(),
                    c.candidates(),
                    c.candidates_left_out(),
                    c.questions(),
                    c.warnings(),
                    c.suggested_pointer(),
                    c.split_units(),
                    List.of()));
            text = text.replace(
                    c.chars_after() + "/" + c.limit() + " chars (" + c.percent_after() + " %)",
                    c.chars_after() + " lines (Claude Code loads the first " + c.limit() + ")");
            return ToolResult.ok(c, text);
        }
        if (a.project() != null) throw new StewardError(SPEC.name(), "project is for target 'claude' only");
        MemoryPrecheck.Result r = new MemoryPrecheck(new MemoryWriter(ctx.paths(), ctx.clock()))
                .check(a.target(), a.content() == null ? "" : a.content(), answers);
        return ToolResult.ok(r, render(r));
    }

    static String render(MemoryPrecheck.Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append("verdict: ")
                .append(r.verdict())
                .append(r.is_final() ? "" : " (provisional: answer the questions)")
                .append(" — ")
                .append(r.reason())
                .append('\n');
        sb.append(r.file())
                .append(" after the write: ")
                .append(r.chars_after())
                .append('/')
                .append(r.limit())
                .append(" chars (")
                .append(r.percent_after())
                .append(" %)\n");
        for (var c : r.checks())
            sb.append("  [")
                    .append(c.status())
                    .append("] ")
                    .append(c.id())
                    .append(": ")
                    .append(c.detail())
                    .append('\n');
        for (var c : r.candidates()) {
            sb.append("  candidate ")
                    .append(c.rank())
                    .append(": ")
                    .append(c.where())
                    .append(" score ")
                    .append(c.score())
                    .append(" — ")
                    .append(c.preview())
                    .append('\n');
        }
        for (var q : r.questions())
            sb.append("  question ")
                    .append(q.id())
                    .append(": ")
                    .append(q.question())
                    .append(' ')
                    .append(q.options())
                    .append('\n');
        if (r.suggested_pointer() != null)
            sb.append("  pointer: ").append(r.suggested_pointer()).append('\n');
        for (String w : r.warnings()) sb.append("warning: ").append(w).append('\n');
        return sb.toString().stripTrailing();
    }
}
