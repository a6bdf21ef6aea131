package steward.learning.rules;

import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Level;
import steward.learning.PreferenceData;
import steward.sessions.rules.RuleMeta;

/**
 * A HIGH condition vetoed (the user kept the session, or restored one it ran automatically) twice is demoted to
 * MEDIUM for good, with "you kept similar ones before" in its reason. (After the first veto it already stops running
 * unattended: rule F asks instead, because HIGH needs no veto ever.) The engine reports the change.
 */
@RuleMeta(
        id = "demotion",
        summary = "HIGH vetoed twice → MEDIUM, \"you kept similar ones before\"",
        rationale = "a rule that deletes what the user wants kept must ask first")
public final class DemotionRule implements LearningRule {
    public static final int VETOES_FOR_DEMOTION = 2;

    @Override
    public void apply(LearningRun run) {
        for (var entry : run.byKey().entrySet()) {
            if (run.frozen.contains(entry.getKey())) continue;
            PreferenceData.RuleState s = run.state(entry.getValue().get(0));
            if (s.level == Level.HIGH && s.vetoes >= VETOES_FOR_DEMOTION) s.level = Level.MEDIUM;
        }
    }
}
