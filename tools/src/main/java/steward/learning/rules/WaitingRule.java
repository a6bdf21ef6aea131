package steward.learning.rules;

import java.time.LocalDate;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import steward.learning.DecisionEvent;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.sessions.rules.RuleMeta;

/**
 * Questions asked by name and left unanswered are remembered, so the next report does not ask them again word for
 * word but groups them ("still waiting from earlier runs: N"); "later" puts them out of sight for a week; an answer,
 * an execution or a restore ends the wait, and so does a question that is no longer in the plan. Waiting never turns
 * into an action: silence is not approval.
 */
@RuleMeta(
        id = "waiting-questions",
        summary = "unanswered questions wait (grouped in one line next time); 'later' hides them for "
                + PreferenceData.LATER_DAYS + " days",
        rationale =
                "asking the same unanswered questions again every run buries the new ones and teaches the user to ignore the report")
public final class WaitingRule implements LearningRule {
    @Override
    public void apply(LearningRun run) {
        var waiting = run.data.waiting;
        Map<String, PreferenceData.Waiting> index = new HashMap<>();
        for (PreferenceData.Waiting w : waiting) index.put(w.session_id + "|" + w.key, w);
        Set<PreferenceData.Waiting> ended = Collections.newSetFromMap(new IdentityHashMap<>());
        for (DecisionEvent e : run.events) {
            String k = e.sessionId() + "|" + e.key();
            PreferenceData.Waiting w = index.get(k);
            if (e.outcome() == Outcome.UNANSWERED || e.outcome() == Outcome.LATER) {
                if (w == null) {
                    w = new PreferenceData.Waiting();
                    w.session_id = e.sessionId();
                    w.key = e.key();
                    w.since = run.date;
                    waiting.add(w);
                    index.put(k, w);
                }
                ended.remove(w);
                if (e.outcome() == Outcome.LATER)
                    w.later_until = LocalDate.parse(run.date)
                            .plusDays(PreferenceData.LATER_DAYS)
                            .toString();
                else w.runs++;
            } else if (w != null) {
                ended.add(w);
            }
        }
        waiting.removeIf(w -> ended.contains(w)
                || run.openQuestions != null && !run.openQuestions.contains(w.session_id + "|" + w.key));
    }
}
