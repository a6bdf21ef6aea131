package steward.learning.rules;

import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Level;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.sessions.rules.RuleMeta;

/**
 * Rule E's question ("are these topics consolidated into memory or a skill?") is a reminder that changes nothing. A user
 * who answered it "consolidated" at least {@link #APPROVALS_FOR_SETTLED} times, in at least 2 runs, and never "not yet",
 * does not need the reminder: rule E goes quiet — its topics are listed for information and no longer asked. Nothing is
 * recorded for a topic that was not asked (silence is never an answer: such a topic stays listed); nothing ever runs from
 * rule E. One "not yet" (answering a listed topic by id) asks again; so does trusting rule E again.
 */
@RuleMeta(
        id = "topics-settled",
        summary = "rule E answered 'consolidated' " + SettledTopicsRule.APPROVALS_FOR_SETTLED
                + "+ times (in ≥2 runs), never 'not yet' → its topics are listed, "
                + "no longer asked; one 'not yet' asks again",
        rationale =
                "a reminder the user always answers the same way is noise; it asks nothing the user could lose, so listing it loses nothing")
public final class SettledTopicsRule implements LearningRule {
    public static final int APPROVALS_FOR_SETTLED = 2;
    public static final String RULE = "E";

    @Override
    public void apply(LearningRun run) {
        if (run.frozen.contains(RULE)) return;
        // "not yet" teaches nothing about the condition's confidence (no veto), so it is counted here, from all events
        var events = run.events.stream()
                .filter(e -> RULE.equals(e.key()) && (e.teachesCondition() || e.outcome() == Outcome.NOT_YET))
                .toList();
        if (events.isEmpty()) return;
        PreferenceData.RuleState s = run.state(events.get(0));
        long notYet = events.stream()
                .filter(e -> e.outcome() == Outcome.NOT_YET)
                .map(e -> e.sessionId())
                .distinct()
                .count();
        s.not_yet += (int) notYet;
        boolean notYetNow = notYet > 0;
        if (s.quiet && notYetNow) {
            s.quiet = false;
            s.level = s.base_level == null ? Level.MEDIUM : s.base_level;
        } else if (!s.quiet && settled(s)) {
            s.quiet = true;
            s.level = Level.LOW;
        }
    }

    /** Answered "consolidated" twice, in two runs (an unanswered run is none), never "not yet", never rejected. */
    static boolean settled(PreferenceData.RuleState s) {
        return s.approvals >= APPROVALS_FOR_SETTLED && s.approval_runs >= 2 && s.not_yet == 0 && s.vetoes == 0;
    }
}
