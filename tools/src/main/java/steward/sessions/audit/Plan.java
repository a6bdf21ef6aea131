package steward.sessions.audit;

import com.fasterxml.jackson.annotation.JsonFormat;
import java.util.List;
import steward.sessions.store.SessionRow;

/**
 * A stored audit plan ({@code <state dir>/plans/<plan_id>.json}): single use, valid 24 h, bound to
 * one database. Items carry the evidence fingerprint that {@code session_apply} re-checks. {@code items} is
 * written last (see {@link PlanStore#save(Plan, PlanStore.Items)}).
 */
@com.fasterxml.jackson.annotation.JsonPropertyOrder({
    "plan_id",
    "created_at",
    "created_at_epoch",
    "expires_at_epoch",
    "database",
    "database_key",
    "mode",
    "locale",
    "current_session_id",
    "current_found_by",
    "threshold",
    "stores",
    "report_text",
    "items"
})
public record Plan(
        String plan_id,
        String created_at,
        double created_at_epoch,
        double expires_at_epoch,
        String database,
        String database_key,
        String mode,
        String locale,
        String current_session_id,
        String current_found_by,
        double threshold,
        List<PlanItem> items,
        String report_text,
        List<StoreRef> stores) {

    /**
     * A store the plan was made for: its name, location and key (what binds the plan to it), the current session the
     * audit used there and how it was found, and for Claude Code the idle time that made a session ended.
     */
    public record StoreRef(
            String store,
            String location,
            String key,
            String current_session_id,
            String current_found_by,
            Double idle_seconds) {}

    /** The stores of this plan; a plan written before stores existed is bound to its Hermes database. */
    public List<StoreRef> storeRefs() {
        if (stores != null) return stores;
        return List.of(
                new StoreRef(SessionRow.HERMES, database, database_key, current_session_id, current_found_by, null));
    }

    /** This plan with {@code list} as its items. */
    public Plan withItems(List<PlanItem> list) {
        return new Plan(
                plan_id,
                created_at,
                created_at_epoch,
                expires_at_epoch,
                database,
                database_key,
                mode,
                locale,
                current_session_id,
                current_found_by,
                threshold,
                list,
                report_text,
                stores);
    }

    /**
     * Stored as a JSON array (field order as declared): a plan of a large store holds ten thousand of them.
     * {@code size_bytes}: the transcript's size for a Claude Code session (an append changes it), null for Hermes.
     */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    public record Fingerprint(
            String title,
            int message_count,
            double last_activity_epoch,
            Double ended_at_epoch,
            boolean archived,
            Long size_bytes) {
        public Fingerprint(
                String title, int message_count, double last_activity_epoch, Double ended_at_epoch, boolean archived) {
            this(title, message_count, last_activity_epoch, ended_at_epoch, archived, null);
        }
    }

    /**
     * {@code reason} is rendered into the report at audit time and stored as null (apply does not need it; a plan of a
     * large store is written faster without it). Stored as a JSON array in declared field order, without field names:
     * a 20,000-session store makes plans of ~11,000 items, which this halves. {@code condition}: the rule condition the
     * learning loop learns about (e.g. {@code B/long}); {@code topic}: rule E's topic; {@code base}: the rule's own
     * confidence before anything learned; {@code question}: how the report asked it (new: by name; grouped: in one line
     * per rule condition; collapsed: in one line per rule; waiting; later; not_asked; null when nothing was asked): a
     * rule-group decision covers only new, grouped and collapsed questions;
     * {@code held_by}: the subagent children that made a deletion a question (they go only with it); {@code guarded}:
     * the safety guard's cap applies (titled, active, not a subagent); {@code store}: the session's home ({@code claude};
     * null for Hermes); {@code along}: for a deletion asked because of {@code held_by}, what kind of subagent each would
     * be (kept, running, titled, other; distinct, sorted): what the question teaches ({@code <rule>/with_<kind>});
     * {@code new_title}: the title a rule G rename proposes ({@code topic} is then its topic group); {@code chain}: the
     * compaction chain the session belongs to (its own answer id {@code c1}, …, never a session id: see {@link Chains}): a
     * chain is deleted as a whole or not at all, and only the chain's id decides all of its members' deletions;
     * {@code group}: the report's decision group ({@code q1}, …; see {@link DecisionGroups}) whose one answer decides this
     * item, null when no group answer may decide it (waiting, not asked, report only, going along with a parent).
     */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    public record PlanItem(
            String item_id,
            String session_id,
            String rule,
            String condition,
            String action,
            String confidence,
            boolean executable,

            @tools.jackson.databind.annotation.JsonSerialize(
                    using = tools.jackson.databind.ser.std.NullSerializer.class)
            String reason,

            String cascade_of,
            String topic,
            Fingerprint fingerprint,
            String base,
            String question,
            List<String> held_by,
            boolean guarded,
            String store,
            List<String> along,
            String new_title,
            String chain,
            String group) {
        /**
         * A new item of a session of {@code store} (null: Hermes): not yet asked, held by nothing, in no chain or group,
         * and no rename.
         */
        public static PlanItem of(
                String item_id,
                String session_id,
                String rule,
                String condition,
                String action,
                String confidence,
                boolean executable,
                String reason,
                String cascade_of,
                String topic,
                Fingerprint fingerprint,
                String base,
                boolean guarded,
                String store) {
            return new PlanItem(
                    item_id,
                    session_id,
                    rule,
                    condition,
                    action,
                    confidence,
                    executable,
                    reason,
                    cascade_of,
                    topic,
                    fingerprint,
                    base,
                    null,
                    null,
                    guarded,
                    store,
                    null,
                    null,
                    null,
                    null);
        }

        /** The store of the session ({@code hermes} when not recorded). */
        public String storeName() {
            return store == null ? SessionRow.HERMES : store;
        }

        /** This item with confidence {@code c}, reason {@code why}, held by {@code heldBy}, going along as {@code kinds}. */
        public PlanItem withAlong(String c, String why, List<String> heldBy, List<String> kinds) {
            return copy(action, c, executable, why, question, heldBy, guarded, kinds, chain, group);
        }

        public PlanItem withQuestion(String q) {
            return copy(action, confidence, executable, reason, q, held_by, guarded, along, chain, group);
        }

        public PlanItem withGroup(String g) {
            return copy(action, confidence, executable, reason, question, held_by, guarded, along, chain, g);
        }

        /** This item as a member of compaction chain {@code id}, with the chain's action, confidence and reason. */
        public PlanItem inChain(String id, String act, String c, boolean exec, String why, boolean guard) {
            return copy(act, c, exec, why, question, held_by, guard, along, id, group);
        }

        /** This item with the components the audit changes after it is made; the others stay. */
        private PlanItem copy(
                String act,
                String c,
                boolean exec,
                String why,
                String q,
                List<String> heldBy,
                boolean guard,
                List<String> kinds,
                String chainId,
                String g) {
            return new PlanItem(
                    item_id,
                    session_id,
                    rule,
                    condition,
                    act,
                    c,
                    exec,
                    why,
                    cascade_of,
                    topic,
                    fingerprint,
                    base,
                    q,
                    heldBy,
                    guard,
                    store,
                    kinds,
                    new_title,
                    chainId,
                    g);
        }

        /** The learning key: the rule condition, else the rule. */
        public String key() {
            return condition == null ? rule : condition;
        }

        /** Runs without being asked: HIGH and executable. */
        public boolean automatic() {
            return executable && confidence.equals("HIGH");
        }

        /** A rule-group decision covers this item: it was put to the user as a question in this report. */
        public boolean coveredByRuleDecision() {
            return "new".equals(question) || "grouped".equals(question) || "collapsed".equals(question);
        }

        /** Put to the user in this report or an earlier one (not over the cap, not only in a status line). */
        public boolean asked() {
            return question != null && !question.equals("not_asked") && !question.equals("status");
        }

        /** Reported only: nothing for the user to approve (a review that is not rule E's question, or not executable). */
        public boolean reportOnly() {
            return action.equals("review") ? !rule.equals("E") : !executable;
        }
    }

    public PlanItem item(String id) {
        return items.stream().filter(i -> i.item_id().equals(id)).findFirst().orElse(null);
    }
}
