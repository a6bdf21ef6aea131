package steward.learning.rules;

import java.time.LocalDate;
import java.util.ArrayList;
import steward.learning.DecisionEvent;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.sessions.rules.RuleMeta;

/**
 * A repeated topic the user confirms as consolidated (approving rule E's question) is not raised again; one they say is
 * not consolidated yet (rejecting it) is not raised again for {@link PreferenceData#TOPIC_NOT_YET_DAYS} days. Either
 * answer covers the same cluster under another label: a topic whose words are all words of answered topics is not asked
 * (Preferences#topicAnswered).
 */
@RuleMeta(
        id = "topic-answered",
        summary = "topics confirmed as consolidated are no longer raised by rule E; 'not yet' rests "
                + PreferenceData.TOPIC_NOT_YET_DAYS + " days; either covers the same words under another label",
        rationale =
                "once knowledge is consolidated, the reminder is noise; a topic the user just answered is not news either")
public final class TopicRule implements LearningRule {
    @Override
    public void apply(LearningRun run) {
        var level = run.data.topic_level;
        if (level.not_yet == null) level.not_yet = new ArrayList<>();
        for (DecisionEvent e : run.events) {
            if (!"E".equals(e.rule()) || e.topic() == null) continue;
            if (e.outcome() == Outcome.APPROVED) {
                level.not_yet.removeIf(m -> m.topic.equalsIgnoreCase(e.topic()));
                boolean known = level.consolidated.stream().anyMatch(m -> m.topic.equalsIgnoreCase(e.topic()));
                if (!known) {
                    level.consolidated.add(new PreferenceData.TopicMark(e.topic(), run.date));
                    run.record("topic", e.topic(), "topic \"" + e.topic() + "\" consolidated");
                }
            } else if (e.outcome() == Outcome.NOT_YET) {
                level.not_yet.removeIf(m -> m.topic.equalsIgnoreCase(e.topic()));
                level.not_yet.add(new PreferenceData.TopicMark(e.topic(), run.date));
                run.record(
                        "topic",
                        e.topic(),
                        "topic \"" + e.topic() + "\" not consolidated yet: not raised again for "
                                + PreferenceData.TOPIC_NOT_YET_DAYS + " days");
            }
        }
        LocalDate cut = LocalDate.parse(run.date).minusDays(PreferenceData.TOPIC_NOT_YET_DAYS);
        level.not_yet.removeIf(m -> m.date == null || LocalDate.parse(m.date).isBefore(cut));
    }
}
