package steward.learning.rules;

import java.util.List;
import steward.learning.DecisionEvent;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.sessions.rules.RuleMeta;
import steward.text.Numbers;

/**
 * Rule D's threshold N follows what the user really juggles: +1 each run in which the user ignored the
 * "too many active sessions" warning (answered none of its questions), +0.5 for each "mark as ended" the
 * user rejected because they simply want the session kept; always within 2–6. It also counts the consecutive
 * ignored runs: once N is at its cap and the warning is still ignored, the report collapses rule D's questions
 * into one line; once that line went unanswered too, the warning becomes a status line that asks nothing, until the user
 * answers any of its sessions (by id) or sets N.
 */
@RuleMeta(
        id = "active-threshold",
        summary =
                "ignored 'too many active' warning → N+1; rejected 'mark ended' because wanted kept → N+0.5; 2 ≤ N ≤ 6",
        rationale = "the right number of parallel sessions is the user's, not a constant")
public final class ThresholdRule implements LearningRule {
    @Override
    public void apply(LearningRun run) {
        if (run.restore) return;
        List<DecisionEvent> d = run.events.stream()
                .filter(e -> "D".equals(e.rule())
                        && e.question() != null
                        && e.outcome() != Outcome.LATER
                        && e.outcome() != Outcome.RAN_AUTOMATICALLY)
                .toList();
        if (d.isEmpty()) return;
        double before = run.data.active_threshold;
        double n = before;
        boolean ignored = d.stream().allMatch(e -> e.outcome() == Outcome.UNANSWERED);
        run.data.warning_ignored_runs = ignored ? run.data.warning_ignored_runs + 1 : 0;
        // the collapsed line went unanswered too: from the next run the warning is a status line that asks nothing
        boolean collapsedIgnored = ignored && d.stream().allMatch(e -> "collapsed".equals(e.question()));
        int statusBefore = run.data.warning_status_runs;
        run.data.warning_status_runs = collapsedIgnored ? statusBefore + 1 : ignored ? statusBefore : 0;
        if (statusBefore == 0 && run.data.warning_status_runs > 0) {
            run.record(
                    "warning",
                    "D",
                    "rule D's warning goes unanswered at N's cap: from now on a status line, not asked (answer any of its "
                            + "sessions by id, or set N, to be asked again)");
        } else if (statusBefore > 0 && run.data.warning_status_runs == 0) {
            run.record("warning", "D", "rule D's warning is asked again (you answered it)");
        }
        if (ignored) n += 1.0;
        long wanted = d.stream()
                .filter(e -> e.outcome() == Outcome.VETOED && "want_kept".equals(e.keepReason()))
                .count();
        n += 0.5 * wanted;
        n = Math.max(PreferenceData.MIN_THRESHOLD, Math.min(PreferenceData.MAX_THRESHOLD, n));
        if (n != before) {
            run.data.active_threshold = n;
            run.record(
                    "threshold",
                    "D",
                    "N " + Numbers.plain(before) + " → " + Numbers.plain(n)
                            + (ignored
                                    ? " (the too-many-active warning went unanswered)"
                                    : " (you want " + wanted + " kept active)"));
        }
    }
}
