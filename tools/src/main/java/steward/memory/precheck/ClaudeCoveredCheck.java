package steward.memory.precheck;

@CheckMeta(
        id = "claude_covered",
        verdict = "already_covered",
        summary = "not already in a CLAUDE.md file or an auto-memory topic",
        rationale =
                "Claude Code loads every CLAUDE.md and the auto-memory index each session: what one of them already says is not "
                        + "written again. A topic that carries it is replaced (memory_write target 'claude', action 'replace'); a CLAUDE.md "
                        + "line is the user's and stays as it is.")
public final class ClaudeCoveredCheck implements PrecheckCheck {
    /** Only for the Claude Code target; Hermes' stores are covered by already_carried. */
    static boolean claude(PrecheckInput in) {
        return "claude".equals(in.target());
    }

    @Override
    public Outcome evaluate(PrecheckInput in) {
        if (!claude(in)) return new Outcome("skip", "Hermes target");
        String place = "auto_memory".equals(in.bestSource()) ? "auto memory " : "";
        if (in.exact()) return Outcome.fail("identical text in " + place + in.bestWhere());
        if (in.bestWhere() == null) return Outcome.pass("no CLAUDE.md line or memory topic is related");
        String d =
                place + in.bestWhere() + " covers " + Math.round(in.bestCoverage() * 100) + " % of the content's words";
        return in.bestCoverage() >= AlreadyCarriedCheck.COVERAGE && in.tokens() >= AlreadyCarriedCheck.MIN_TOKENS
                ? Outcome.fail(d)
                : Outcome.pass(d);
    }
}
