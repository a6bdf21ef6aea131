package steward.learning.rules;

import steward.learning.Level;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.PreferenceData;

/**
 * The mirror of promotion: a condition that asks by default (MEDIUM or LOW by its rule) which the user rejected at
 * least twice (in at least 2 runs) and never approved is lowered to LOW and goes quiet — its items are listed for information and no longer asked. Nothing ever runs from a
 * quiet condition (silence keeps the session); approving one of its items by id wakes it up again.
 */
public final class QuietRule implements LearningRule {
    public static final int VETOES_FOR_QUIET = 2;

    @Override
    public String id() {
        return "quiet";
    }

    @Override
    public String summary() {
        return "rejected twice (≥2 runs), never approved → LOW, listed but no longer asked; an approval by id asks again";
    }

    @Override
    public String rationale() {
        return "asking again and again about what the user always keeps only buries the questions that matter; keeping is the safe default";
    }

    @Override
    public void apply(LearningRun run) {
        for (var entry : run.byKey().entrySet()) {
            if (run.frozen.contains(entry.getKey())) continue;
            PreferenceData.RuleState s = run.state(entry.getValue().get(0));
            if (s.quiet && s.approvals > 0) s.quiet = false;
            else if (!s.quiet && s.approvals == 0 && s.vetoes >= VETOES_FOR_QUIET && s.runs >= 2 && s.base_level != Level.HIGH
                    && s.level != Level.HIGH) {
                s.quiet = true;
                s.level = Level.LOW;
            }
        }
    }
}
