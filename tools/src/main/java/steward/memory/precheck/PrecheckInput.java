package steward.memory.precheck;

/**
 * What the checks see of one candidate: the cleaned content, the target store, the best-matching existing text
 * (an entry or a skill paragraph) with how much of the content it covers, whether an identical entry exists,
 * memory_write's own verdict on threats and size, the agent's judgment answers (null until given), and the
 * content's anchors (versions, hosts, paths, numbers) that the best match lacks.
 */
public record PrecheckInput(
        String content,
        String target,
        String bestSource,
        String bestWhere,
        double bestCoverage,
        boolean exact,
        String threat,
        int charsAfter,
        int limit,
        boolean fits,
        String frequency,
        String consequence,
        java.util.List<String> bestMissing) {
    public PrecheckInput(
            String content,
            String target,
            String bestSource,
            String bestWhere,
            double bestCoverage,
            boolean exact,
            String threat,
            int charsAfter,
            int limit,
            boolean fits,
            String frequency,
            String consequence) {
        this(
                content,
                target,
                bestSource,
                bestWhere,
                bestCoverage,
                exact,
                threat,
                charsAfter,
                limit,
                fits,
                frequency,
                consequence,
                java.util.List.of());
    }

    public static PrecheckInput of(String content) {
        return new PrecheckInput(content, "memory", null, null, 0, false, null, 0, 2200, true, "high", "severe");
    }

    public int length() {
        return steward.text.CodePoints.length(content);
    }

    public int tokens() {
        return steward.memory.Similarity.tokens(content).size();
    }
}
