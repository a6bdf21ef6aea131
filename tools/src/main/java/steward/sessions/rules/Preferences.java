package steward.sessions.rules;

import java.util.OptionalInt;

/**
 * What the learning store knows about the user's past housekeeping decisions (rule F and the
 * threshold N). Filled by the learning loop; until then {@link #NONE} answers "nothing known".
 */
public interface Preferences {
    /** The user's earlier explicit decision about this session. */
    enum SessionChoice { NONE, RETAINED, DELETED }

    /** How the user has treated a rule's recommendations. */
    enum RuleStanding { TRUSTED, VETOED, CONTRADICTORY }

    SessionChoice sessionChoice(String sessionId);

    RuleStanding ruleStanding(String ruleId);

    /** The learned active-session threshold N (2–6), if any. */
    OptionalInt activeThreshold();

    Preferences NONE = new Preferences() {
        @Override
        public SessionChoice sessionChoice(String sessionId) {
            return SessionChoice.NONE;
        }

        @Override
        public RuleStanding ruleStanding(String ruleId) {
            return RuleStanding.TRUSTED;
        }

        @Override
        public OptionalInt activeThreshold() {
            return OptionalInt.empty();
        }
    };
}
