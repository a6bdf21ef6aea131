package steward.learning;

import steward.sessions.rules.RuleMeta;

/**
 * One learning rule: how one kind of user decision changes the preference store. Rules run in the order of
 * {@link LearningEngine#RULES}; each describes itself as a housekeeping rule does, with {@link RuleMeta} (id, summary,
 * rationale) on its class, validated when the registry is built ({@code steward.meta.Metadata}).
 */
public interface LearningRule {
    /** The rule's declarative metadata. */
    default RuleMeta meta() {
        RuleMeta m = getClass().getAnnotation(RuleMeta.class);
        if (m == null) throw new IllegalStateException(getClass().getName() + " has no @RuleMeta");
        return m;
    }

    default String id() {
        return meta().id();
    }

    default String summary() {
        return meta().summary();
    }

    default String rationale() {
        return meta().rationale();
    }

    void apply(LearningRun run);
}
