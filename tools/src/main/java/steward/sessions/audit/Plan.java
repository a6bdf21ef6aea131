package steward.sessions.audit;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonFormat;

import steward.sessions.store.SessionRow;

/**
 * A stored audit plan ({@code <state dir>/plans/<plan_id>.json}): single use, valid 24 h, bound to
 * one database. Items carry the evidence fingerprint that {@code session_apply} re-checks. {@code items} is
 * written last (see {@link PlanStore#save(Plan, PlanStore.Items)}).
 */
@com.fasterxml.jackson.annotation.JsonPropertyOrder({"plan_id", "created_at", "created_at_epoch", "expires_at_epoch", "database",
        "database_key", "mode", "locale", "current_session_id", "current_found_by", "threshold", "stores", "report_text", "items"})
public record Plan(String plan_id, String created_at, double created_at_epoch, double expires_at_epoch, String database,
                   String database_key, String mode, String locale, String current_session_id, String current_found_by,
                   double threshold, List<PlanItem> items, String report_text, List<StoreRef> stores) {

    /** A plan of a Hermes store only ({@code database} / {@code database_key} bind it). */
    public Plan(String plan_id, String created_at, double created_at_epoch, double expires_at_epoch, String database,
                String database_key, String mode, String locale, String current_session_id, String current_found_by,
                double threshold, List<PlanItem> items, String report_text) {
        this(plan_id, created_at, created_at_epoch, expires_at_epoch, database, database_key, mode, locale, current_session_id,
                current_found_by, threshold, items, report_text, null);
    }

    /**
     * A store the plan was made for: its name, location and key (what binds the plan to it), the current session the
     * audit used there and how it was found, and for Claude Code the idle time that made a session ended.
     */
    public record StoreRef(String store, String location, String key, String current_session_id, String current_found_by,
                           Double idle_seconds) {}

    /** The stores of this plan; a plan written before stores existed is bound to its Hermes database. */
    public List<StoreRef> storeRefs() {
        if (stores != null) return stores;
        return List.of(new StoreRef(SessionRow.HERMES, database, database_key, current_session_id, current_found_by, null));
    }

    /**
     * Stored as a JSON array (field order as declared): a plan of a large store holds ten thousand of them.
     * {@code size_bytes}: the transcript's size for a Claude Code session (an append changes it), null for Hermes.
     */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    public record Fingerprint(String title, int message_count, double last_activity_epoch, Double ended_at_epoch, boolean archived,
                              Long size_bytes) {
        public Fingerprint(String title, int message_count, double last_activity_epoch, Double ended_at_epoch, boolean archived) {
            this(title, message_count, last_activity_epoch, ended_at_epoch, archived, null);
        }
    }

    /**
     * {@code reason} is rendered into the report at audit time and stored as null (apply does not need it; a plan of a
     * large store is written faster without it). Stored as a JSON array in declared field order, without field names:
     * a 20,000-session store makes plans of ~11,000 items, which this halves. {@code condition}: the rule condition the learning loop learns about (e.g. {@code B/long}); {@code topic}: rule E's topic. */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    public record PlanItem(String item_id, String session_id, String rule, String condition, String action, String confidence,
                           boolean executable,
                           @tools.jackson.databind.annotation.JsonSerialize(using = tools.jackson.databind.ser.std.NullSerializer.class) String reason, String cascade_of, String topic, Fingerprint fingerprint,
                           String store) {
        /** An item of a Hermes session. */
        public PlanItem(String item_id, String session_id, String rule, String condition, String action, String confidence,
                        boolean executable, String reason, String cascade_of, String topic, Fingerprint fingerprint) {
            this(item_id, session_id, rule, condition, action, confidence, executable, reason, cascade_of, topic, fingerprint, null);
        }

        /** The store of the session ({@code hermes} when not recorded). */
        public String storeName() {
            return store == null ? SessionRow.HERMES : store;
        }
    }

    public PlanItem item(String id) {
        return items.stream().filter(i -> i.item_id().equals(id)).findFirst().orElse(null);
    }
}
