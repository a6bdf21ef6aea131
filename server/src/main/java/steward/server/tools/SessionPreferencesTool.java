package steward.server.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import steward.StewardError;
import steward.learning.LearningEngine;
import steward.learning.Level;
import steward.learning.PreferenceAdmin;
import steward.learning.PreferenceData;
import steward.learning.PreferenceStore;
import steward.text.Numbers;

/** {@code session_preferences}: show or change what housekeeping has learned (steward.learning's store and admin). */
public final class SessionPreferencesTool extends StewardTool<SessionPreferencesTool.Args> {
    static final int MAX_LISTED = 20;
    static final String DEFAULT_ACTION = "show";

    static final ToolSpec SPEC = ToolSpec.of(
            "session_preferences",
            "Housekeeping preferences (learning loop)",
            "What housekeeping learned from the user's decisions: each rule condition's level (HIGH runs "
                    + "automatically, others are asked), the threshold N ("
                    + Numbers.plain(PreferenceData.MIN_THRESHOLD) + "–"
                    + Numbers.plain(PreferenceData.MAX_THRESHOLD)
                    + "), kept sessions. Use it to explain a question "
                    + "or to trust, reset or change a rule. Never overrides the safety guard.");

    /** schemas/session_preferences.input.json. */
    public record Args(String action, String rule, Double value, String session_id) {
        public Args {
            if (action == null) action = DEFAULT_ACTION;
        }
    }

    public SessionPreferencesTool() {
        super(SPEC, Args.class);
    }

    public record RuleOut(
            String key,
            String rule,
            String condition,
            String base_level,
            String level,
            int approvals,
            int vetoes,
            int extra_deletes,
            int unanswered,
            int runs,
            int contradictions,
            boolean locked,
            boolean quiet) {}

    public record SessionsOut(
            int kept,
            int deleted,
            int renamed,
            List<String> kept_ids,
            List<String> deleted_ids,
            List<String> renamed_ids,
            int waiting,
            int stale,
            List<String> stale_ids) {}

    /** A run as stored, without the properties this build does not model (kept in the file, not part of this output). */
    public record RunOut(int run, String date, String plan_id, int decisions, List<String> summary) {}

    /** A change of the trail as stored (its unknown properties stay in the file). */
    public record ChangeOut(String date, String action, String detail) {}

    public record State(
            String status,
            String file,
            String changed,
            int run_count,
            double active_threshold,
            List<RuleOut> rules,
            SessionsOut sessions,
            List<String> consolidated_topics,
            int precheck_choices,
            int contradictions,
            List<RunOut> recent_runs,
            List<ChangeOut> recent_changes,
            String rule_state) {}

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        String action = a.action();
        String rule = a.rule();
        PreferenceStore store = new PreferenceStore(ctx.paths().stateDir(), ctx.clock());
        PreferenceAdmin admin = new PreferenceAdmin(store, ctx.clock());
        String changed = switch (action) {
            case "show" -> null;
            case "reset" -> admin.resetAll();
            case "reset_rule" -> admin.resetRule(rule);
            case "trust" -> admin.trust(rule);
            case "set_threshold" -> {
                if (a.value() == null)
                    throw new StewardError(
                            SPEC.name(),
                            "set_threshold needs value (" + Numbers.plain(PreferenceData.MIN_THRESHOLD) + "–"
                                    + Numbers.plain(PreferenceData.MAX_THRESHOLD) + ")");
                yield admin.setThreshold(a.value());
            }
            case "reset_threshold" -> admin.resetThreshold();
            case "forget_session" -> {
                String sid = a.session_id();
                if (sid == null) throw new StewardError("session_preferences", "forget_session needs session_id");
                yield admin.forgetSession(sid);
            }
            default -> throw new StewardError("session_preferences", "unknown action " + action);
        };
        PreferenceStore.Snapshot s = store.read();
        if (!s.usable()) throw new StewardError("session_preferences", s.problem());
        State st = state(s, store, changed);
        StringBuilder sb = new StringBuilder();
        if (changed != null) sb.append("Changed: ").append(changed).append('\n');
        sb.append("Learned over ")
                .append(st.run_count())
                .append(" runs")
                .append(st.status().equals("absent") ? " (nothing yet)" : "")
                .append('\n');
        sb.append("Rule state: ").append(st.rule_state()).append('\n');
        for (RuleOut r : st.rules()) {
            sb.append("  ")
                    .append(r.key())
                    .append(": ")
                    .append(r.level())
                    .append(r.locked() ? " (locked)" : r.quiet() ? " (quiet: listed, not asked)" : "")
                    .append(r.level().equals(r.base_level()) ? "" : " (rule says " + r.base_level() + ")")
                    .append(", approved ")
                    .append(r.approvals())
                    .append(", kept ")
                    .append(r.vetoes())
                    .append(", unanswered ")
                    .append(r.unanswered())
                    .append(", runs ")
                    .append(r.runs())
                    .append('\n');
        }
        sb.append("Sessions kept: ")
                .append(st.sessions().kept())
                .append(", delete asked: ")
                .append(st.sessions().deleted())
                .append(
                        st.sessions().stale() == 0
                                ? ""
                                : " (+" + st.sessions().stale() + " stale: gone or changed since, not acted on)")
                .append(", renamed: ")
                .append(st.sessions().renamed())
                .append(", questions waiting: ")
                .append(st.sessions().waiting())
                .append('\n');
        if (!st.consolidated_topics().isEmpty())
            sb.append("Consolidated topics: ")
                    .append(String.join(", ", st.consolidated_topics()))
                    .append('\n');
        return ToolResult.ok(st, sb.toString().stripTrailing());
    }

    static State state(PreferenceStore.Snapshot s, PreferenceStore store, String changed) {
        PreferenceData d = s.data();
        List<RuleOut> rules = new ArrayList<>();
        for (Map.Entry<String, PreferenceData.RuleState> e : d.rule_level.entrySet()) {
            PreferenceData.RuleState r = e.getValue();
            String level = r.locked || r.quiet
                    ? "LOW"
                    : r.vetoes > 0 && r.level == Level.HIGH
                            ? "MEDIUM"
                            : String.valueOf(r.level == null ? r.base_level : r.level);
            rules.add(new RuleOut(
                    e.getKey(),
                    r.rule,
                    r.condition,
                    String.valueOf(r.base_level),
                    level,
                    r.approvals,
                    r.vetoes,
                    r.extra_deletes,
                    r.unanswered,
                    r.runs,
                    r.contradictions,
                    r.locked,
                    r.quiet));
        }
        // a delete request whose session is gone or changed since can no longer act: listed as stale, not as pending
        List<PreferenceData.SessionMark>
                pending =
                        d.session_level.delete.stream()
                                .filter(m -> m.stale_since == null)
                                .toList(),
                stale =
                        d.session_level.delete.stream()
                                .filter(m -> m.stale_since != null)
                                .toList();
        SessionsOut so = new SessionsOut(
                d.session_level.retain.size(),
                pending.size(),
                d.session_level.rename.size(),
                d.session_level.retain.stream().map(m -> m.id).limit(MAX_LISTED).toList(),
                pending.stream().map(m -> m.id).limit(MAX_LISTED).toList(),
                d.session_level.rename.stream().map(m -> m.id).limit(MAX_LISTED).toList(),
                d.waiting.size(),
                stale.size(),
                stale.stream().map(m -> m.id).limit(MAX_LISTED).toList());
        List<PreferenceData.RunEntry> runs = d.runs.subList(Math.max(0, d.runs.size() - 5), d.runs.size());
        List<PreferenceData.Change> changes = d.changes.subList(Math.max(0, d.changes.size() - 10), d.changes.size());
        return new State(
                s.exists() ? "ok" : "absent",
                store.file().toString(),
                changed,
                d.run_count,
                d.active_threshold,
                rules,
                so,
                d.topic_level.consolidated.stream().map(t -> t.topic).toList(),
                d.topic_level.precheck.size(),
                d.feedback_contradictions.size(),
                runs.stream()
                        .map(r -> new RunOut(r.run, r.date, r.plan_id, r.decisions, r.summary))
                        .toList(),
                changes.stream()
                        .map(c -> new ChangeOut(c.date, c.action, c.detail))
                        .toList(),
                LearningEngine.ruleState(d));
    }
}
