package steward.learning;

/**
 * One learning rule: how one kind of user decision changes the preference store. Rules run in the
 * order of {@link LearningEngine#RULES}; each has declarative metadata for the report and its tests.
 */
public interface LearningRule {
    String id();

    String summary();

    String rationale();

    void apply(LearningRun run);
}
