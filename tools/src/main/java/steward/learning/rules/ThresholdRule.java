package steward.learning.rules;

import java.util.List;

import steward.learning.DecisionEvent;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Outcome;
import steward.learning.PreferenceData;

/**
 * Rule D's threshold N follows what the user really juggles: +1 each run in which the user ignored the
 * "too many active sessions" warning (answered none of its items), +0.5 for each "mark as ended" the
 * user rejected because they simply want the session kept; always within 2–6.
 */
public final class ThresholdRule implements LearningRule {
    @Override
    public String id() {
        return "active-threshold";
    }

    @Override
    public String summary() {
        return "ignored 'too many active' warning → N+1; rejected 'mark ended' because wanted kept → N+0.5; 2 ≤ N ≤ 6";
    }

    @Override
    public String rationale() {
        return "the right number of parallel sessions is the user's, not a constant";
    }

    @Override
    public void apply(LearningRun run) {
        List<DecisionEvent> d = run.events.stream().filter(e -> "D".equals(e.rule())).toList();
        if (d.isEmpty()) return;
        double before = run.data.active_threshold;
        double n = before;
        if (d.stream().allMatch(e -> e.outcome() == Outcome.UNANSWERED)) n += 1.0;
        n += 0.5 * d.stream().filter(e -> e.outcome() == Outcome.VETOED && "want_kept".equals(e.keepReason())).count();
        n = Math.max(PreferenceData.MIN_THRESHOLD, Math.min(PreferenceData.MAX_THRESHOLD, n));
        if (n != before) {
            run.data.active_threshold = n;
            run.recorded.add("active-session threshold N " + fmt(before) + " → " + fmt(n));
        }
    }

    public static String fmt(double n) {
        return n == Math.rint(n) ? String.valueOf((int) n) : String.valueOf(n);
    }
}
