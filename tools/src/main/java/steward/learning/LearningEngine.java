package steward.learning;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import steward.StewardError;
import steward.learning.rules.ContradictionRule;
import steward.learning.rules.CountRule;
import steward.learning.rules.DemotionRule;
import steward.learning.rules.PromotionRule;
import steward.learning.rules.SessionMemoryRule;
import steward.learning.rules.ThresholdRule;
import steward.learning.rules.TopicRule;

/**
 * Learns from one housekeeping run: applies the learning rules in order to the decisions that
 * {@code session_apply} received, persists the store, and returns the summary (at most 3 lines).
 * Learning only changes how much the user is asked; it never touches the safety guard.
 */
public final class LearningEngine {
    /** The explicit, ordered registry of learning rules. */
    public static final List<LearningRule> RULES = List.of(
            new SessionMemoryRule(),
            new ContradictionRule(),
            new CountRule(),
            new PromotionRule(),
            new DemotionRule(),
            new ThresholdRule(),
            new TopicRule());

    private final PreferenceStore store;
    private final Clock clock;

    public LearningEngine(PreferenceStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    public record Summary(List<String> lines, List<String> learned, List<String> recorded, String ruleState, boolean paused) {}

    public Summary record(String planId, List<DecisionEvent> events) {
        String date = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toString();
        try {
            return store.update(data -> {
                LearningRun run = new LearningRun(planId, date, events, data);
                for (LearningRule r : RULES) r.apply(run);
                data.run_count++;
                PreferenceData.RunEntry entry = new PreferenceData.RunEntry();
                entry.run = data.run_count;
                entry.date = date;
                entry.plan_id = planId;
                entry.decisions = events.size();
                String state = ruleState(data);
                List<String> lines = summaryLines(run, state);
                entry.summary = lines;
                data.runs.add(entry);
                while (data.runs.size() > PreferenceData.MAX_RUNS) data.runs.remove(0);
                return new Summary(lines, List.copyOf(run.learned), List.copyOf(run.recorded), state, false);
            }, false);
        } catch (StewardError e) {
            String msg = "learning paused: " + e.getMessage();
            return new Summary(List.of(msg), List.of(), List.of(), "", true);
        }
    }

    static List<String> summaryLines(LearningRun run, String state) {
        List<String> lines = new ArrayList<>();
        lines.add("Learned: " + (run.learned.isEmpty() ? "nothing new this run" : String.join("; ", run.learned)) + ".");
        if (!run.recorded.isEmpty()) {
            List<String> r = run.recorded.size() > 4
                    ? new ArrayList<>(run.recorded.subList(0, 4)) : new ArrayList<>(run.recorded);
            if (run.recorded.size() > 4) r.add("and " + (run.recorded.size() - 4) + " more");
            lines.add("Recorded: " + String.join("; ", r) + ".");
        }
        lines.add("Current rule state: " + state);
        return lines;
    }

    /** "A=HIGH(7/0) B=HIGH(2/0) C=MEDIUM(1/0) D=MEDIUM(N=3)": per rule, its least confident condition and its approvals/vetoes. */
    public static String ruleState(PreferenceData data) {
        Map<String, int[]> counts = new TreeMap<>();
        Map<String, Level> levels = new TreeMap<>();
        Map<String, Boolean> locked = new TreeMap<>();
        for (var e : data.rule_level.entrySet()) {
            String rule = RuleKey.rule(e.getKey());
            PreferenceData.RuleState s = e.getValue();
            int[] c = counts.computeIfAbsent(rule, k -> new int[2]);
            c[0] += s.approvals;
            c[1] += s.vetoes;
            Level l = s.locked ? Level.LOW : (s.vetoes > 0 && s.level == Level.HIGH ? Level.MEDIUM : s.level);
            levels.merge(rule, l == null ? Level.MEDIUM : l, (a, b) -> a.ordinal() >= b.ordinal() ? a : b);
            if (s.locked) locked.put(rule, true);
        }
        StringBuilder sb = new StringBuilder();
        for (var e : levels.entrySet()) {
            if (sb.length() > 0) sb.append(' ');
            int[] c = counts.get(e.getKey());
            sb.append(e.getKey()).append('=').append(e.getValue());
            if ("D".equals(e.getKey())) sb.append("(N=").append(ThresholdRule.fmt(data.active_threshold)).append(')');
            else sb.append('(').append(c[0]).append('/').append(c[1]).append(')');
            if (locked.containsKey(e.getKey())) sb.append("[locked]");
        }
        if (!levels.containsKey("D")) {
            if (sb.length() > 0) sb.append(' ');
            sb.append("D(N=").append(ThresholdRule.fmt(data.active_threshold)).append(')');
        }
        return sb.toString();
    }
}
