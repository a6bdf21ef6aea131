package steward.learning;

/**
 * One recommendation of a run and what the user did with it. {@code condition} names the rule's
 * sub-condition (rule B has "short" and "long"), so that learning is per rule condition.
 * {@code keepReason} is the user's reason for a veto when given: {@code "in_use"} or {@code "want_kept"}.
 */
public record DecisionEvent(String sessionId, String title, String rule, String condition, Level recommended,
                            String action, Outcome outcome, String keepReason, String topic) {

    public String key() {
        return RuleKey.of(rule, condition);
    }
}
