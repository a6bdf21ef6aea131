package steward.learning;

/** What became of one recommendation in one run, as {@code session_apply} saw it. */
public enum Outcome {
    /** The user approved it (MEDIUM/LOW), or a HIGH item ran without being rejected. */
    APPROVED,
    /** The user rejected it: they kept the session. */
    VETOED,
    /** The recommendation was to keep (or only report) and the user asked to delete anyway. */
    EXTRA_DELETE,
    /** Shown, needed an answer, got none. */
    UNANSWERED
}
