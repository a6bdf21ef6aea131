package steward.sessions.rules;

import steward.learning.RuleKey;

/**
 * The decision of the first matching rule about one session. {@code base} is that rule's own confidence (before
 * anything learned); {@code guarded} says the safety guard's cap applies to the session (titled, active, not a
 * subagent), so it never runs automatically whatever was learned.
 */
public record Verdict(
        String rule,
        String condition,
        Action action,
        Confidence confidence,
        Text reason,
        String topic,
        Confidence base,
        boolean guarded) {
    public Verdict(String rule, Action action, Confidence confidence, Text reason) {
        this(rule, rule, action, confidence, reason, null);
    }

    public Verdict(String rule, String condition, Action action, Confidence confidence, Text reason, String topic) {
        this(rule, condition, action, confidence, reason, topic, confidence, false);
    }

    public Verdict withConfidence(Confidence c, Text why) {
        return new Verdict(rule, condition, action, c, why == null ? reason : why, topic, base, guarded);
    }

    /** The same verdict, learned about per family of sessions ({@code B/long@gateway}: RuleKey). */
    public Verdict scoped(String family) {
        return new Verdict(rule, RuleKey.scoped(condition, family), action, confidence, reason, topic, base, guarded);
    }

    public Verdict guarded(boolean g) {
        return new Verdict(rule, condition, action, confidence, reason, topic, base, g);
    }
}
