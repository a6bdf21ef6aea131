package steward.learning.rules;

import steward.learning.DecisionEvent;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Outcome;
import steward.learning.PreferenceData;

/** A repeated topic the user confirms as consolidated (approving rule E's question) is not raised again. */
public final class TopicRule implements LearningRule {
    @Override
    public String id() {
        return "topic-consolidated";
    }

    @Override
    public String summary() {
        return "topics confirmed as consolidated into memory or a skill are no longer raised by rule E";
    }

    @Override
    public String rationale() {
        return "once knowledge is consolidated, the reminder is noise";
    }

    @Override
    public void apply(LearningRun run) {
        for (DecisionEvent e : run.events) {
            if (!"E".equals(e.rule()) || e.outcome() != Outcome.APPROVED || e.topic() == null) continue;
            boolean known = run.data.topic_level.consolidated.stream().anyMatch(m -> m.topic.equalsIgnoreCase(e.topic()));
            if (!known) {
                run.data.topic_level.consolidated.add(new PreferenceData.TopicMark(e.topic(), run.date));
                run.record("topic", e.topic(), "topic \"" + e.topic() + "\" consolidated");
            }
        }
    }
}
