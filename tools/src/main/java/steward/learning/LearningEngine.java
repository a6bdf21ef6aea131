package steward.learning;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import steward.StewardError;
import steward.learning.rules.ContradictionRule;
import steward.learning.rules.CountRule;
import steward.learning.rules.DemotionRule;
import steward.learning.rules.PromotionRule;
import steward.learning.rules.QuietRule;
import steward.learning.rules.SessionMemoryRule;
import steward.learning.rules.SettledTopicsRule;
import steward.learning.rules.ThresholdRule;
import steward.learning.rules.TopicRule;
import steward.learning.rules.WaitingRule;
import steward.meta.Metadata;
import steward.text.Numbers;

/**
 * Learns from one housekeeping run: applies the learning rules in order to the decisions that
 * {@code session_apply} received (or to what {@code session_restore} took back), persists the store, and returns
 * the summary (at most 3 lines) and every change. Level changes are found by comparing how each condition runs
 * before and after, so none goes unreported, and a promotion the safety guard's cap holds back says so.
 * Learning only changes how much the user is asked; it never touches the safety guard.
 */
public final class LearningEngine {
    /** The explicit, ordered registry of learning rules. */
    public static final List<LearningRule> RULES = Metadata.validated(
            "learning rules",
            List.of(
                    new SessionMemoryRule(),
                    new ContradictionRule(),
                    new CountRule(),
                    new PromotionRule(),
                    new DemotionRule(),
                    new QuietRule(),
                    new SettledTopicsRule(),
                    new ThresholdRule(),
                    new TopicRule(),
                    new WaitingRule()));

    /** The kind of change a delete request dropped as stale is recorded under (in the run and in the store's trail). */
    public static final String STALE_DROPPED = "stale_dropped";

    /** The most entries one summary line names per kind of record; the count is always given. */
    static final int MAX_NAMED = 3;

    private final PreferenceStore store;
    private final Clock clock;

    public LearningEngine(PreferenceStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** {@code lines}: at most 3 summary lines; {@code changes}: every change of the store in this run. */
    public record Summary(List<String> lines, List<LearningRun.Change> changes, String ruleState, boolean paused) {}

    /** Learns from one housekeeping run (session_apply). {@code openQuestions}: session|condition of every question in the plan. */
    public Summary record(String planId, List<DecisionEvent> events, Set<String> openQuestions) {
        return learn(planId, events, false, openQuestions, null);
    }

    /**
     * Learns from one housekeeping run; {@code listing}: the sessions it found (the user's delete requests whose session
     * is gone or changed are marked stale, and dropped after {@link PreferenceData#STALE_RUNS} such runs); null: not
     * checked.
     */
    public Summary record(String planId, List<DecisionEvent> events, Set<String> openQuestions, Listing listing) {
        return learn(planId, events, false, openQuestions, listing);
    }

    public Summary record(String planId, List<DecisionEvent> events) {
        return learn(planId, events, false, null, null);
    }

    /** Learns from a session_restore: what the user took back. Not a housekeeping run. */
    public Summary recordRestore(String backupId, List<DecisionEvent> events) {
        return learn(backupId, events, true, null, null);
    }

    private Summary learn(
            String id, List<DecisionEvent> events, boolean restore, Set<String> openQuestions, Listing listing) {
        String date = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toString();
        try {
            return store.update(
                    data -> {
                        Map<String, String> before = levels(data);
                        LearningRun run = new LearningRun(id, date, events, data, restore, openQuestions, listing);
                        for (LearningRule r : RULES) r.apply(run);
                        for (LearningRun.Change c : run.changes) { // the store's trail says why a request went
                            if (!c.kind().equals(STALE_DROPPED)) continue;
                            PreferenceData.Change t = new PreferenceData.Change();
                            t.date = clock.instant().toString();
                            t.action = "stale_request";
                            t.detail = c.detail();
                            data.changes.add(t);
                        }
                        while (data.changes.size() > PreferenceData.MAX_CHANGES) data.changes.remove(0);
                        List<LearningRun.Change> changes = new ArrayList<>(levelChanges(run, before, levels(data)));
                        changes.addAll(run.changes);
                        String state = ruleState(data);
                        List<String> lines = summaryLines(changes, state);
                        if (restore) {
                            PreferenceData.Change c = new PreferenceData.Change();
                            c.date = clock.instant().toString();
                            c.action = "restore";
                            c.detail = id + ": " + lines.get(0);
                            data.changes.add(c);
                            while (data.changes.size() > PreferenceData.MAX_CHANGES) data.changes.remove(0);
                        } else {
                            data.run_count++;
                            PreferenceData.RunEntry entry = new PreferenceData.RunEntry();
                            entry.run = data.run_count;
                            entry.date = date;
                            entry.plan_id = id;
                            entry.decisions = events.size();
                            entry.summary = lines;
                            data.runs.add(entry);
                            while (data.runs.size() > PreferenceData.MAX_RUNS) data.runs.remove(0);
                        }
                        return new Summary(lines, List.copyOf(changes), state, false);
                    },
                    false);
        } catch (StewardError e) {
            String msg = "learning paused: " + e.getMessage();
            return new Summary(List.of(msg), List.of(), "", true);
        }
    }

    /** Per rule condition: how it runs now ("HIGH", "MEDIUM", "LOW", "LOW locked") and its stored level, as rule F applies them. */
    static Map<String, String> levels(PreferenceData data) {
        Map<String, String> out = new LinkedHashMap<>();
        Preferences p = new Preferences(data, null);
        for (var e : data.rule_level.entrySet()) {
            PreferenceData.RuleState s = e.getValue();
            Level base = s.base_level == null ? Level.MEDIUM : s.base_level;
            Preferences.Adjusted a = p.adjust(s.rule, s.condition, base);
            out.put(e.getKey(), a.level() + (a.locked() ? " locked" : "") + "/" + s.level + (s.quiet ? " quiet" : ""));
        }
        return out;
    }

    /** Every change of how a condition runs, from the levels before and after the run: nothing learned goes unreported. */
    static List<LearningRun.Change> levelChanges(
            LearningRun run, Map<String, String> before, Map<String, String> after) {
        List<LearningRun.Change> out = new ArrayList<>();
        for (var e : after.entrySet()) {
            String key = e.getKey();
            PreferenceData.RuleState s = run.data.rule_level.get(key);
            String was = before.get(key);
            if (was == null) was = (s.base_level == null ? "MEDIUM" : s.base_level.name()) + "/" + s.base_level;
            if (was.equals(e.getValue())) continue;
            String runsNow = e.getValue().substring(0, e.getValue().indexOf('/'));
            String ranBefore = was.substring(0, was.indexOf('/'));
            boolean quietNow = e.getValue().endsWith(" quiet"), quietBefore = was.endsWith(" quiet");
            if (RuleKey.along(key)) {
                // learns only one thing: keep both, unasked (quiet), or ask again
                boolean q = s.quiet && !s.locked, qb = quietBefore && !ranBefore.endsWith("locked");
                if (q == qb) continue;
                String kind = key.substring(key.indexOf('/') + 1 + RuleKey.ALONG_PREFIX.length());
                out.add(
                        q
                                ? new LearningRun.Change(
                                        "quiet",
                                        key,
                                        "rule " + s.rule + " deletions that would take a " + kind
                                                + " subagent along are listed from now on, not asked: both stay (you kept both "
                                                + (s.approvals == 0 ? s.vetoes : s.vetoes_since_approval)
                                                + " times; approve one by id to be asked again)")
                                : new LearningRun.Change(
                                        "raised",
                                        key,
                                        "rule " + s.rule + " deletions that would take a " + kind
                                                + " subagent along are asked again"));
                continue;
            }
            if (quietNow != quietBefore && key.equals(SettledTopicsRule.RULE)) {
                out.add(
                        quietNow
                                ? new LearningRun.Change(
                                        "quiet",
                                        key,
                                        "rule E's topics listed from now on, no longer asked (you said "
                                                + "consolidated " + s.approvals
                                                + " times, never 'not yet'; answer 'not yet' to a listed topic to be asked again)")
                                : new LearningRun.Change(
                                        "raised",
                                        key,
                                        "rule E's topics asked again (you said one is not consolidated yet)"));
                continue;
            }
            if (quietNow != quietBefore) {
                out.add(
                        quietNow
                                ? new LearningRun.Change(
                                        "quiet",
                                        key,
                                        key + " listed from now on, no longer asked ("
                                                + (s.approvals == 0
                                                        ? "you kept " + s.vetoes + ", approved none"
                                                        : "you kept every one since you last approved one: "
                                                                + s.vetoes_since_approval)
                                                + "; approve one by id to be asked again)")
                                : new LearningRun.Change("raised", key, key + " asked again (you approved one)"));
                continue;
            }
            if (runsNow.endsWith("locked")) {
                if (ranBefore.endsWith("locked")) continue;
                out.add(new LearningRun.Change(
                        "locked",
                        key,
                        key + " locked at LOW (your answers on it changed " + s.contradictions
                                + " times; say 'trust rule " + key + "' to resume)"));
            } else if (runsNow.equals("HIGH")) {
                boolean guarded = run.events.stream()
                        .filter(x -> x.key().equals(key) && x.teachesCondition())
                        .allMatch(DecisionEvent::guarded);
                out.add(
                        guarded
                                ? new LearningRun.Change(
                                        "capped",
                                        key,
                                        key + " approved " + s.approvals
                                                + " times, stays asked: safety cap (titled active sessions are never changed automatically)")
                                : new LearningRun.Change(
                                        "promoted",
                                        key,
                                        key + " promoted to HIGH: runs automatically from the next run (you approved "
                                                + s.approvals + ")"));
            } else if (run.demotedBy.containsKey(key)) {
                out.add(new LearningRun.Change(
                        "demoted",
                        key,
                        key + " back to " + runsNow + ", its rule's own level (you restored a session "
                                + run.demotedBy.get(key) + " changed automatically; approve " + key
                                + " again to promote it)"));
            } else if (ranBefore.equals("HIGH")) {
                out.add(new LearningRun.Change(
                        s.level == Level.HIGH ? "asked" : "demoted",
                        key,
                        key + (s.level == Level.HIGH ? " asked from now on (" : " demoted to " + runsNow + " (")
                                + vetoes(s) + ")"));
            } else if (Level.valueOf(runsNow).ordinal()
                    < Level.valueOf(ranBefore.replace(" locked", "")).ordinal()) {
                out.add(new LearningRun.Change("raised", key, key + " raised to " + runsNow + " (you approved it)"));
            } else if (!runsNow.equals(ranBefore)) {
                out.add(new LearningRun.Change(
                        "demoted", key, key + " lowered to " + runsNow + " (" + vetoes(s) + ")"));
            } else {
                out.add(new LearningRun.Change(
                        "demoted", key, key + " stays " + runsNow + " for good (" + vetoes(s) + ")"));
            }
        }
        return out;
    }

    private static String vetoes(PreferenceData.RuleState s) {
        if (s.restores > 0)
            return "you restored " + s.restores + " it ran automatically"
                    + (s.vetoes > s.restores ? ", kept " + (s.vetoes - s.restores) : "");
        if (s.vetoes == 0 && s.withdrawn > 0)
            return "you restored " + s.withdrawn + (s.withdrawn == 1 ? " deletion" : " deletions")
                    + " you had approved";
        return "you kept " + s.vetoes;
    }

    static List<String> summaryLines(List<LearningRun.Change> changes, String state) {
        List<String> learned = new ArrayList<>(), recorded = new ArrayList<>();
        Map<String, List<String>> sessions = new LinkedHashMap<>();
        for (LearningRun.Change c : changes) {
            switch (c.kind()) {
                case "locked",
                        "capped",
                        "promoted",
                        "asked",
                        "demoted",
                        "raised",
                        "quiet",
                        "contradiction",
                        "warning" -> learned.add(c.detail());
                case "kept", "restored", "renamed", "delete_asked", STALE_DROPPED ->
                    sessions.computeIfAbsent(c.kind(), k -> new ArrayList<>()).add(c.detail());
                default -> recorded.add(c.detail());
            }
        }
        List<String> rec = new ArrayList<>();
        sessions.forEach((kind, l) -> {
            String word = switch (kind) {
                case "kept" -> "kept";
                case "restored" -> "kept (restored)";
                case "renamed" -> "renamed";
                case STALE_DROPPED -> "delete request dropped (gone or changed since you asked)";
                default -> "delete asked for";
            };
            rec.add(word + " " + l.size() + ": " + String.join(", ", l.subList(0, Math.min(MAX_NAMED, l.size())))
                    + (l.size() > MAX_NAMED ? " +" + (l.size() - MAX_NAMED) + " more" : ""));
        });
        rec.addAll(recorded);
        List<String> lines = new ArrayList<>();
        lines.add("Learned: " + (learned.isEmpty() ? "no rule changed" : String.join("; ", learned)) + ".");
        if (!rec.isEmpty()) lines.add("Recorded: " + String.join("; ", rec) + ".");
        lines.add("Current rule state: " + state);
        return lines;
    }

    /** "A=HIGH(7/0) B=HIGH(2/0) C=MEDIUM(1/0) D=MEDIUM(N=3)": per rule, its least confident condition and its approvals/vetoes. */
    public static String ruleState(PreferenceData data) {
        Map<String, int[]> counts = new TreeMap<>();
        Map<String, Level> levels = new TreeMap<>();
        Map<String, Boolean> locked = new TreeMap<>();
        List<String> alongQuiet = new ArrayList<>();
        for (var e : data.rule_level.entrySet()) {
            String rule = RuleKey.rule(e.getKey());
            PreferenceData.RuleState s = e.getValue();
            if (RuleKey.along(e.getKey())) { // not the rule's own condition: shown only when it keeps deletions unasked
                if (s.quiet && !s.locked) alongQuiet.add(e.getKey());
                continue;
            }
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
            if ("D".equals(e.getKey()))
                sb.append("(N=").append(Numbers.plain(data.active_threshold)).append(')');
            else sb.append('(').append(c[0]).append('/').append(c[1]).append(')');
            if (locked.containsKey(e.getKey())) sb.append("[locked]");
        }
        if (!levels.containsKey("D")) {
            if (sb.length() > 0) sb.append(' ');
            sb.append("D(N=").append(Numbers.plain(data.active_threshold)).append(')');
        }
        if (data.warning_status_runs > 0) sb.append("[status]");
        for (String k : alongQuiet) sb.append(' ').append(k).append("=quiet");
        return sb.toString();
    }
}
