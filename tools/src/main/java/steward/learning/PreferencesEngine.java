package steward.learning;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import steward.StewardError;
import steward.sessions.audit.Times;

/**
 * {@code session_preferences}: shows the learned state and lets the user reset it (all or one rule),
 * trust a locked rule again, set or reset N, or forget what was recorded about one session. Every
 * change is logged in the store. A corrupt store is reported and never modified.
 */
public final class PreferencesEngine {
    static final String CTX = "session_preferences";
    public static final int MAX_LISTED = 20;

    private final PreferenceStore store;
    private final Clock clock;

    public PreferencesEngine(java.nio.file.Path stateDir, Clock clock) {
        this.store = new PreferenceStore(stateDir);
        this.clock = clock;
    }

    public record RuleOut(String condition, String base_level, String level, int approvals, int vetoes, int auto_runs,
                          int extra_deletions, int contradictions, boolean locked) {}

    public record SessionsOut(int kept, int deleted, int renamed, List<String> kept_ids, List<String> deleted_ids) {}

    public record RunOut(int run, String date, int executed, int approvals, int vetoes) {}

    public record State(String status, String file, String changed, int run_count, double active_threshold, int threshold_n,
                        List<RuleOut> rules, SessionsOut sessions, List<String> consolidated_topics, int reported_topics,
                        int contradictions, List<RunOut> recent_runs, List<PreferenceData.Change> recent_changes, String rule_state) {}

    public State call(String action, String rule, Double value, String sessionId) {
        String act = action == null ? "show" : action;
        String date = Times.iso(Times.epoch(clock.instant()));
        if (act.equals("show")) {
            PreferenceStore.Loaded l = store.load();
            if (!l.usable()) throw new StewardError(CTX, l.error());
            return state(l.status(), l.data(), null, store.file().toString());
        }
        String changed = store.update(CTX, clock.instant(), d -> apply(d, act, rule, value, sessionId, date));
        return state("ok", store.load().data(), changed, store.file().toString());
    }

    private static String apply(PreferenceData d, String act, String rule, Double value, String sessionId, String date) {
        String detail;
        switch (act) {
            case "reset" -> {
                if (rule == null) {
                    List<PreferenceData.Change> log = d.changes;
                    PreferenceData fresh = new PreferenceData();
                    d.run_count = fresh.run_count;
                    d.session_level = fresh.session_level;
                    d.rule_level = fresh.rule_level;
                    d.topic_level = fresh.topic_level;
                    d.feedback_contradictions = fresh.feedback_contradictions;
                    d.active_threshold = fresh.active_threshold;
                    d.runs = fresh.runs;
                    d.changes = log;
                    detail = "everything learned was reset";
                } else {
                    List<String> hit = matching(d, rule);
                    hit.forEach(d.rule_level::remove);
                    detail = "reset " + String.join(", ", hit);
                }
            }
            case "trust" -> {
                if (rule == null) throw new StewardError(CTX, "trust needs a rule (e.g. B or B.long)");
                List<String> hit = matching(d, rule);
                for (String c : hit) {
                    PreferenceData.RuleState r = d.rule_level.get(c);
                    r.locked = false;
                    r.contradictions = 0;
                    r.vetoes = 0;
                    r.last_decision = null;
                }
                detail = "trusted again: " + String.join(", ", hit);
            }
            case "set_threshold" -> {
                if (value == null || value < 2 || value > 6) throw new StewardError(CTX, "N must be between 2 and 6, not " + value);
                detail = "N " + Learner.fmt(d.active_threshold) + "→" + Learner.fmt(value);
                d.active_threshold = value;
            }
            case "reset_threshold" -> {
                detail = "N " + Learner.fmt(d.active_threshold) + "→3";
                d.active_threshold = 3;
            }
            case "forget_session" -> {
                if (sessionId == null) throw new StewardError(CTX, "forget_session needs session_id");
                boolean any = d.session_level.retain.removeIf(e -> sessionId.equals(e.id));
                any |= d.session_level.delete.removeIf(e -> sessionId.equals(e.id));
                any |= d.session_level.rename.remove(sessionId) != null;
                if (!any) throw new StewardError(CTX, "nothing is recorded about session " + sessionId);
                detail = "forgot session " + sessionId;
            }
            default -> throw new StewardError(CTX, "unknown action " + act);
        }
        d.logChange(date, act, detail);
        return detail;
    }

    private static List<String> matching(PreferenceData d, String rule) {
        List<String> hit = new ArrayList<>();
        for (String c : d.rule_level.keySet()) if (c.equals(rule) || c.startsWith(rule + ".")) hit.add(c);
        if (hit.isEmpty()) throw new StewardError(CTX, "nothing is learned about rule " + rule + " (known: " + String.join(", ", d.rule_level.keySet()) + ")");
        return hit;
    }

    static State state(String status, PreferenceData d, String changed, String file) {
        List<RuleOut> rules = new ArrayList<>();
        for (var e : d.rule_level.entrySet()) {
            PreferenceData.RuleState r = e.getValue();
            if (r.base_level == null) continue;
            rules.add(new RuleOut(e.getKey(), r.base_level, LearnedPreferences.level(r).name(), r.approvals, r.vetoes, r.auto_runs,
                    r.extra_deletions, r.contradictions, r.locked));
        }
        List<String> kept = d.session_level.retain.stream().map(x -> x.id).limit(MAX_LISTED).toList();
        List<String> deleted = d.session_level.delete.stream().map(x -> x.id).limit(MAX_LISTED).toList();
        SessionsOut s = new SessionsOut(d.session_level.retain.size(), d.session_level.delete.size(), d.session_level.rename.size(), kept, deleted);
        List<RunOut> runs = d.runs.stream().skip(Math.max(0, d.runs.size() - 5)).map(r -> new RunOut(r.run, r.date, r.executed, r.approvals, r.vetoes)).toList();
        List<PreferenceData.Change> changes = d.changes.stream().skip(Math.max(0, d.changes.size() - 10)).toList();
        return new State(status, file, changed, d.run_count, d.active_threshold, (int) Math.floor(LearnedPreferences.clampN(d.active_threshold)),
                rules, s, d.topic_level.consolidated.stream().map(t -> t.topic).toList(), d.topic_level.reported_topics.size(),
                d.feedback_contradictions.size(), runs, changes, Learner.ruleState(d));
    }

    /** {@code session_precheck}'s report of the user's continue-or-new choice. */
    public void recordTopicChoice(List<String> keywords, String match, String sessionId, String choice) {
        String date = Times.iso(Times.epoch(clock.instant()));
        store.update("session_precheck", clock.instant(), d -> {
            PreferenceData.ReportedTopic t = new PreferenceData.ReportedTopic();
            t.query_keywords = new ArrayList<>(keywords);
            t.match = match;
            t.session_id = sessionId;
            t.user_choice = choice;
            t.date = date;
            d.topic_level.reported_topics.add(t);
            while (d.topic_level.reported_topics.size() > 100) d.topic_level.reported_topics.remove(0);
            return null;
        });
    }
}
