package steward.sessions.audit;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonFormat;

/**
 * A stored audit plan ({@code <state dir>/plans/<plan_id>.json}): single use, valid 24 h, bound to
 * one database. Items carry the evidence fingerprint that {@code session_apply} re-checks. {@code items} is
 * written last (see {@link PlanStore#save(Plan, PlanStore.Items)}).
 */
@com.fasterxml.jackson.annotation.JsonPropertyOrder({"plan_id", "created_at", "created_at_epoch", "expires_at_epoch", "database",
        "database_key", "mode", "locale", "current_session_id", "current_found_by", "threshold", "report_text", "items"})
public record Plan(String plan_id, String created_at, double created_at_epoch, double expires_at_epoch, String database,
                   String database_key, String mode, String locale, String current_session_id, String current_found_by,
                   double threshold, List<PlanItem> items, String report_text) {

    /** Stored as a JSON array (field order as declared): a plan of a large store holds ten thousand of them. */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    public record Fingerprint(String title, int message_count, double last_activity_epoch, Double ended_at_epoch, boolean archived) {}

    /**
     * {@code reason} is rendered into the report at audit time and stored as null (apply does not need it; a plan of a
     * large store is written faster without it). Stored as a JSON array in declared field order, without field names:
     * a 20,000-session store makes plans of ~11,000 items, which this halves. {@code condition}: the rule condition the learning loop learns about (e.g. {@code B/long}); {@code topic}: rule E's topic, or the topic group (cluster id) of a rule G rename; {@code new_title}: the title a rule G
     * rename proposes. */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    public record PlanItem(String item_id, String session_id, String rule, String condition, String action, String confidence,
                           boolean executable,
                           @tools.jackson.databind.annotation.JsonSerialize(using = tools.jackson.databind.ser.std.NullSerializer.class) String reason, String cascade_of, String topic, Fingerprint fingerprint,
                           String new_title) {
        /** An item that proposes no new title (every rule but G). */
        public PlanItem(String item_id, String session_id, String rule, String condition, String action, String confidence, boolean executable,
                        String reason, String cascade_of, String topic, Fingerprint fingerprint) {
            this(item_id, session_id, rule, condition, action, confidence, executable, reason, cascade_of, topic, fingerprint, null);
        }
    }

    public PlanItem item(String id) {
        return items.stream().filter(i -> i.item_id().equals(id)).findFirst().orElse(null);
    }
}
