package steward.sessions.apply;

import java.util.Map;

/**
 * Arguments of {@code session_apply}: per-item and per-rule decisions ({@code approve}/{@code reject}),
 * renames (session id → new title), dry run, optionally the caller's current session id, for rejected items the
 * user's reason to keep ({@code in_use} or {@code want_kept}, for the learning loop), and {@code waiting}:
 * {@code "later"} puts off the questions still waiting from earlier runs. A rule decision covers only the
 * questions of that rule the report listed (and its collapsed line), never automatic or report-only items.
 */
public record ApplyRequest(
        String planId,
        Map<String, String> itemDecisions,
        Map<String, String> ruleDecisions,
        Map<String, String> renames,
        boolean dryRun,
        String currentSessionId,
        Map<String, String> keepReasons,
        String waiting) {
    public ApplyRequest(
            String planId,
            Map<String, String> itemDecisions,
            Map<String, String> ruleDecisions,
            Map<String, String> renames,
            boolean dryRun,
            String currentSessionId) {
        this(planId, itemDecisions, ruleDecisions, renames, dryRun, currentSessionId, null, null);
    }

    public ApplyRequest(
            String planId,
            Map<String, String> itemDecisions,
            Map<String, String> ruleDecisions,
            Map<String, String> renames,
            boolean dryRun,
            String currentSessionId,
            Map<String, String> keepReasons) {
        this(planId, itemDecisions, ruleDecisions, renames, dryRun, currentSessionId, keepReasons, null);
    }

    public ApplyRequest {
        keepReasons = keepReasons == null ? Map.of() : Map.copyOf(keepReasons);
        itemDecisions = itemDecisions == null ? Map.of() : Map.copyOf(itemDecisions);
        ruleDecisions = ruleDecisions == null ? Map.of() : Map.copyOf(ruleDecisions);
        renames = renames == null ? Map.of() : Map.copyOf(renames);
        if (currentSessionId != null && currentSessionId.isBlank()) currentSessionId = null;
        if (waiting != null && waiting.isBlank()) waiting = null;
    }
}
