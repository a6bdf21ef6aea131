package steward.server.tools;

import steward.memory.MemoryPrecheck;
import steward.memory.MemoryWriter;
import tools.jackson.databind.JsonNode;

/** {@code memory_precheck}: may I write this to memory, and where does it belong? */
public final class MemoryPrecheckTool implements StewardTool {
    @Override
    public String name() {
        return "memory_precheck";
    }

    @Override
    public String title() {
        return "Check a memory write before making it";
    }

    @Override
    public String description() {
        return "Before writing to long-term memory, runs the pre-write checklist on the exact content and returns a verdict: "
                + "write, write_pointer (the full text lives elsewhere: keep a short pointer), already_covered (ranked candidates "
                + "from MEMORY.md, USER.md and skills/**/SKILL.md with scores and where), route_skill (a procedure), route_archive "
                + "(an incident story, rare troubleshooting), route_session_search (a temporary TODO or progress), reject_history "
                + "(a past, already-fixed state), split (several independent units or > 200 characters), needs_compression (does "
                + "not fit: which entries to merge first) or reject_threat. Every check is listed, with the size after the write and "
                + "a tag warning for MEMORY.md entries lacking [base]/[env]/[ops]/[rule]. Judgment checks (how often it matters, "
                + "what happens if the agent does not know it) come back as questions: answer them in a second call with 'answers'. "
                + "Read-only: it never writes anything.";
    }

    @Override
    public ToolHints hints() {
        return ToolHints.readOnlyQuery();
    }

    @Override
    public ToolResult call(JsonNode a, ToolContext ctx) {
        MemoryPrecheck.Answers answers = null;
        JsonNode an = a.get("answers");
        if (an != null && an.isObject()) {
            answers = new MemoryPrecheck.Answers(an.has("frequency") ? an.get("frequency").asString() : null,
                    an.has("consequence") ? an.get("consequence").asString() : null);
        }
        MemoryPrecheck.Result r = new MemoryPrecheck(new MemoryWriter(ctx.paths(), ctx.clock()))
                .check(a.has("target") ? a.get("target").asString() : null, a.path("content").asString(""), answers);
        return ToolResult.ok(r, render(r));
    }

    static String render(MemoryPrecheck.Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append("verdict: ").append(r.verdict()).append(r.is_final() ? "" : " (provisional: answer the questions)").append(" — ")
                .append(r.reason()).append('\n');
        sb.append(r.file()).append(" after the write: ").append(r.chars_after()).append('/').append(r.limit()).append(" chars (")
                .append(r.percent_after()).append(" %)\n");
        for (var c : r.checks()) sb.append("  [").append(c.status()).append("] ").append(c.id()).append(": ").append(c.detail()).append('\n');
        for (var c : r.candidates()) {
            sb.append("  candidate ").append(c.rank()).append(": ").append(c.where()).append(" score ").append(c.score()).append(" — ")
                    .append(c.preview()).append('\n');
        }
        for (var q : r.questions()) sb.append("  question ").append(q.id()).append(": ").append(q.question()).append(' ').append(q.options()).append('\n');
        if (r.suggested_pointer() != null) sb.append("  pointer: ").append(r.suggested_pointer()).append('\n');
        for (String w : r.warnings()) sb.append("warning: ").append(w).append('\n');
        return sb.toString().stripTrailing();
    }
}
