package steward.sessions.audit;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

/**
 * Decides how the report asks each question, so that questions do not pile up and silence is never approval:
 * <ul>
 * <li>a question asked before and left unanswered is not asked again word for word: it waits, and all waiting
 * questions share one line ("still waiting from earlier runs: 14 — answer or say 'later'"); after "later" they stay
 * out of sight for {@link PreferenceData#LATER_DAYS} days;</li>
 * <li>once rule D's warning has been ignored up to N's cap, its questions collapse into one line; once that line went
 * unanswered too, it becomes a status line that asks nothing (nothing is done; answering one of its sessions by id, or
 * setting N, asks again);</li>
 * <li>a condition the user always rejected goes quiet (QuietRule), and so does a deletion whose subagents taken along are
 * of kinds the user always answered "keep both" for: listed, not asked, nothing runs;</li>
 * <li>rule E asks once per topic (the topic is the question, not each session on it), and questions that cannot lose
 * anything (mark as ended, consolidated yet?) are asked per rule in one line; deletions are asked by name, unless a
 * condition has more new ones than a report group lists: then they are asked in one counted line per condition, which
 * counts the subagents they take along (never a session the user kept, nor a deletion that would take one along);</li>
 * <li>at most {@link #CAP} lines ask something per report (the grouped lines included): new questions are picked most
 * valuable first — sessions the user kept before (they must be asked by name), then MEDIUM before LOW, then one
 * question per rule condition in turn so each condition can be learned — and the rest are summed up in one digest
 * line and come back in a later run.</li>
 * </ul>
 * Nothing here ever runs anything: an unasked, waiting or collapsed question that gets no answer is not executed.
 */
final class QuestionPlan {
    private QuestionPlan() {}

    public static final int CAP = 10;

    /** Rules whose questions collapse into one line once their warning has been ignored up to N's cap. */
    static boolean collapses(String rule, Preferences prefs) {
        return "D".equals(rule)
                && prefs.activeThreshold() >= PreferenceData.MAX_THRESHOLD
                && prefs.warningIgnoredRuns() >= 1;
    }

    /**
     * A deletion the user answered "keep both" every time for the kinds of subagents it would take along: listed (at LOW,
     * by Cascade), not asked. A session the user kept by name is still asked about by name.
     */
    static boolean alongQuiet(Plan.PlanItem it, Preferences prefs) {
        return it.held_by() != null
                && !it.held_by().isEmpty()
                && prefs.alongQuiet(it.rule(), it.along())
                && !prefs.protectedSession(it.session_id());
    }

    /**
     * Questions that change nothing the user could lose — "mark as ended" (undone by restore) and rule E's "consolidated
     * yet?" — are asked per rule in one line, as the seed batches a rule's questions ("mark these 5 idle sessions as
     * ended?"); deletions are always asked by name.
     */
    static boolean groupedLine(Plan.PlanItem it) {
        return it.action().equals("mark_ended") || it.action().equals("review");
    }

    /** A question: something the user is asked to decide (not automatic, not report only, not going along with a parent). */
    static boolean candidate(Plan.PlanItem it, boolean headless) {
        if (headless || it.cascade_of() != null || it.action().equals("retain")) return false;
        if (it.action().equals("review")) return it.rule().equals("E");
        return it.executable() && !it.confidence().equals("HIGH");
    }

    /** Sets {@code question} on every item; {@code maxPerGroup} bounds the questions listed per report group. */
    static void assign(
            Map<String, Plan.PlanItem> items, Preferences prefs, boolean headless, LocalDate today, int maxPerGroup) {
        List<Plan.PlanItem> fresh = new ArrayList<>();
        boolean waiting = false;
        Set<String> collapsed = new HashSet<>(), topics = new HashSet<>();
        for (Plan.PlanItem it : new ArrayList<>(items.values())) {
            if (!candidate(it, headless)) continue;
            if (prefs.quiet(it.key()) && !prefs.protectedSession(it.session_id()))
                continue; // the user always kept these: listed, not asked
            if (alongQuiet(it, prefs)) continue; // and always kept both when a deletion would take such subagents along
            if (it.rule().equals("E") && it.topic() != null && !topics.add(it.topic()))
                continue; // the topic is asked once
            String q;
            PreferenceData.Waiting w = prefs.waiting(it.session_id(), it.key());
            if (collapses(it.rule(), prefs)) {
                // once the collapsed line went unanswered too, the warning is a status line that asks nothing
                q = prefs.warningIsStatus() ? "status" : "collapsed";
                if (q.equals("collapsed")) collapsed.add(it.rule());
            } else if (w != null && w.later_until != null && today.isBefore(LocalDate.parse(w.later_until))) {
                q = "later";
            } else if (w != null) {
                q = "waiting";
                waiting = true;
            } else {
                fresh.add(it);
                continue;
            }
            items.put(it.session_id(), it.withQuestion(q));
        }
        int room = CAP - (waiting ? 1 : 0) - collapsed.size();
        Map<String, Integer> perGroup = new LinkedHashMap<>();
        Map<String, Boolean> lines = new LinkedHashMap<>(); // grouped line per condition: asked or not
        // a condition with more new deletions than a report group lists is asked in one line (counted, with examples,
        // and the subagents they take along), so a home of thousands is answered in one screen; sessions the user kept,
        // and deletions that would take one along, stay by name
        Map<String, Integer> bulkCount = new HashMap<>();
        for (Plan.PlanItem it : fresh) if (bulkEligible(it, prefs)) bulkCount.merge(it.key(), 1, Integer::sum);
        Set<String> bulk = new HashSet<>();
        bulkCount.forEach((k, n) -> {
            if (n > maxPerGroup) bulk.add(k);
        });
        int asked = 0;
        for (Plan.PlanItem it : byValue(fresh, prefs)) {
            boolean ask;
            boolean inLine = groupedLine(it) && !prefs.protectedSession(it.session_id())
                    || bulk.contains(it.key()) && bulkEligible(it, prefs);
            if (inLine) {
                Boolean line = lines.get(lineKey(it));
                if (line == null) {
                    line = asked < room;
                    if (line) asked++;
                    lines.put(lineKey(it), line);
                }
                ask = line;
            } else {
                String group = it.confidence().equals("LOW") ? "info" : "confirm:" + it.rule();
                int inGroup = perGroup.getOrDefault(group, 0);
                ask = asked < room && inGroup < maxPerGroup;
                if (ask) {
                    asked++;
                    perGroup.put(group, inGroup + 1);
                }
            }
            items.put(it.session_id(), it.withQuestion(!ask ? "not_asked" : inLine ? "grouped" : "new"));
        }
    }

    /**
     * A new question that may be asked in its condition's one line when there are many: not about a session the user kept
     * before (nor one its deletion would take along). A deletion that takes other subagents along may: its line counts
     * them, they go only with it, and a child's own rejection still keeps it.
     */
    static boolean bulkEligible(Plan.PlanItem it, Preferences prefs) {
        return !groupedLine(it) && it.executable() && !byName(it, prefs);
    }

    /** Asked by name, in a line of its own: a session the user kept before, or a deletion that would take one along. */
    static boolean byName(Plan.PlanItem it, Preferences prefs) {
        return prefs.protectedSession(it.session_id())
                || it.held_by() != null && it.held_by().stream().anyMatch(prefs::protectedSession);
    }

    /** The grouped line an item is asked in: one per rule for "mark as ended" and topics, one per condition for bulk deletions. */
    static String lineKey(Plan.PlanItem it) {
        return groupedLine(it) ? it.rule() : "bulk:" + it.key();
    }

    /** The lines a report asks: each question listed by name, each grouped line, the waiting line, each collapsed rule. */
    static int lines(Collection<Plan.PlanItem> items) {
        int n = 0;
        boolean waiting = false;
        Set<String> grouped = new HashSet<>(), collapsed = new HashSet<>();
        for (Plan.PlanItem it : items) {
            if ("waiting".equals(it.question())) waiting = true;
            else if ("collapsed".equals(it.question())) collapsed.add(it.rule());
            else if ("grouped".equals(it.question())) grouped.add(lineKey(it));
            else if ("new".equals(it.question())) n++;
        }
        return n + grouped.size() + collapsed.size() + (waiting ? 1 : 0);
    }

    /**
     * Most valuable first: questions about sessions the user kept before (or naming such children), then MEDIUM before
     * LOW, and within each, one question per rule condition in turn (conditions in report order), each condition's
     * items in report order.
     */
    static List<Plan.PlanItem> byValue(List<Plan.PlanItem> fresh, Preferences prefs) {
        List<List<Plan.PlanItem>> tiers = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (Plan.PlanItem it : fresh) {
            boolean named = byName(it, prefs);
            tiers.get(named ? 0 : it.confidence().equals("LOW") ? 2 : 1).add(it);
        }
        List<Plan.PlanItem> out = new ArrayList<>();
        for (List<Plan.PlanItem> tier : tiers) {
            Map<String, List<Plan.PlanItem>> byKey = new LinkedHashMap<>();
            for (Plan.PlanItem it : tier)
                byKey.computeIfAbsent(it.key(), k -> new ArrayList<>()).add(it);
            for (int round = 0; ; round++) {
                boolean any = false;
                for (List<Plan.PlanItem> l : byKey.values()) {
                    if (round < l.size()) {
                        out.add(l.get(round));
                        any = true;
                    }
                }
                if (!any) break;
            }
        }
        return out;
    }
}
