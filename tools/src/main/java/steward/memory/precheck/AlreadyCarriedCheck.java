package steward.memory.precheck;

@CheckMeta(
        id = "already_carried",
        verdict = "already_covered",
        summary = "not already in MEMORY.md, USER.md or a skill",
        rationale =
                "Seed 001 step 1 (承载检查): what is already carried is not written again; update that place instead. Compared "
                        + "as concepts (English and Chinese wordings of a fact match); a version, host, path or number the match lacks, "
                        + "or two of its words in exchanged roles (db04/db05, plan/apply), makes it another fact.")
public final class AlreadyCarriedCheck implements PrecheckCheck {
    public static final double COVERAGE = 0.8;
    public static final int MIN_TOKENS = 3;

    /**
     * The best match carries the content: an identical entry, or it covers enough, lacks none of its anchors and names
     * the shared words in the same roles (no two exchanged: "apply before plan" is not "plan before apply"). When unsure it is not carried: a duplicate costs less than a fact silently dropped.
     */
    public static boolean carried(PrecheckInput in) {
        if (in.exact()) return true;
        return in.bestWhere() != null
                && in.bestCoverage() >= COVERAGE
                && in.bestMissing().isEmpty()
                && in.bestSwapped().isEmpty()
                && in.tokens() >= MIN_TOKENS;
    }

    @Override
    public Outcome evaluate(PrecheckInput in) {
        if (in.exact()) return Outcome.fail("an identical entry exists");
        if (in.bestWhere() == null) return Outcome.pass("no related entry or skill");
        String d = "best candidate " + in.bestWhere() + " covers " + Math.round(in.bestCoverage() * 100)
                + " % of the content"
                + (in.bestMissing().isEmpty() ? "" : " but not " + String.join(", ", in.bestMissing()))
                + (in.bestSwapped().isEmpty()
                        ? ""
                        : " but names " + in.bestSwapped().get(0) + " and "
                                + in.bestSwapped().get(1)
                                + " the other way round: another fact (if it replaces that one, update it instead)");
        return carried(in) ? Outcome.fail(d) : Outcome.pass(d);
    }
}
