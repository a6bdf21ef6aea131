package steward.learning.rules;

import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Level;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.learning.RuleKey;
import steward.sessions.rules.RuleMeta;

/**
 * LOW → MEDIUM once the user gave a clear choice for it; MEDIUM → HIGH once approved twice in all, in at least 2
 * runs (not necessarily consecutive), never vetoed. Only explicit approvals count: a HIGH item that ran unasked is no
 * approval, a run in which the user left the condition's questions unanswered is no run of approvals, and only a run with
 * an approval promotes. The engine reports the change (and when the safety guard's cap keeps
 * the condition asked anyway).
 */
@RuleMeta(
        id = "promotion",
        summary =
                "MEDIUM approved twice (cumulative, in ≥2 runs, no veto ever) → HIGH; LOW with a clear approval → MEDIUM",
        rationale = "a recommendation the user keeps agreeing with no longer needs to be asked")
public final class PromotionRule implements LearningRule {
    public static final int APPROVALS_FOR_HIGH = 2;
    public static final int RUNS_FOR_HIGH = 2;

    @Override
    public void apply(LearningRun run) {
        for (var entry : run.byKey().entrySet()) {
            if (run.frozen.contains(entry.getKey())) continue;
            PreferenceData.RuleState s = run.state(entry.getValue().get(0));
            if (s.vetoes > 0 || s.locked) continue;
            if (entry.getValue().stream().allMatch(e -> "review".equals(e.action())))
                continue; // nothing to run: rule E learns topics
            if (RuleKey.along(entry.getKey())) continue; // a subagent taken along is always asked: never promoted
            // a promotion is made by an approval, never by a run left unanswered (after a trust or a withdrawn approval
            // the counts may already suffice)
            if (entry.getValue().stream().noneMatch(e -> e.outcome() == Outcome.APPROVED)) continue;
            if (s.level == Level.MEDIUM && s.approvals >= APPROVALS_FOR_HIGH && s.approval_runs >= RUNS_FOR_HIGH) {
                s.level = Level.HIGH;
            } else if (s.level == Level.LOW && s.approvals >= 1) {
                s.level = Level.MEDIUM;
            }
        }
    }
}
