package steward.learning;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import steward.sessions.audit.Plan;
import steward.sessions.rules.Confidence;

/**
 * Records the decisions of one {@code session_apply} run in the store and says, in at most three
 * lines, what was learned. Only explicit answers teach: an approval or a veto (the user kept the
 * session) per rule condition; HIGH items that ran unobjected count as automatic runs. Items skipped
 * because they changed since the audit teach nothing. A locked condition learns nothing until trusted.
 */
public final class Learner {
    private Learner() {}

    /** What happened to one plan item in the apply. */
    public record Outcome(String decision, boolean ran, boolean renamed, String skipReason) {
        /** Skipped for a reason that says nothing about the user's wishes. */
        boolean uninformative() {
            return skipReason != null && (skipReason.equals("changed since audit") || skipReason.equals("no longer exists")
                    || skipReason.equals("became the current session"));
        }
    }

    public static List<String> record(PreferenceData d, Plan plan, Map<String, Outcome> outcomes, String date) {
        d.run_count++;
        int run = d.run_count;
        Map<String, String> before = new HashMap<>();
        for (var e : d.rule_level.entrySet()) before.put(e.getKey(), levelName(e.getValue()));
        Map<String, String> runDecision = new LinkedHashMap<>();
        int approvals = 0, vetoes = 0, executed = 0;
        boolean dProposed = false, dAnswered = false;
        double nBefore = d.active_threshold;
        List<String> consolidated = new ArrayList<>();
        int kept = 0, deleted = 0;
        for (Plan.PlanItem it : plan.items()) {
            Outcome o = outcomes.get(it.item_id());
            if (o == null || o.uninformative() || it.cascade_of() != null || it.rule().equals("F") || it.rule().equals("S")) continue;
            if (o.ran()) executed++;
            String cond = it.condition() == null ? it.rule() : it.condition();
            PreferenceData.RuleState r = d.rule_level.computeIfAbsent(cond, k -> new PreferenceData.RuleState());
            if (r.base_level == null) r.base_level = baseLevel(it);
            if (it.rule().equals("D") && it.executable() && !it.confidence().equals("HIGH")) {
                dProposed = true;
                if (o.decision() != null) dAnswered = true;
            }
            if (o.renamed()) {
                d.session_level.rename.put(it.session_id(), new PreferenceData.SessionEntry(it.session_id(), null, it.rule(), date));
                continue;
            }
            if (r.locked) continue; // no learning until the user trusts it again
            if ("approve".equals(o.decision())) {
                if (it.rule().equals("E") && it.topic() != null) {
                    if (d.topic_level.consolidated.stream().noneMatch(t -> t.topic.equalsIgnoreCase(it.topic()))) {
                        d.topic_level.consolidated.add(new PreferenceData.ConsolidatedTopic(it.topic(), date));
                        consolidated.add(it.topic());
                    }
                }
                if (!it.executable() && !it.rule().equals("E")) continue;
                r.approvals++;
                approvals++;
                if (it.action().equals("name_or_delete")) r.extra_deletions++;
                runDecision.merge(cond, "approve", (a, b) -> a.equals("veto") ? a : b);
                if (!it.action().equals("mark_ended") && !it.action().equals("review")) {
                    d.session_level.retain.removeIf(e -> e.id.equals(it.session_id()));
                    if (d.session_level.delete.stream().noneMatch(e -> e.id.equals(it.session_id()))) {
                        d.session_level.delete.add(new PreferenceData.SessionEntry(it.session_id(), it.fingerprint().title(), it.rule(), date));
                    }
                    deleted++;
                }
            } else if ("reject".equals(o.decision())) {
                if (it.rule().equals("E") || it.action().equals("review")) continue; // "not consolidated yet" is no veto
                r.vetoes++;
                vetoes++;
                runDecision.put(cond, "veto");
                d.session_level.delete.removeIf(e -> e.id.equals(it.session_id()));
                if (d.session_level.retain.stream().noneMatch(e -> e.id.equals(it.session_id()))) {
                    d.session_level.retain.add(new PreferenceData.SessionEntry(it.session_id(), it.fingerprint().title(), it.rule(), date));
                }
                kept++;
                if (it.rule().equals("D")) d.active_threshold = LearnedPreferences.clampN(d.active_threshold + 0.5);
            } else if (o.ran() && it.confidence().equals("HIGH")) {
                r.auto_runs++;
            }
        }
        if (dProposed && !dAnswered) d.active_threshold = LearnedPreferences.clampN(d.active_threshold + 1);
        List<String> events = new ArrayList<>();
        for (var e : runDecision.entrySet()) {
            PreferenceData.RuleState r = d.rule_level.get(e.getKey());
            r.runs_with_decisions++;
            if (r.last_decision != null && !r.last_decision.equals(e.getValue())) {
                r.contradictions++;
                PreferenceData.Contradiction c = new PreferenceData.Contradiction();
                c.condition = e.getKey();
                c.run = run;
                c.date = date;
                c.detail = r.last_decision + " before, " + e.getValue() + " now";
                d.feedback_contradictions.add(c);
                if (r.contradictions >= 2) r.locked = true;
            }
            r.last_decision = e.getValue();
            r.last_run = run;
        }
        for (var e : d.rule_level.entrySet()) {
            String was = before.get(e.getKey());
            String now = levelName(e.getValue());
            if (was == null || was.equals(now)) continue;
            PreferenceData.RuleState r = e.getValue();
            if (r.locked) events.add(e.getKey() + " locked at LOW (your choices disagreed twice)");
            else if (Confidence.valueOf(now).compareTo(Confidence.valueOf(was)) > 0) events.add(e.getKey() + " promoted to " + now + " (you approved " + r.approvals + " similar ones)");
            else events.add(e.getKey() + " lowered to " + now + (r.vetoes >= 2 ? " (you kept similar ones before)" : " (you rejected one like this)"));
        }
        List<String> summary = new ArrayList<>();
        summary.add("📝 " + (events.isEmpty() ? "no rule changed level this run" : String.join("; ", events)) + ".");
        StringJoiner prefs = new StringJoiner(", ");
        if (kept > 0) prefs.add("kept " + kept);
        if (deleted > 0) prefs.add("deleted on request " + deleted);
        if (!consolidated.isEmpty()) prefs.add("consolidated: " + String.join(", ", consolidated));
        if (d.active_threshold != nBefore) prefs.add("N " + fmt(nBefore) + "→" + fmt(d.active_threshold));
        summary.add("  preferences recorded: " + (prefs.length() == 0 ? "none" : prefs.toString()) + ".");
        summary.add("  current rule state: " + ruleState(d));
        PreferenceData.Run r = new PreferenceData.Run();
        r.run = run;
        r.date = date;
        r.plan_id = plan.plan_id();
        r.executed = executed;
        r.approvals = approvals;
        r.vetoes = vetoes;
        r.summary = summary;
        d.runs.add(r);
        while (d.runs.size() > PreferenceData.MAX_RUNS) d.runs.remove(0);
        return summary;
    }

    static String baseLevel(Plan.PlanItem it) {
        // the level the rule itself gives, before learning: rules A and B.short are HIGH, B.long, C.untitled, D.archived, E MEDIUM, the rest LOW
        return switch (it.condition() == null ? it.rule() : it.condition()) {
            case "A.shell", "A.untitled_long", "B.short" -> "HIGH";
            case "B.long", "C.untitled", "D.archived", "E.topic" -> "MEDIUM";
            case "F", "F.F" -> "HIGH";
            default -> "LOW";
        };
    }

    static String levelName(PreferenceData.RuleState r) {
        return r.base_level == null ? "LOW" : LearnedPreferences.level(r).name();
    }

    /** "A.shell=HIGH(7/0) B.long=MEDIUM(1/1) … N=3": level (approvals/vetoes) per condition. */
    public static String ruleState(PreferenceData d) {
        StringJoiner j = new StringJoiner(" ");
        for (var e : d.rule_level.entrySet()) {
            PreferenceData.RuleState r = e.getValue();
            if (r.base_level == null) continue;
            j.add(e.getKey() + "=" + levelName(r) + (r.locked ? "🔒" : "") + "(" + (r.approvals + r.auto_runs) + "/" + r.vetoes + ")");
        }
        j.add("N=" + fmt(d.active_threshold));
        return j.toString();
    }

    static String fmt(double n) {
        return n == Math.floor(n) ? String.valueOf((int) n) : String.valueOf(n);
    }
}
