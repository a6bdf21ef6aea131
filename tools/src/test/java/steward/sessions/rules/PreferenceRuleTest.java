package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import steward.sessions.store.SessionRow;

class PreferenceRuleTest {
    static final String ROWS = """
            # id   | source   | title      | parent | msgs | state  | arch | idle | end_reason
            kept   | cli      | -          | -      | 3    | ended  | 0    | 5    | cli_close
            gone   | cli      | -          | -      | 30   | ended  | 0    | 5    | cli_close
            plain  | cli      | -          | -      | 3    | ended  | 0    | 5    | cli_close
            long   | cli      | -          | -      | 30   | ended  | 0    | 5    | cli_close
            named  | tui      | My project | -      | 30   | active | 0    | 9    | -
            other  | tui      | Taxes      | -      | 3    | active | 0    | 1    | -
            third  | cli      | Travel     | -      | 3    | active | 0    | 1    | -
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final PreferenceRule rule = new PreferenceRule();

    /** B.short vetoed, B.long promoted, D.stale promoted to HIGH (the safety cap must still hold). */
    static Preferences prefs(boolean locked) {
        return new Preferences() {
            @Override
            public SessionChoice sessionChoice(String id) {
                return switch (id) {
                    case "kept" -> SessionChoice.RETAINED;
                    case "gone" -> SessionChoice.DELETED;
                    default -> SessionChoice.NONE;
                };
            }

            @Override
            public Learned learned(String condition) {
                if (locked) return new Learned(Confidence.LOW, true, new Text("locked", "锁定"));
                return switch (condition) {
                    case "B.short" -> new Learned(Confidence.MEDIUM, false, new Text("you kept similar ones before", "你之前保留过同类"));
                    case "B.long", "D.stale" -> new Learned(Confidence.HIGH, false, new Text("you approved 2 similar ones", "已批准 2 条"));
                    default -> null;
                };
            }

            @Override
            public OptionalInt activeThreshold() {
                return OptionalInt.of(2);
            }

            @Override
            public boolean consolidated(String topic) {
                return false;
            }
        };
    }

    @Test
    void emptyStoreNeverMatches() {
        RuleContext ctx = RuleFixtures.context(rows, null);
        for (SessionRow s : rows) assertTrue(rule.evaluate(s, ctx).isEmpty());
    }

    @Test
    void retainedBeforeIsRetainedAndDeletedBeforeIsHigh() {
        RuleContext ctx = RuleContext.of(RuleFixtures.NOW, null, rows, prefs(false));
        assertEquals(Action.retain, rule.evaluate(RuleFixtures.row(rows, "kept"), ctx).orElseThrow().action());
        Verdict d = rule.evaluate(RuleFixtures.row(rows, "gone"), ctx).orElseThrow();
        assertEquals(Action.delete, d.action());
        assertEquals(Confidence.HIGH, d.confidence());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "plain"), ctx).isEmpty());
    }

    @Test
    void learnedLevelsApplyButNeverOverTheSafetyCap() {
        RuleContext ctx = RuleContext.of(RuleFixtures.NOW, null, rows, prefs(false));
        Verdict lowered = RuleEngine.evaluate(RuleFixtures.row(rows, "plain"), ctx);
        assertEquals(Confidence.MEDIUM, lowered.confidence());
        assertTrue(lowered.reason().en().contains("you kept similar ones before"));
        assertEquals(Confidence.HIGH, RuleEngine.evaluate(RuleFixtures.row(rows, "long"), ctx).confidence());
        Verdict named = RuleEngine.evaluate(RuleFixtures.row(rows, "named"), ctx);
        assertEquals("D", named.rule());
        assertEquals(Confidence.MEDIUM, named.confidence(), "a titled active session stays at most MEDIUM whatever was learned");
    }

    @Test
    void lockedConditionDropsToLow() {
        RuleContext ctx = RuleContext.of(RuleFixtures.NOW, null, rows, prefs(true));
        assertEquals(Confidence.LOW, RuleEngine.evaluate(RuleFixtures.row(rows, "plain"), ctx).confidence());
    }
}
