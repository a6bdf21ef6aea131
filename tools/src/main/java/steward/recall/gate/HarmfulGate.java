package steward.recall.gate;

import steward.recall.RecallItem;
import steward.sessions.rules.RuleMeta;

/** Drops items the user marked harmful through recall_feedback. */
@RuleMeta(
        id = "harmful",
        summary = "drops items marked harmful in recall_feedback",
        rationale = "The user said the item did harm; injecting it again would repeat the harm, whatever its score.")
public final class HarmfulGate implements Gate {

    @Override
    public String drop(RecallItem item, Context ctx) {
        return ctx.harmfulUris().contains(item.uri()) ? "marked harmful in feedback" : null;
    }
}
