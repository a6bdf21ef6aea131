package steward.learning;

/** The learning key of a rule condition: {@code "B/long"}. */
public final class RuleKey {
    private RuleKey() {}

    public static String of(String rule, String condition) {
        return condition == null || condition.isBlank() ? rule : rule + "/" + condition;
    }

    public static String rule(String key) {
        int i = key.indexOf('/');
        return i < 0 ? key : key.substring(0, i);
    }
}
