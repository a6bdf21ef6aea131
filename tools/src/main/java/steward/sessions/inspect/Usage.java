package steward.sessions.inspect;

import java.util.List;

/** Token and cost figures as the store recorded them for one session; a figure the store lacks is null. */
public record Usage(
        Long inputTokens,
        Long outputTokens,
        Long cacheReadTokens,
        Long cacheWriteTokens,
        Long reasoningTokens,
        Long apiCalls,
        Double estimatedCostUsd,
        Double actualCostUsd,
        String costStatus,
        List<ModelUsage> byModel) {

    public record ModelUsage(
            String model,
            String provider,
            long apiCalls,
            long inputTokens,
            long outputTokens,
            long cacheReadTokens,
            long cacheWriteTokens,
            long reasoningTokens,
            double estimatedCostUsd,
            Double actualCostUsd) {}

    public Usage {
        byModel = byModel == null ? List.of() : List.copyOf(byModel);
    }
}
