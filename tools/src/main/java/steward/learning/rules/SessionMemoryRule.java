package steward.learning.rules;

import steward.learning.DecisionEvent;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Outcome;
import steward.learning.PreferenceData;

/** Remembers, per session, what the user kept and what they asked to delete (rule F reads it). */
public final class SessionMemoryRule implements LearningRule {
    @Override
    public String id() {
        return "session-memory";
    }

    @Override
    public String summary() {
        return "a session the user kept is not proposed again; one they asked to delete comes back HIGH";
    }

    @Override
    public String rationale() {
        return "the user's explicit word on one session outranks any rule about sessions like it";
    }

    @Override
    public void apply(LearningRun run) {
        var level = run.data.session_level;
        for (DecisionEvent e : run.events) {
            if (e.outcome() == Outcome.VETOED) {
                level.delete.removeIf(m -> m.id.equals(e.sessionId()));
                if (level.retain.stream().noneMatch(m -> m.id.equals(e.sessionId()))) {
                    level.retain.add(new PreferenceData.SessionMark(e.sessionId(), e.title(), run.date, e.rule()));
                    run.recorded.add("kept " + label(e));
                }
            } else if (e.outcome() == Outcome.EXTRA_DELETE
                    || (e.outcome() == Outcome.APPROVED && "delete".equals(e.action()))) {
                level.retain.removeIf(m -> m.id.equals(e.sessionId()));
                if (level.delete.stream().noneMatch(m -> m.id.equals(e.sessionId()))) {
                    level.delete.add(new PreferenceData.SessionMark(e.sessionId(), e.title(), run.date, e.rule()));
                    if (e.outcome() == Outcome.EXTRA_DELETE) run.recorded.add("delete asked for " + label(e));
                }
            }
        }
    }

    static String label(DecisionEvent e) {
        return e.title() == null || e.title().isBlank() ? e.sessionId() : "\"" + e.title() + "\"";
    }
}
