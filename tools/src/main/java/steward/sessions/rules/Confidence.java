package steward.sessions.rules;

/** HIGH runs unless rejected; MEDIUM and LOW run only when approved. */
public enum Confidence {
    LOW,
    MEDIUM,
    HIGH;

    public Confidence atMost(Confidence cap) {
        return compareTo(cap) > 0 ? cap : this;
    }

    public Confidence lower() {
        return this == HIGH ? MEDIUM : LOW;
    }
}
