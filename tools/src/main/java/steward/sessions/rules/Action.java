package steward.sessions.rules;

/** What a verdict proposes. Only {@code delete}, {@code mark_ended} and {@code name_or_delete} can be executed. */
public enum Action {
    delete,
    mark_ended,
    name_or_delete,
    review,
    retain;

    public boolean executable() {
        return this == delete || this == mark_ended || this == name_or_delete;
    }
}
