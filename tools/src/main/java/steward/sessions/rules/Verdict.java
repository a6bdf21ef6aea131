package steward.sessions.rules;

/** The decision of the first matching rule about one session. */
public record Verdict(String rule, Action action, Confidence confidence, Text reason) {
    public Verdict withConfidence(Confidence c, Text why) {
        return new Verdict(rule, action, c, why == null ? reason : why);
    }
}
