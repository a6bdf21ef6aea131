package steward.recall.gate;

import steward.recall.RecallItem;

/** Drops items injected into this session within the cooldown (by default the last 2 calls). */
public final class CooldownGate implements Gate {
    public static final int DEFAULT_CALLS = 2;

    @Override
    public String id() {
        return "cooldown";
    }

    @Override
    public String description() {
        return "drops items already injected into this session within the last " + DEFAULT_CALLS + " recall_inject calls";
    }

    @Override
    public String drop(RecallItem item, Context ctx) {
        return ctx.cooldownUris().contains(item.uri()) ? "injected into this session within the last "
                + DEFAULT_CALLS + " calls" : null;
    }
}
