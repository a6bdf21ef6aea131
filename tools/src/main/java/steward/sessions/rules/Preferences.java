package steward.sessions.rules;

import java.util.OptionalInt;

/**
 * What the learning store knows about the user's past housekeeping decisions (rule F and the
 * threshold N). Filled by the learning loop; until then {@link #NONE} answers "nothing known".
 */
public interface Preferences {
    /** The user's earlier explicit decision about this session. */
    enum SessionChoice { NONE, RETAINED, DELETED }

    /**
     * What was learned about one rule condition (e.g. {@code B.long}): the level it now runs at (null:
     * its rule's own), whether it is locked at LOW after contradictory choices, and a note for the reason.
     */
    record Learned(Confidence level, boolean locked, Text note) {}

    SessionChoice sessionChoice(String sessionId);

    /** What was learned about a rule condition, or null when nothing was. */
    Learned learned(String condition);

    /** Whether the user confirmed that a repeated topic was consolidated into memory or a skill. */
    boolean consolidated(String topic);

    /** The learned active-session threshold N (2–6), if any. */
    OptionalInt activeThreshold();

    Preferences NONE = new Preferences() {
        @Override
        public SessionChoice sessionChoice(String sessionId) {
            return SessionChoice.NONE;
        }

        @Override
        public Learned learned(String condition) {
            return null;
        }

        @Override
        public boolean consolidated(String topic) {
            return false;
        }

        @Override
        public OptionalInt activeThreshold() {
            return OptionalInt.empty();
        }
    };
}
