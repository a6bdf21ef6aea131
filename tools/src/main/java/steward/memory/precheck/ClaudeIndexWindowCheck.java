package steward.memory.precheck;

@CheckMeta(
        id = "claude_index_window",
        verdict = "needs_compression",
        summary = "MEMORY.md stays within the 200 lines Claude Code loads",
        rationale =
                "Claude Code loads only the first 200 lines of the auto-memory index MEMORY.md: a memory whose index line falls "
                        + "beyond them is never seen. Merge or remove memories first; near the window (90 %) it warns.")
public final class ClaudeIndexWindowCheck implements PrecheckCheck {
    /** For the Claude target the input's charsAfter/limit count MEMORY.md lines after the write and the loaded window. */
    @Override
    public Outcome evaluate(PrecheckInput in) {
        if (!ClaudeCoveredCheck.claude(in)) return new Outcome("skip", "Hermes target");
        String d = "MEMORY.md: " + in.charsAfter() + "/" + in.limit() + " lines after the write";
        if (in.charsAfter() > in.limit()) return Outcome.fail(d + ": the new index line would not be loaded");
        return in.charsAfter() * 10 >= in.limit() * 9 ? Outcome.warn(d + " (near the loaded window)") : Outcome.pass(d);
    }
}
