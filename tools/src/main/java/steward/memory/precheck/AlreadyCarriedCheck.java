package steward.memory.precheck;

@CheckMeta(id = "already_carried", verdict = "already_covered", summary = "not already in MEMORY.md, USER.md or a skill",
        rationale = "Seed 001 step 1 (承载检查): what is already carried is not written again; update that place instead.")
public final class AlreadyCarriedCheck implements PrecheckCheck {
    public static final double COVERAGE = 0.85;
    public static final int MIN_TOKENS = 3;

    @Override
    public Outcome evaluate(PrecheckInput in) {
        if (in.exact()) return Outcome.fail("an identical entry exists");
        if (in.bestWhere() == null) return Outcome.pass("no related entry or skill");
        String d = "best candidate " + in.bestWhere() + " covers " + Math.round(in.bestCoverage() * 100) + " % of the content's words";
        return in.bestCoverage() >= COVERAGE && in.tokens() >= MIN_TOKENS ? Outcome.fail(d) : Outcome.pass(d);
    }
}
