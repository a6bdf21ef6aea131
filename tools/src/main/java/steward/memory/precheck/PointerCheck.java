package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(
        id = "pointer",
        verdict = "write_pointer",
        summary = "the full text does not already live elsewhere",
        rationale =
                "Seed 001 (可查证知识): what a document or a skill carries is compressed to a pointer (\"详见存档\"). A short mention of "
                        + "a place passes.")
public final class PointerCheck implements PrecheckCheck {
    public static final double SKILL_COVERAGE = 0.6;
    /** Longer than this (CJK counted twice) and naming where the full text lives: keep a pointer. */
    public static final int LONG = 80;

    static final Pattern POINTER = Pattern.compile(
            "(?i)\\bsee\\s+(?:the\\s+)?[`'\"]?[\\w./-]+|https?://\\S+|\\b(?:details?|more) (?:are )?in\\b"
                    + "|\\b(?:documented|described|listed|kept|maintained|written|recorded|explained) in\\b|\\bskill has the details\\b"
                    + "|\\b[\\w-]+/[\\w./-]+\\.(?:md|ya?ml|json|txt|rst|adoc)\\b|\\b[A-Z][\\w-]*\\.md\\b"
                    + "|详见|参见|细节见|见\\s*\\S{1,30}技能|写在|记录在|记在|维护在|见\\s*[`'\"]?[\\w./-]+\\.md|[\\w./-]+/SKILL\\.md|references/[\\w./-]+");

    /** Whether the text itself names the place the full text lives. */
    public static boolean mentionsElsewhere(String c) {
        return POINTER.matcher(c).find();
    }

    /** A skill carries most of it (but not all: that would be already_covered). */
    public static boolean skillCarries(PrecheckInput in) {
        return "skill".equals(in.bestSource())
                && in.bestCoverage() >= SKILL_COVERAGE
                && in.bestMissing().isEmpty()
                && in.bestSwapped().isEmpty()
                && !AlreadyCarriedCheck.carried(in)
                && in.tokens() >= AlreadyCarriedCheck.MIN_TOKENS;
    }

    @Override
    public Outcome evaluate(PrecheckInput in) {
        if (skillCarries(in))
            return Outcome.fail("the full text is already in " + in.bestWhere() + ": keep only a short pointer");
        if (mentionsElsewhere(in.content()) && Cues.weightedLength(in.content()) > LONG) {
            return Outcome.fail("the full text lives elsewhere: keep only a short pointer");
        }
        return Outcome.pass("no long text that lives elsewhere");
    }
}
