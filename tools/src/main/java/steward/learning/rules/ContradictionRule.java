package steward.learning.rules;

import java.util.List;
import steward.learning.DecisionEvent;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Level;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.sessions.rules.RuleMeta;

/**
 * Contradictory decisions on one rule condition (approved in one run, vetoed in another) are recorded;
 * the second contradiction locks the condition at LOW: no automatic execution and no further learning
 * until the user says to trust it again.
 */
@RuleMeta(
        id = "contradiction-lock",
        summary = "approve in one run and veto in another twice → locked at LOW until trusted again",
        rationale =
                "when the user's answers on a condition flip, the condition does not capture what they decide by: stop guessing")
public final class ContradictionRule implements LearningRule {
    public static final int LOCK_AFTER = 2;

    @Override
    public void apply(LearningRun run) {
        for (var entry : run.byKey().entrySet()) {
            String key = entry.getKey();
            if (run.frozen.contains(key)) continue;
            String polarity = polarity(entry.getValue());
            if (polarity == null) continue;
            PreferenceData.RuleState s = run.state(entry.getValue().get(0));
            if (s.last_polarity != null && !s.last_polarity.equals(polarity)) {
                s.contradictions++;
                PreferenceData.Contradiction c = new PreferenceData.Contradiction();
                c.rule_key = key;
                c.date = run.date;
                boolean restored = entry.getValue().stream().anyMatch(e -> e.outcome() == Outcome.RESTORED);
                c.detail = polarity.equals("+")
                        ? "approved after vetoing before"
                        : restored ? "restored what it ran after approving it before" : "vetoed after approving before";
                run.data.feedback_contradictions.add(c);
                if (s.contradictions >= LOCK_AFTER) {
                    s.locked = true;
                    s.level = Level.LOW;
                    s.updated = run.date;
                    run.frozen.add(key);
                } else {
                    run.record(
                            "contradiction",
                            key,
                            key + ": you " + c.detail + " (contradiction " + s.contradictions + " of " + LOCK_AFTER
                                    + " before it locks at LOW)");
                }
            }
            s.last_polarity = polarity;
        }
    }

    /** "+" if the user explicitly approved only, "-" if they vetoed only, null if neither or both. */
    static String polarity(List<DecisionEvent> events) {
        boolean approved =
                events.stream().anyMatch(e -> e.outcome() == Outcome.APPROVED && e.recommended() != Level.HIGH);
        boolean vetoed =
                events.stream().anyMatch(e -> e.outcome() == Outcome.VETOED || e.outcome() == Outcome.RESTORED);
        if (approved == vetoed) return null;
        return approved ? "+" : "-";
    }
}
