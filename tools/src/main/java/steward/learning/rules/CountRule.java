package steward.learning.rules;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import steward.learning.DecisionEvent;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.PreferenceData;
import steward.sessions.rules.RuleMeta;

/**
 * Counts, per rule condition: approvals, vetoes, deletions beyond the recommendation, unanswered, runs, the runs with an
 * approval, and the vetoes (and the runs with one) since the last approval. A run that both approved and vetoed items of a condition counts as an approval.
 */
@RuleMeta(
        id = "count",
        summary =
                "per rule condition: approvals / vetoes (restores included) / renames / unanswered / automatic runs, and the runs it appeared in",
        rationale = "promotion and demotion are decided on cumulative counts, not on one run")
public final class CountRule implements LearningRule {
    @Override
    public void apply(LearningRun run) {
        for (var entry : run.byKey().entrySet()) {
            if (run.frozen.contains(entry.getKey())) continue;
            List<DecisionEvent> events = entry.getValue();
            PreferenceData.RuleState s = run.state(events.get(0));
            Set<String> seen = new HashSet<>();
            boolean approved = false, withdrawn = false;
            int vetoed = 0;
            for (DecisionEvent e : events) {
                if (!seen.add(e.sessionId())) continue;
                switch (e.outcome()) {
                    case APPROVED -> {
                        s.approvals++;
                        approved = true;
                    }
                    case VETOED -> {
                        s.vetoes++;
                        vetoed++;
                    }
                    case RESTORED -> {
                        s.vetoes++;
                        s.restores++;
                        vetoed++;
                    }
                    case WITHDRAWN -> { // the approval is taken back
                        s.approvals = Math.max(0, s.approvals - 1);
                        s.withdrawn++;
                        withdrawn = true;
                    }
                    case RENAMED -> s.renames++;
                    case UNANSWERED -> s.unanswered++;
                    case RAN_AUTOMATICALLY -> s.auto_runs++;
                    case LATER, NOT_YET -> {}
                }
            }
            // what the user said since they last approved one (a change of mind shows here; QuietRule reads it)
            if (approved) {
                if (!run.restore) s.approval_runs++;
                s.vetoes_since_approval = 0;
                s.veto_runs_since_approval = 0;
            } else if (vetoed > 0) {
                s.vetoes_since_approval += vetoed;
                s.veto_runs_since_approval++;
            }
            // a restore takes back deletions of one apply: with them (at most) that run of approvals
            if (withdrawn) s.approval_runs = Math.max(0, s.approval_runs - 1);
            if (!run.restore) s.runs++;
            s.updated = run.date;
        }
    }
}
