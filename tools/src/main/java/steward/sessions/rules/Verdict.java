package steward.sessions.rules;

/** The decision of the first matching rule about one session. */
public record Verdict(String rule, String condition, Action action, Confidence confidence, Text reason, String topic) {
    public Verdict(String rule, Action action, Confidence confidence, Text reason) {
        this(rule, rule, action, confidence, reason, null);
    }

    public Verdict withConfidence(Confidence c, Text why) {
        return new Verdict(rule, condition, action, c, why == null ? reason : why, topic);
    }
}
