package steward.recall.gate;

import java.util.Set;
import steward.recall.RecallItem;
import steward.sessions.rules.RuleMeta;

/**
 * A hard gate of recall_inject: a candidate it names is dropped whatever its score. Each gate describes itself as a
 * housekeeping rule does, with {@link RuleMeta} (id, summary, rationale) on its class.
 */
public interface Gate {
    /** The gate's declarative metadata. */
    default RuleMeta meta() {
        RuleMeta m = getClass().getAnnotation(RuleMeta.class);
        if (m == null) throw new IllegalStateException(getClass().getName() + " has no @RuleMeta");
        return m;
    }

    /** Short id used as the drop reason. */
    default String id() {
        return meta().id();
    }

    /** One line for the model and the README. */
    default String description() {
        return meta().summary();
    }

    /** Null to keep the candidate, else why it is dropped. */
    String drop(RecallItem item, Context ctx);

    /**
     * What the gates may look at besides the item. {@code harmfulTexts}: the normalised hashes
     * ({@code Identity.normalHash}) of the texts of items marked harmful; {@code memoryNow}: the normalised texts
     * ({@code Identity.normalise}) of the entries of Hermes' memory files as read at the call (null: not read);
     * {@code goneSessions}: the Hermes sessions of the candidates that are no longer in state.db, read at the call.
     */
    record Context(
            String sessionId,
            Set<String> ownRecentUris,
            Set<String> recentTurnTexts,
            Set<String> cooldownUris,
            Set<String> harmfulUris,
            Set<Long> harmfulTexts,
            Set<String> memoryNow,
            Set<String> goneSessions) {
        public Context(
                String sessionId,
                Set<String> ownRecentUris,
                Set<String> recentTurnTexts,
                Set<String> cooldownUris,
                Set<String> harmfulUris) {
            this(sessionId, ownRecentUris, recentTurnTexts, cooldownUris, harmfulUris, Set.of(), null, Set.of());
        }
    }
}
