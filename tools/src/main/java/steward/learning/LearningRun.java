package steward.learning;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One run being learned from: its decisions, the store being changed, and what was learned (for the summary). */
public final class LearningRun {
    public final String planId;
    public final String date;
    public final List<DecisionEvent> events;
    public final PreferenceData data;
    /** Headline changes: promotions, demotions, locks. */
    public final List<String> learned = new ArrayList<>();
    /** Preference records: kept, deleted, renamed, topics, threshold. */
    public final List<String> recorded = new ArrayList<>();
    /** Keys that must not learn further in this run (locked before or during it). */
    public final Set<String> frozen = new HashSet<>();

    public LearningRun(String planId, String date, List<DecisionEvent> events, PreferenceData data) {
        this.planId = planId;
        this.date = date;
        this.events = List.copyOf(events);
        this.data = data;
        for (var e : data.rule_level.entrySet()) if (e.getValue().locked) frozen.add(e.getKey());
    }

    /** The events of this run grouped by rule condition, in first-seen order. */
    public Map<String, List<DecisionEvent>> byKey() {
        Map<String, List<DecisionEvent>> m = new LinkedHashMap<>();
        for (DecisionEvent e : events) m.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
        return m;
    }

    /** The state of a rule condition, created with its base confidence on first sight. */
    public PreferenceData.RuleState state(DecisionEvent e) {
        return data.rule_level.computeIfAbsent(e.key(), k -> {
            PreferenceData.RuleState s = new PreferenceData.RuleState();
            s.rule = e.rule();
            s.condition = e.condition();
            s.base_level = e.recommended();
            s.level = e.recommended();
            return s;
        });
    }
}
