package steward.recall.gate;

import steward.recall.Identity;
import steward.recall.RecallItem;
import steward.sessions.rules.RuleMeta;

/**
 * Drops a Hermes memory entry that is no longer in its memory file: the index may lag a write by a moment (the server
 * indexes in the background), and an entry the user or Hermes just removed must not come back into a prompt.
 */
@RuleMeta(
        id = "gone",
        summary = "drops a memory entry that is no longer in MEMORY.md / USER.md (read at the call)",
        rationale = "The index may lag a memory write by a moment; what was just removed must not be injected again.")
public final class RemovedGate implements Gate {
    @Override
    public String drop(RecallItem item, Context ctx) {
        if (ctx.memoryNow() == null || !RecallItem.MEMORY.equals(item.source())) return null;
        if (!item.uri().startsWith("steward://memory/")) return null;
        if (ctx.memoryNow().contains(Identity.normalise(item.text()))) return null;
        return "no longer in the memory file (removed or changed since it was indexed)";
    }
}
