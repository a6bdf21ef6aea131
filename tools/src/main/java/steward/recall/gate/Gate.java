package steward.recall.gate;

import java.util.Set;

import steward.recall.RecallItem;

/** A hard gate of recall_inject: a candidate it names is dropped whatever its score. */
public interface Gate {
    /** Short id used as the drop reason. */
    String id();

    /** One line for the model and the README. */
    String description();

    /** Null to keep the candidate, else why it is dropped. */
    String drop(RecallItem item, Context ctx);

    /** What the gates may look at besides the item. */
    record Context(String sessionId, Set<String> ownRecentUris, Set<String> recentTurnTexts, Set<String> cooldownUris,
                   Set<String> harmfulUris) {}
}
