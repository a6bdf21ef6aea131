package steward.sessions.store;


import steward.json.Json;
/**
 * One row of Hermes' {@code sessions} table, as Steward needs it, with the last activity computed
 * from {@code messages} (newest message timestamp, else {@code started_at}). Times are epoch seconds.
 * Columns that only newer Hermes schemas have ({@code pinned}, {@code hidden}) are false when absent.
 */
public record SessionRow(String id, String source, String title, String parentSessionId,
                         double startedAt, Double endedAt, String endReason, int messageCount,
                         int storedMessageCount, boolean archived, boolean pinned, boolean hidden,
                         String modelConfig, double lastActivity, long maxMessageId) {

    public boolean active() {
        return endedAt == null;
    }

    public boolean untitled() {
        return title == null || title.isBlank();
    }

    public boolean subagent() {
        return "subagent".equals(source);
    }

    /** The parent this session was delegated from: {@code model_config._delegate_from}, if any. */
    public String delegateFrom() {
        if (modelConfig == null || !modelConfig.contains("_delegate_from")) return null;
        try {
            var node = Json.MAPPER.readTree(modelConfig);
            var v = node.get("_delegate_from");
            return v != null && v.isString() ? v.asString() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
