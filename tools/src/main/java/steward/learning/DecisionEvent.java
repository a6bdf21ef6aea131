package steward.learning;

/**
 * One recommendation of a run and what the user did with it. {@code condition} names the rule's
 * sub-condition (rule B has "short" and "long"), so that learning is per rule condition.
 * {@code keepReason} is the user's reason for a veto when given: {@code "in_use"} or {@code "want_kept"}.
 * {@code base}: the rule's own confidence; {@code question}: how the report asked it (new, waiting, collapsed,
 * later, or null); {@code sessionOnly}: the answer was about this session only (a deletion asked because of its
 * subagent children, or a restore of something the user had approved), so it teaches nothing about the condition;
 * {@code guarded}: the safety guard's cap applies to the session; {@code ran}: it was executed; {@code seen}: the session
 * as the user saw it when they decided (null when not known).
 */
public record DecisionEvent(
        String sessionId,
        String title,
        String rule,
        String condition,
        Level recommended,
        String action,
        Outcome outcome,
        String keepReason,
        String topic,
        Level base,
        String question,
        boolean sessionOnly,
        boolean guarded,
        boolean ran,
        String newTitle,
        Seen seen) {

    /** A session as the report showed it: its message count, newest activity and whether it had ended. */
    public record Seen(int messages, double lastActivity, boolean ended) {}

    public DecisionEvent(
            String sessionId,
            String title,
            String rule,
            String condition,
            Level recommended,
            String action,
            Outcome outcome,
            String keepReason,
            String topic) {
        this(
                sessionId,
                title,
                rule,
                condition,
                recommended,
                action,
                outcome,
                keepReason,
                topic,
                recommended,
                null,
                false,
                false,
                false,
                null,
                null);
    }

    public String key() {
        return RuleKey.of(rule, condition);
    }

    /** Whether this event teaches something about its rule condition (not only about its session). */
    public boolean teachesCondition() {
        return !sessionOnly && outcome != Outcome.LATER && outcome != Outcome.NOT_YET;
    }

    /** An event about the subagents a deletion would take along ({@code <rule>/with_<kind>}), not about a session. */
    public boolean along() {
        return condition != null && condition.startsWith(RuleKey.ALONG_PREFIX);
    }
}
