package steward.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.learning.LearningEngine;
import steward.memory.lifecycle.rules.LifecycleRules;
import steward.memory.precheck.Checks;
import steward.recall.gate.Gates;
import steward.sessions.rules.Rules;

/** README's rule tables: one row per registry entry, in registry order, cells that cannot break the table. */
class RuleTablesTest {
    static List<String> rows(String table) {
        return table.lines().filter(l -> l.startsWith("| ")).skip(1).toList(); // the header is the first row
    }

    @Test
    void oneRowPerEntryInRegistryOrder() {
        List<String> session = rows(RuleTables.sessionRules());
        assertEquals(Rules.ORDERED.size(), session.size());
        for (int i = 0; i < session.size(); i++) {
            assertTrue(session.get(i).startsWith("| **" + Rules.ORDERED.get(i).id() + "** | "), session.get(i));
        }
        assertEquals(
                LearningEngine.RULES.size(), rows(RuleTables.learningRules()).size());
        assertEquals(Gates.ALL.size(), rows(RuleTables.recallGates()).size());
        assertEquals(Checks.ORDERED.size(), rows(RuleTables.precheckChecks()).size());
        assertEquals(
                LifecycleRules.all().size(), rows(RuleTables.lifecycleRules()).size());
        assertTrue(rows(RuleTables.learningRules())
                .get(0)
                .startsWith("| `" + LearningEngine.RULES.get(0).id() + "` |"));
    }

    @Test
    void precheckTableEndsWithThePrecedence() {
        String t = RuleTables.precheckChecks();
        assertTrue(t.endsWith("`needs_compression` > `write`"), t.substring(Math.max(0, t.length() - 200)));
        assertTrue(t.contains("`reject_threat` > `already_covered` > `reject_history`"), t);
    }

    @Test
    void cellsEscapePipesAndFoldLines() {
        assertEquals("a \\| b c", RuleTables.cell("a | b\n  c"));
        assertEquals("—", RuleTables.cell(""));
        assertEquals(
                "| a | b |\n|---|---|\n| x \\| y | — |",
                RuleTables.table(List.of("a", "b"), List.of(List.of("x | y", ""))));
    }

    @Test
    void markdownHoldsEveryFamilyBetweenItsMarkers() {
        String md = RuleTables.markdown();
        for (String family : List.of("session", "learning", "gates", "precheck", "lifecycle")) {
            int b = md.indexOf(RuleTables.begin(family)), e = md.indexOf(RuleTables.end(family));
            assertTrue(b >= 0 && e > b, family);
            assertEquals(
                    RuleTables.all().get(family),
                    md.substring(b + RuleTables.begin(family).length(), e).strip());
        }
    }
}
