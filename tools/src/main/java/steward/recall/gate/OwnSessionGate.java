package steward.recall.gate;

import steward.recall.RecallItem;
import steward.sessions.rules.RuleMeta;

/** Drops the current session's own recent turns (the agent already has them) and replays of the given recent turns. */
@RuleMeta(
        id = "own_recent_turn",
        summary = "drops messages among the current session's newest " + OwnSessionGate.RECENT_MESSAGES
                + " and items equal to a recent turn given in the call",
        rationale =
                "The agent already has its own recent turns in context; injecting them back only spends the budget.")
public final class OwnSessionGate implements Gate {
    /** How many of the current session's newest messages count as "recent". */
    public static final int RECENT_MESSAGES = 40;

    @Override
    public String drop(RecallItem item, Context ctx) {
        if (ctx.ownRecentUris().contains(item.uri())) return "one of this session's own recent turns";
        if (ctx.recentTurnTexts().contains(item.text().strip()))
            return "same text as a recent turn of this conversation";
        return null;
    }
}
