package steward.memory.precheck;

import java.util.List;
import steward.memory.Similarity;
import steward.text.CodePoints;

/**
 * What the checks see of one candidate: the cleaned content, the target store, the best-matching existing text
 * (an entry or a skill paragraph) with how much of the content it covers, whether an identical entry exists,
 * memory_write's own verdict on threats and size, the agent's judgment answers (null until given), the
 * content's anchors (versions, hosts, paths, numbers) that the best match lacks, and two of the content's concepts that
 * the best match names in exchanged places ({@code bestSwapped}; empty when none).
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
        List<String> bestMissing,
        List<String> bestSwapped) {
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
            String consequence,
            List<String> bestMissing) {
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
                bestMissing,
                List.of());
    }

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
                List.of());
    }

    public static PrecheckInput of(String content) {
        return new PrecheckInput(content, "memory", null, null, 0, false, null, 0, 2200, true, "high", "severe");
    }

    public int length() {
        return CodePoints.length(content);
    }

    public int tokens() {
        return Similarity.tokens(content).size();
    }
}
