package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.config.HousekeepingSettings;
import steward.learning.Level;
import steward.learning.PreferenceData;
import steward.learning.Preferences;
import steward.sessions.store.SessionRow;

class CronRetentionRuleTest {
    static final String ROWS = """
            # id        | source | title          | parent | msgs | state  | arch | idle | end_reason
            old_run     | cron   | Nightly backup | -      | 30   | ended  | 0    | 20   | completed
            recent_run  | cron   | Nightly backup | -      | 30   | ended  | 0    | 10   | completed
            running     | cron   | Hourly check   | -      | 3    | active | 0    | 0.01 | -
            old_chat    | cli    | Trip planning  | -      | 30   | ended  | 0    | 40   | cli_close
            untitled    | cron   | -              | -      | 30   | ended  | 0    | 40   | completed
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final CronRetentionRule rule = new CronRetentionRule();

    @Test
    void endedCronRunsOlderThanTheRetentionAreDeletedAtMedium() {
        RuleContext ctx = RuleFixtures.context(rows, null);
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "old_run"), ctx).orElseThrow();
        assertEquals(Action.delete, v.action());
        assertEquals(Confidence.MEDIUM, v.confidence());
        assertEquals("T/cron", v.condition());
        assertTrue(v.reason().en().contains("retention 14 days"), v.reason().en());
        assertEquals(
                "T", RuleEngine.evaluate(RuleFixtures.row(rows, "old_run"), ctx).rule());
    }

    @Test
    void youngRunningNonCronAndUntitledRunsAreNotTs() {
        RuleContext ctx = RuleFixtures.context(rows, null);
        for (String id : List.of("recent_run", "running", "old_chat"))
            assertTrue(rule.evaluate(RuleFixtures.row(rows, id), ctx).isEmpty(), id);
        assertEquals(
                "B",
                RuleEngine.evaluate(RuleFixtures.row(rows, "untitled"), ctx).rule(),
                "an untitled ended run goes by rule B first");
    }

    @Test
    void retentionZeroTurnsItOff() {
        var hk = new HousekeepingSettings(HousekeepingSettings.DEFAULT_IDLE_HOURS, 0, false, 90, 24, List.of());
        RuleContext ctx =
                RuleContext.of(RuleFixtures.NOW, null, rows, Preferences.empty(), 3, hk, null, java.util.Set.of());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "old_run"), ctx).isEmpty());
    }

    @Test
    void theLearningLoopPromotesItLikeAnyCondition() {
        PreferenceData d = new PreferenceData();
        d.rule_level.put("T/cron", PreferenceRuleTest.state("T", "cron", Level.MEDIUM, Level.HIGH, 2, 0, false));
        RuleContext ctx = RuleContext.of(RuleFixtures.NOW, null, rows, new Preferences(d, null));
        Verdict v = RuleEngine.evaluate(RuleFixtures.row(rows, "old_run"), ctx);
        assertEquals("T/cron", v.condition());
        assertEquals(Confidence.HIGH, v.confidence(), "approved twice: runs without being asked");
        assertEquals(Confidence.MEDIUM, v.base());
    }
}
