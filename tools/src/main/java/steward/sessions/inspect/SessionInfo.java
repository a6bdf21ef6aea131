package steward.sessions.inspect;

/**
 * One session as {@code session_inspect} sees it, whatever the store. Times are epoch seconds; {@code relation} says how
 * this session descends from {@code parentId}. Unknown fields are null.
 */
public record SessionInfo(
        String id,
        String title,
        String source,
        Double startedAt,
        Double endedAt,
        String endReason,
        String parentId,
        Relation relation,
        String cwd,
        String gitBranch,
        String gitRepoRoot,
        String model,
        Integer storedMessageCount,
        boolean archived) {

    /** How a session descends from its parent. */
    public enum Relation {
        /** a subagent the parent delegated a task to */
        delegated,
        /** the parent's conversation continued here after the parent was compressed (compaction) */
        continued,
        /** a branch of the parent's conversation */
        branched,
        /** a child of another kind */
        child,
        /** no parent */
        none
    }

    public boolean active() {
        return endedAt == null;
    }

    public boolean subagent() {
        return relation == Relation.delegated || "subagent".equals(source);
    }
}
