package steward.learning;

/** Confidence of a recommendation: HIGH runs unless rejected, MEDIUM is asked per rule, LOW is an open question. */
public enum Level {
    HIGH,
    MEDIUM,
    LOW;

    public Level lower() {
        return this == HIGH ? MEDIUM : LOW;
    }

    public Level raise() {
        return this == LOW ? MEDIUM : HIGH;
    }

    /** The less confident of the two. */
    public Level atMost(Level cap) {
        return ordinal() >= cap.ordinal() ? this : cap;
    }
}
