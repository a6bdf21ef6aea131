package steward.learning;

/** The learning key of a rule condition: {@code "B/long"}. */
public final class RuleKey {
    private RuleKey() {}

    public static String of(String rule, String condition) {
        return condition == null || condition.isBlank() ? rule : rule + "/" + condition;
    }

    /**
     * Conditions {@code with_<kind>} are not a rule's own: they learn how the user answers a deletion that would take a
     * subagent of that kind along (kept, running, titled, other). They can only go quiet (keep both, unasked), never run.
     */
    public static final String ALONG_PREFIX = "with_";

    /** A key that learns about subagents taken along, not about the rule's own condition. */
    public static boolean along(String key) {
        int i = key.indexOf('/');
        return i >= 0 && key.startsWith(ALONG_PREFIX, i + 1);
    }

    public static String rule(String key) {
        int i = key.indexOf('/');
        return i < 0 ? key : key.substring(0, i);
    }
}
