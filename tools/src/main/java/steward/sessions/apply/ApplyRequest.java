package steward.sessions.apply;

import java.util.Map;

/**
 * Arguments of {@code session_apply}: per-item and per-rule decisions ({@code approve}/{@code reject}),
 * renames (session id → new title), dry run, and optionally the caller's current session id.
 */
public record ApplyRequest(String planId, Map<String, String> itemDecisions, Map<String, String> ruleDecisions,
                           Map<String, String> renames, boolean dryRun, String currentSessionId) {
    public ApplyRequest {
        itemDecisions = itemDecisions == null ? Map.of() : Map.copyOf(itemDecisions);
        ruleDecisions = ruleDecisions == null ? Map.of() : Map.copyOf(ruleDecisions);
        renames = renames == null ? Map.of() : Map.copyOf(renames);
        if (currentSessionId != null && currentSessionId.isBlank()) currentSessionId = null;
    }
}
