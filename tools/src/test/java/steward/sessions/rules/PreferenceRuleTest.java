package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import steward.sessions.store.SessionRow;

class PreferenceRuleTest {
    static final String ROWS = """
            # id   | source   | title | parent | msgs | state | arch | idle | end_reason
            kept   | cli      | -     | -      | 3    | ended | 0    | 5    | cli_close
            gone   | cli      | -     | -      | 30   | ended | 0    | 5    | cli_close
            plain  | cli      | -     | -      | 3    | ended | 0    | 5    | cli_close
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final PreferenceRule rule = new PreferenceRule();

    static Preferences prefs(Preferences.RuleStanding bStanding) {
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
            public RuleStanding ruleStanding(String ruleId) {
                return ruleId.equals("B") ? bStanding : RuleStanding.TRUSTED;
            }

            @Override
            public OptionalInt activeThreshold() {
                return OptionalInt.empty();
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
        RuleContext ctx = RuleContext.of(RuleFixtures.NOW, null, rows, prefs(Preferences.RuleStanding.TRUSTED));
        assertEquals(Action.retain, rule.evaluate(RuleFixtures.row(rows, "kept"), ctx).orElseThrow().action());
        Verdict d = rule.evaluate(RuleFixtures.row(rows, "gone"), ctx).orElseThrow();
        assertEquals(Action.delete, d.action());
        assertEquals(Confidence.HIGH, d.confidence());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "plain"), ctx).isEmpty());
    }

    @Test
    void vetoedRuleIsLoweredAndContradictoryRuleDropsToLow() {
        RuleContext vetoed = RuleContext.of(RuleFixtures.NOW, null, rows, prefs(Preferences.RuleStanding.VETOED));
        assertEquals(Confidence.MEDIUM, RuleEngine.evaluate(RuleFixtures.row(rows, "plain"), vetoed).confidence());
        RuleContext contra = RuleContext.of(RuleFixtures.NOW, null, rows, prefs(Preferences.RuleStanding.CONTRADICTORY));
        assertEquals(Confidence.LOW, RuleEngine.evaluate(RuleFixtures.row(rows, "plain"), contra).confidence());
    }
}
