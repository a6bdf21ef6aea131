package steward.learning.rules;

import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Level;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.sessions.rules.RuleMeta;

/**
 * The mirror of promotion: a condition that asks by default (MEDIUM or LOW by its rule) which the user rejected at least
 * twice, in at least 2 runs, and never approved — or approved before but rejected every one since, twice in 2 runs or
 * restores (the user changed their mind) — is lowered to LOW and goes quiet: its items are listed for information and no
 * longer asked. Nothing ever runs from a quiet condition (silence keeps the session); approving one of its items by id
 * wakes it up again. The same holds for {@code <rule>/with_<kind>}: a deletion that would take along a subagent of that
 * kind, answered "keep both" every time, is listed, not asked, and both stay — the only way those keys learn (never to
 * delete).
 */
@RuleMeta(
        id = "quiet",
        summary =
                "rejected twice (≥2 runs) and never approved, or not since the last approval → LOW, listed but no longer asked; "
                        + "an approval by id asks again",
        rationale =
                "asking again and again about what the user always keeps only buries the questions that matter; keeping is the safe default")
public final class QuietRule implements LearningRule {
    public static final int VETOES_FOR_QUIET = 2;

    @Override
    public void apply(LearningRun run) {
        for (var entry : run.byKey().entrySet()) {
            if (run.frozen.contains(entry.getKey())) continue;
            if (entry.getKey().equals(SettledTopicsRule.RULE))
                continue; // rule E asks nothing to keep: SettledTopicsRule
            PreferenceData.RuleState s = run.state(entry.getValue().get(0));
            boolean approvedNow = entry.getValue().stream().anyMatch(e -> e.outcome() == Outcome.APPROVED);
            if (s.quiet && approvedNow) s.quiet = false;
            else if (!s.quiet && keptEveryTime(s) && s.base_level != Level.HIGH && s.level != Level.HIGH) {
                s.quiet = true;
                s.level = Level.LOW;
            }
        }
    }

    /** Rejected twice in two runs and never approved, or every one rejected since the last approval (twice, in two runs). */
    static boolean keptEveryTime(PreferenceData.RuleState s) {
        if (s.approvals == 0) return s.vetoes >= VETOES_FOR_QUIET && s.runs >= 2;
        return s.vetoes_since_approval >= VETOES_FOR_QUIET && s.veto_runs_since_approval >= 2;
    }
}
