package steward.sessions.rules;

import java.util.List;

/** The explicit, ordered rule registry: the first rule that matches decides. */
public final class Rules {
    private Rules() {}

    public static final List<Rule> ORDERED = List.of(
            new SafetyGuardRule(),
            new PreferenceRule(),
            new SubagentRetentionRule(),
            new SubagentShellRule(),
            new EndedUntitledRule(),
            new ActiveSubagentRule(),
            new TooManyActiveRule(),
            new RepeatedTopicRule(),
            new RetainRule());

    public static Rule byId(String id) {
        return ORDERED.stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
    }
}
