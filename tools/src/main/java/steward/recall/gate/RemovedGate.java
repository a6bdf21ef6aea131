package steward.recall.gate;

import steward.recall.Identity;
import steward.recall.RecallItem;
import steward.sessions.rules.RuleMeta;

/**
 * Drops a Hermes memory entry that is no longer in its memory file, and a message of a Hermes session no longer in
 * state.db: the index may lag a write by a moment (the server indexes in the background), and what the user, Hermes or
 * a session_apply just removed must not come back into a prompt.
 */
@RuleMeta(
        id = "gone",
        summary =
                "drops a memory entry no longer in MEMORY.md / USER.md, and a message of a session no longer in state.db (read at the call)",
        rationale = "The index may lag a memory write by a moment; what was just removed must not be injected again.")
public final class RemovedGate implements Gate {
    @Override
    public String drop(RecallItem item, Context ctx) {
        if (RecallItem.SESSION.equals(item.source())
                && item.sessionId() != null
                && ctx.goneSessions().contains(item.sessionId()))
            return "its session is no longer in state.db (deleted since it was indexed)";
        if (ctx.memoryNow() == null || !RecallItem.MEMORY.equals(item.source())) return null;
        if (!item.uri().startsWith("steward://memory/")) return null;
        if (ctx.memoryNow().contains(Identity.normalise(item.text()))) return null;
        return "no longer in the memory file (removed or changed since it was indexed)";
    }
}
