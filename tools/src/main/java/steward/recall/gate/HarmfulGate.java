package steward.recall.gate;

import steward.recall.RecallItem;

/** Drops items the user marked harmful through recall_feedback. */
public final class HarmfulGate implements Gate {
    @Override
    public String id() {
        return "harmful";
    }

    @Override
    public String description() {
        return "drops items marked harmful in recall_feedback";
    }

    @Override
    public String drop(RecallItem item, Context ctx) {
        return ctx.harmfulUris().contains(item.uri()) ? "marked harmful in feedback" : null;
    }
}
