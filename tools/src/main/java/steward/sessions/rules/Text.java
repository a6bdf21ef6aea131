package steward.sessions.rules;

/** A user-facing line in both report languages. */
public record Text(String en, String zh) {
    public String in(String locale) {
        return "zh".equals(locale) ? zh : en;
    }
}
