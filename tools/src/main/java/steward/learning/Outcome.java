package steward.learning;

/** What became of one recommendation in one run, as {@code session_apply} (or {@code session_restore}) saw it. */
public enum Outcome {
    /** The user approved it explicitly (by item, or by the rule group it was asked in). */
    APPROVED,
    /** The user rejected it: they kept the session. */
    VETOED,
    /** Asked, got no answer. Silence is never approval. */
    UNANSWERED,
    /** A HIGH item that ran without being asked. Not an approval: it only shows the condition ran. */
    RAN_AUTOMATICALLY,
    /** The user took back what ran (session_restore): a veto, and for an automatic run a veto of its condition. */
    RESTORED,
    /**
     * The user took back (session_restore) a deletion they had approved: their approval is withdrawn — it no longer counts
     * towards promotion, and a condition it promoted is asked again — and the session is kept. No veto of the condition.
     */
    WITHDRAWN,
    /** The user gave the session a title instead: an answer, neither approval nor veto. */
    RENAMED,
    /** The user said "later" to the questions still waiting. */
    LATER,
    /** The user said a repeated topic is not consolidated yet (rejected rule E's question): an answer about the topic, no veto. */
    NOT_YET
}
