package steward.learning;

/**
 * The learning key of a rule condition and of where its sessions live: {@code "B/long"} for Hermes' interactive sessions
 * (tui, cli, and sources Hermes does not name as unattended), {@code "B/long@gateway"} for its gateway chats,
 * {@code "B/long@machine"} for cron, API and subagent sessions, {@code "B/long@claude"} for Claude Code. What the user
 * approves for one key never promotes another: approvals given for cli sessions say nothing about Telegram chats. A store
 * written before keys had families holds unscoped keys only: they are read as the Hermes interactive family's (the seed
 * skill asked about tui/cli sessions), and no other family inherits them.
 */
public final class RuleKey {
    private RuleKey() {}

    /** Between a condition and the family of sessions it was learned for. */
    public static final char FAMILY = '@';

    /** {@code condition} may carry a family ({@code long@gateway}) or be a family only ({@code @machine}). */
    public static String of(String rule, String condition) {
        if (condition == null || condition.isBlank()) return rule;
        return condition.charAt(0) == FAMILY ? rule + condition : rule + "/" + condition;
    }

    /** The key learned for sessions of {@code family}; null: the Hermes interactive family (the unscoped key). */
    public static String scoped(String key, String family) {
        return family == null || key.indexOf(FAMILY) >= 0 ? key : key + FAMILY + family;
    }

    /** The key without its family: what the user calls the condition ({@code B/long}). */
    public static String unscoped(String key) {
        int i = key.indexOf(FAMILY);
        return i < 0 ? key : key.substring(0, i);
    }

    /** The family a key was learned for, or null: Hermes interactive sessions. */
    public static String family(String key) {
        int i = key.indexOf(FAMILY);
        return i < 0 ? null : key.substring(i + 1);
    }

    /** What follows the rule, so that {@code of(rule(key), condition(key))} is {@code key}; null when nothing does. */
    public static String condition(String key) {
        String rule = rule(key);
        if (key.length() == rule.length()) return null;
        return key.charAt(rule.length()) == '/' ? key.substring(rule.length() + 1) : key.substring(rule.length());
    }

    /**
     * Whether {@code key} is one the user named: {@code B} names every key of rule B, {@code B/long} every family of that
     * condition, {@code B/long@gateway} that one only.
     */
    public static boolean named(String key, String name) {
        if (name.indexOf(FAMILY) >= 0) return key.equals(name);
        if (name.indexOf('/') >= 0) return unscoped(key).equals(name);
        return rule(key).equals(name);
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
        int i = key.indexOf('/'), j = key.indexOf(FAMILY);
        if (i < 0 || (j >= 0 && j < i)) i = j;
        return i < 0 ? key : key.substring(0, i);
    }
}
