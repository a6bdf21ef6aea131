package steward.learning;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import steward.StewardError;
import steward.learning.rules.SettledTopicsRule;
import steward.text.Numbers;

/**
 * The user's controls over what was learned ({@code session_preferences}): show, reset all or one rule,
 * trust a locked rule again, set or reset N, forget a session-level preference, record a pre-creation
 * choice. Every change is recorded in the store's change trail.
 */
public final class PreferenceAdmin {
    private final PreferenceStore store;
    private final Clock clock;

    public PreferenceAdmin(PreferenceStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    private String today() {
        return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toString();
    }

    private void trail(PreferenceData d, String action, String detail) {
        PreferenceData.Change c = new PreferenceData.Change();
        c.date = clock.instant().toString();
        c.action = action;
        c.detail = detail;
        d.changes.add(c);
        while (d.changes.size() > PreferenceData.MAX_CHANGES) d.changes.remove(0);
    }

    /** Resets everything learned (also the way out of an unreadable store: the old file is kept as a backup). */
    public String resetAll() {
        return store.update(
                d -> {
                    List<PreferenceData.Change> keep = new ArrayList<>(d.changes);
                    // what this build does not know may be a newer Steward's learning: reset too (the old file is
                    // the backup)
                    int unknown = d.unknown.size();
                    PreferenceData fresh = new PreferenceData();
                    copyInto(fresh, d);
                    d.changes = keep;
                    String dropped = unknown == 0
                            ? ""
                            : "; " + unknown + (unknown == 1 ? " property" : " properties")
                                    + " this Steward does not know dropped too (kept in backups/preferences)";
                    trail(d, "reset", "all learned preferences reset" + dropped);
                    return "all learned preferences reset (N back to " + Numbers.plain(d.active_threshold) + ")"
                            + dropped;
                },
                true);
    }

    private static void copyInto(PreferenceData from, PreferenceData to) {
        to.version = from.version;
        to.unknown = from.unknown;
        to.session_level = from.session_level;
        to.rule_level = from.rule_level;
        to.topic_level = from.topic_level;
        to.feedback_contradictions = from.feedback_contradictions;
        to.active_threshold = from.active_threshold;
        to.run_count = 0;
        to.runs = from.runs;
    }

    /** {@code rule}: B (all of rule B), B/long (every family of it) or B/long@gateway (that family only: RuleKey). */
    public String resetRule(String rule) {
        String r = normaliseRule(rule);
        return store.update(
                d -> {
                    List<String> removed = d.rule_level.keySet().stream()
                            .filter(k -> RuleKey.named(k, r))
                            .toList();
                    if (removed.isEmpty())
                        throw new StewardError("session_preferences", "nothing learned for rule " + rule);
                    removed.forEach(d.rule_level::remove);
                    d.feedback_contradictions.removeIf(c -> removed.contains(c.rule_key));
                    trail(d, "reset_rule", String.join(", ", removed));
                    return "reset what was learned for " + String.join(", ", removed);
                },
                false);
    }

    public String trust(String rule) {
        String r = normaliseRule(rule);
        return store.update(
                d -> {
                    List<String> keys = d.rule_level.entrySet().stream()
                            .filter(e -> (e.getValue().locked || e.getValue().quiet) && RuleKey.named(e.getKey(), r))
                            .map(Map.Entry::getKey)
                            .toList();
                    if (keys.isEmpty())
                        throw new StewardError("session_preferences", "rule " + rule + " is neither locked nor quiet");
                    for (String k : keys) {
                        PreferenceData.RuleState s = d.rule_level.get(k);
                        if (s.quiet) { // asked again: its old rejections would make it quiet at once
                            s.vetoes = 0;
                            s.vetoes_since_approval = 0;
                            s.veto_runs_since_approval = 0;
                            if (k.equals(SettledTopicsRule.RULE)) { // rule E went quiet from its approvals
                                s.approvals = 0;
                                s.approval_runs = 0;
                                s.runs = 0;
                            }
                        }
                        s.locked = false;
                        s.quiet = false;
                        s.contradictions = 0;
                        s.last_polarity = null;
                        s.level = s.base_level;
                    }
                    trail(d, "trust", String.join(", ", keys));
                    return "trusting " + String.join(", ", keys)
                            + " again: back to its own confidence, asked again, learning resumes";
                },
                false);
    }

    public String setThreshold(double n) {
        if (!(n >= PreferenceData.MIN_THRESHOLD && n <= PreferenceData.MAX_THRESHOLD)) {
            throw new StewardError(
                    "session_preferences",
                    "N must be between " + Numbers.plain(PreferenceData.MIN_THRESHOLD) + " and "
                            + Numbers.plain(PreferenceData.MAX_THRESHOLD) + ", got " + n);
        }
        return store.update(
                d -> {
                    double before = d.active_threshold;
                    d.active_threshold = n;
                    d.warning_ignored_runs = 0; // the user spoke about rule D: its warning is asked again
                    d.warning_status_runs = 0;
                    trail(d, "set_threshold", Numbers.plain(before) + " → " + Numbers.plain(n));
                    return "active-session threshold N set to " + Numbers.plain(n);
                },
                false);
    }

    public String resetThreshold() {
        return store.update(
                d -> {
                    double before = d.active_threshold;
                    d.active_threshold = PreferenceData.DEFAULT_THRESHOLD;
                    d.warning_ignored_runs = 0;
                    d.warning_status_runs = 0;
                    trail(d, "reset_threshold", Numbers.plain(before) + " → " + Numbers.plain(d.active_threshold));
                    return "active-session threshold N reset to " + Numbers.plain(d.active_threshold);
                },
                false);
    }

    public String forgetSession(String sessionId) {
        return store.update(
                d -> {
                    boolean removed = d.session_level.retain.removeIf(m -> m.id.equals(sessionId))
                            | d.session_level.delete.removeIf(m -> m.id.equals(sessionId))
                            | d.session_level.rename.removeIf(m -> m.id.equals(sessionId));
                    if (!removed)
                        throw new StewardError(
                                "session_preferences", "no preference recorded for session " + sessionId);
                    trail(d, "forget_session", sessionId);
                    return "forgot what you decided about session " + sessionId;
                },
                false);
    }

    /** Records what the user chose when the pre-creation check found a matching session. */
    public String recordPrecheckChoice(String topic, String choice, String sessionId) {
        String c = choice.toLowerCase(Locale.ROOT);
        if (!c.equals("continue") && !c.equals("new")) {
            throw new StewardError("session_precheck", "choice must be 'continue' or 'new', got '" + choice + "'");
        }
        return store.update(
                d -> {
                    PreferenceData.TopicChoice t = new PreferenceData.TopicChoice();
                    t.topic = topic;
                    t.choice = c;
                    t.session_id = sessionId;
                    t.date = today();
                    d.topic_level.precheck.add(t);
                    while (d.topic_level.precheck.size() > 200) d.topic_level.precheck.remove(0);
                    trail(d, "precheck_choice", topic + " → " + c + (sessionId == null ? "" : " (" + sessionId + ")"));
                    return "recorded: " + c + " for topic \"" + topic + "\"";
                },
                false);
    }

    private static String normaliseRule(String rule) {
        if (rule == null || rule.isBlank())
            throw new StewardError("session_preferences", "name a rule, e.g. B or B/long");
        String key = rule.strip();
        String r = RuleKey.rule(key).toUpperCase(Locale.ROOT);
        if (!r.matches("[A-EMNT]")) {
            throw new StewardError(
                    "session_preferences", "unknown rule '" + rule + "' (learning rules are A–E, M, N and T)");
        }
        return r + key.substring(r.length()); // B, B/long (every family of it) or B/long@gateway
    }
}
