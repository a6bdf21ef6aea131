package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import steward.learning.PreferenceData;
import steward.learning.Preferences;

/** How a report asks: waiting questions grouped, at most 10 lines, most valuable first, tidy-only questions per rule, D collapsed. */
class QuestionPlanTest {
    static final LocalDate TODAY = LocalDate.of(2026, 8, 10);

    static Plan.PlanItem item(String id, String condition, String action, String confidence) {
        String rule = condition.substring(0, 1);
        return Plan.PlanItem.of(
                id,
                id,
                rule,
                condition,
                action,
                confidence,
                true,
                "r",
                null,
                rule.equals("E") ? "topic " + id.charAt(0) : null,
                new Plan.Fingerprint(null, 1, 1, null, false),
                confidence,
                false,
                null);
    }

    /** {@code spec}: one item per "id condition action confidence" line. */
    static Map<String, Plan.PlanItem> items(String spec) {
        Map<String, Plan.PlanItem> m = new LinkedHashMap<>();
        for (String line : spec.strip().split("\n")) {
            String[] f = line.strip().split("\\s+");
            m.put(f[0], item(f[0], f[1], f[2], f[3]));
        }
        return m;
    }

    static Map<String, Plan.PlanItem> assign(Map<String, Plan.PlanItem> items, PreferenceData d) {
        QuestionPlan.assign(items, new Preferences(d, null), false, TODAY, 20);
        return items;
    }

    static long count(Map<String, Plan.PlanItem> items, String question) {
        return items.values().stream()
                .filter(i -> question.equals(i.question()))
                .count();
    }

    @Test
    void atMostTenLinesOneConditionAfterAnotherAndTheRestNotAsked() {
        StringBuilder spec = new StringBuilder();
        for (int i = 0; i < 8; i++) spec.append("b").append(i).append(" B/long delete MEDIUM\n");
        for (int i = 0; i < 8; i++) spec.append("c").append(i).append(" C/untitled name_or_delete MEDIUM\n");
        spec.append("s0 A/shell delete HIGH\n");
        Map<String, Plan.PlanItem> items = assign(items(spec.toString()), new PreferenceData());
        assertEquals(10, count(items, "new"));
        assertEquals(6, count(items, "not_asked"));
        assertEquals(
                5,
                items.values().stream()
                        .filter(i -> "new".equals(i.question()) && i.rule().equals("C"))
                        .count(),
                "conditions take turns");
        assertEquals(null, items.get("s0").question(), "automatic items are not questions");
        assertEquals(10, QuestionPlan.lines(items.values()));
    }

    @Test
    void aConditionWithMoreDeletionsThanAGroupListsIsAskedInOneCountedLineButKeptSessionsStayByName() {
        PreferenceData d = new PreferenceData();
        d.session_level.rejected.add(new PreferenceData.SessionMark("b3", null, "2026-08-01", "B"));
        StringBuilder spec = new StringBuilder();
        for (int i = 0; i < 25; i++) spec.append("b").append(i).append(" B/long delete MEDIUM\n");
        for (int i = 0; i < 5; i++) spec.append("c").append(i).append(" C/untitled name_or_delete MEDIUM\n");
        Map<String, Plan.PlanItem> items = assign(items(spec.toString()), d);
        assertEquals(24, count(items, "grouped"), "25 > 20 listed per group: one line for all but the kept one");
        assertEquals("new", items.get("b3").question(), "a session the user kept is still asked by name");
        assertEquals(
                5,
                items.values().stream()
                        .filter(i -> i.rule().equals("C") && "new".equals(i.question()))
                        .count(),
                "5 ≤ 20: by name");
        assertEquals(0, count(items, "not_asked"));
        assertEquals(7, QuestionPlan.lines(items.values()), "b3, the B/long line, five C questions");
    }

    @Test
    void unansweredQuestionsWaitInOneLineAndLaterHidesThem() {
        PreferenceData d = new PreferenceData();
        for (String id : List.of("b0", "b1")) {
            PreferenceData.Waiting w = new PreferenceData.Waiting();
            w.session_id = id;
            w.key = "B/long";
            w.since = "2026-08-08";
            w.runs = 1;
            d.waiting.add(w);
        }
        d.waiting.get(1).later_until = "2026-08-15";
        Map<String, Plan.PlanItem> items = assign(items("""
                b0 B/long delete MEDIUM
                b1 B/long delete MEDIUM
                b2 B/long delete MEDIUM
                """), d);
        assertEquals("waiting", items.get("b0").question());
        assertEquals("later", items.get("b1").question());
        assertEquals("new", items.get("b2").question());
        assertEquals(2, QuestionPlan.lines(items.values()), "one new question and the waiting line");
    }

    @Test
    void tidyOnlyQuestionsAndTopicsAreAskedOncePerRule() {
        Map<String, Plan.PlanItem> items = assign(items("""
                d0 D/stale mark_ended LOW
                d1 D/stale mark_ended LOW
                d2 D/archived mark_ended MEDIUM
                e0 E review MEDIUM
                e1 E review MEDIUM
                x0 E review MEDIUM
                """), new PreferenceData());
        assertEquals(5, count(items, "grouped"), "all three of rule D, and one session per topic of rule E");
        assertEquals(null, items.get("e1").question(), "topic 'e' is asked once");
        assertEquals("grouped", items.get("x0").question(), "another topic is asked too");
        assertEquals(2, QuestionPlan.lines(items.values()), "one line for D, one for E");
    }

    @Test
    void ruleDCollapsesOnceItsWarningWasIgnoredUpToNsCap() {
        PreferenceData d = new PreferenceData();
        d.active_threshold = PreferenceData.MAX_THRESHOLD;
        d.warning_ignored_runs = 1;
        Map<String, Plan.PlanItem> items = assign(items("""
                d0 D/stale mark_ended LOW
                d1 D/archived mark_ended MEDIUM
                b0 B/long delete MEDIUM
                """), d);
        assertEquals("collapsed", items.get("d0").question());
        assertEquals("collapsed", items.get("d1").question());
        assertEquals(2, QuestionPlan.lines(items.values()));
        d.warning_ignored_runs = 0;
        assertEquals(
                "grouped",
                assign(items("d0 D/stale mark_ended LOW"), d).get("d0").question(),
                "answered again: no collapse");
    }

    @Test
    void keptSessionsComeFirstAndQuietConditionsAreNotAsked() {
        PreferenceData d = new PreferenceData();
        d.session_level.rejected.add(new PreferenceData.SessionMark("b9", null, "2026-08-01", "B"));
        PreferenceData.RuleState quiet = new PreferenceData.RuleState();
        quiet.quiet = true;
        d.rule_level.put("C/untitled", quiet);
        StringBuilder spec = new StringBuilder();
        for (int i = 0; i < 12; i++) spec.append("a").append(i).append(" A/shell delete MEDIUM\n");
        spec.append("c0 C/untitled name_or_delete MEDIUM\nb9 B/long delete MEDIUM\n");
        Map<String, Plan.PlanItem> items = assign(items(spec.toString()), d);
        assertEquals("new", items.get("b9").question(), "a session the user kept is asked by name, first");
        assertEquals(null, items.get("c0").question(), "a quiet condition is listed, not asked");
        assertTrue(items.values().stream()
                        .filter(i -> "not_asked".equals(i.question()))
                        .count()
                == 3);
    }

    @Test
    void settledTopicsAreListedNotAskedAndNothingElseChanges() {
        String spec = """
                e1 E review MEDIUM
                f1 E review MEDIUM
                b0 B/long delete MEDIUM
                """;
        Map<String, Plan.PlanItem> asked = assign(items(spec), new PreferenceData());
        assertEquals(2, count(asked, "grouped"), "two topics, one line for rule E");
        assertEquals(2, QuestionPlan.lines(asked.values()));
        PreferenceData d = new PreferenceData();
        PreferenceData.RuleState e = new PreferenceData.RuleState();
        e.rule = "E";
        e.approvals = 3;
        e.runs = 2;
        e.quiet = true;
        d.rule_level.put("E", e);
        Map<String, Plan.PlanItem> quiet = assign(items(spec), d);
        assertEquals(null, quiet.get("e1").question());
        assertEquals(null, quiet.get("f1").question());
        assertEquals("new", quiet.get("b0").question(), "other rules are asked as before");
        assertEquals(1, QuestionPlan.lines(quiet.values()));
    }
}
