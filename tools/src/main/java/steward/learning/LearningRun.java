package steward.learning;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One run being learned from: its decisions, the store being changed, and every change made (for the summary). */
public final class LearningRun {
    public final String planId;
    public final String date;
    public final List<DecisionEvent> events;
    public final PreferenceData data;
    /** True for a session_restore: not a housekeeping run (no run counted), but what was taken back teaches. */
    public final boolean restore;
    /** session|condition of every question the plan had (waiting questions no longer in it are forgotten); null: keep all. */
    public final Set<String> openQuestions;
    /** The sessions the run found, to check the user's delete requests against; null when not known (nothing checked). */
    public final Listing listing;
    /** Records made by the rules (kept, renamed, N, topics, contradictions…); level changes are added by the engine. */
    public final List<Change> changes = new ArrayList<>();
    /**
     * Keys demoted because the user restored an automatic run of the same condition in another family (DemotionRule), with
     * the key restored.
     */
    public final Map<String, String> demotedBy = new LinkedHashMap<>();
    /** Keys that must not learn further in this run (locked before or during it). */
    public final Set<String> frozen = new HashSet<>();

    /** One change of the store in this run: {@code kind} (kept, renamed, threshold, …), the rule condition or session, a short text. */
    public record Change(String kind, String key, String detail) {}

    public LearningRun(String planId, String date, List<DecisionEvent> events, PreferenceData data) {
        this(planId, date, events, data, false, null, null);
    }

    public LearningRun(
            String planId,
            String date,
            List<DecisionEvent> events,
            PreferenceData data,
            boolean restore,
            Set<String> openQuestions,
            Listing listing) {
        this.listing = listing;
        this.planId = planId;
        this.date = date;
        this.events = List.copyOf(events);
        this.data = data;
        this.restore = restore;
        this.openQuestions = openQuestions;
        for (var e : data.rule_level.entrySet()) if (e.getValue().locked) frozen.add(e.getKey());
    }

    public void record(String kind, String key, String detail) {
        changes.add(new Change(kind, key, detail));
    }

    /** The events of this run that teach about their rule condition, grouped by it, in first-seen order. */
    public Map<String, List<DecisionEvent>> byKey() {
        Map<String, List<DecisionEvent>> m = new LinkedHashMap<>();
        for (DecisionEvent e : events)
            if (e.teachesCondition())
                m.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
        return m;
    }

    /** The state of a rule condition, created with the rule's own confidence on first sight. */
    public PreferenceData.RuleState state(DecisionEvent e) {
        return data.rule_level.computeIfAbsent(e.key(), k -> {
            PreferenceData.RuleState s = new PreferenceData.RuleState();
            s.rule = e.rule();
            s.condition = e.condition();
            s.base_level = e.base();
            s.level = e.base();
            return s;
        });
    }
}
