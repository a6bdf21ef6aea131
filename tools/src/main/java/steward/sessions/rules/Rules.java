package steward.sessions.rules;

import java.util.List;
import steward.meta.Metadata;

/**
 * The explicit, ordered rule registry: the first rule that matches decides. H comes first: what Hermes' own auto-prune
 * deletes is only reported (it never yields an action, so it cannot bypass the safety guard), and no later rule may
 * propose to keep or delete it again.
 */
public final class Rules {
    private Rules() {}

    public static final List<Rule> ORDERED = Metadata.validated(
            "session rules",
            List.of(
                    new HermesPruneRule(),
                    new SafetyGuardRule(),
                    new PreferenceRule(),
                    new SubagentRetentionRule(),
                    new SubagentShellRule(),
                    new EndedUntitledRule(),
                    new EmptySessionRule(),
                    new MachineSessionRule(),
                    new ActiveSubagentRule(),
                    new CronRetentionRule(),
                    new TooManyActiveRule(),
                    new RepeatedTopicRule(),
                    new RetainRule()));

    public static Rule byId(String id) {
        return ORDERED.stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
    }
}
