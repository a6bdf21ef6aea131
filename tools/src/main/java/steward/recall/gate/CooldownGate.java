package steward.recall.gate;

import steward.recall.RecallItem;
import steward.sessions.rules.RuleMeta;

/** Drops items injected into this session within the cooldown (by default the last 2 calls). */
@RuleMeta(
        id = "cooldown",
        summary = "drops items already injected into this session within the last " + CooldownGate.DEFAULT_CALLS
                + " recall_inject calls",
        rationale = "An item injected moments ago is still in context; repeating it costs budget and reads as a loop.")
public final class CooldownGate implements Gate {
    public static final int DEFAULT_CALLS = 2;

    @Override
    public String drop(RecallItem item, Context ctx) {
        return ctx.cooldownUris().contains(item.uri())
                ? "injected into this session within the last " + DEFAULT_CALLS + " calls"
                : null;
    }
}
