package steward.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import steward.json.Json;
import steward.server.Schemas;
import steward.server.Tools;
import steward.server.tools.StewardTool;

/**
 * What the tool surface costs an agent on every turn: this test prints {@code steward tools --stats}, checks that its
 * figures are the sums they claim to be, and holds the budget (issue 15: all descriptions plus input schemas ≤ 12,000
 * characters, one description ≤ 450).
 */
class ToolStatsTest {
    @Test
    void printsTheSurfaceAndItsFiguresAddUp() {
        ToolsCommand.Stats s = ToolsCommand.Stats.of(Tools.registry());
        System.out.println("steward tools --stats: " + s.line());
        int d = 0, in = 0;
        for (StewardTool<?> t : Tools.registry().tools()) {
            d += t.description().length();
            in += Json.MAPPER.writeValueAsString(Schemas.input(t.name())).length();
        }
        assertEquals(Tools.registry().tools().size(), s.tools());
        assertEquals(d, s.descriptionChars());
        assertEquals(in, s.inputSchemaChars());
        assertEquals(d + in, s.total());
        assertTrue(s.inputSchemaChars() >= Tools.registry().tools().size() * "{\"type\":\"object\"}".length());
        assertTrue(s.toolsListChars() > s.total(), "tools/list carries descriptions, input and output schemas");
        assertTrue(
                s.line()
                        .contains(String.format(
                                Locale.ROOT, "= %,d characters (budget %,d)", s.total(), ToolsCommand.Stats.BUDGET)),
                s.line());
        assertTrue(Schemas.input("steward_status").isObject());
    }

    @Test
    void descriptionsAndInputSchemasFitTheContextBudget() {
        ToolsCommand.Stats s = ToolsCommand.Stats.of(Tools.registry());
        assertTrue(
                s.total() <= ToolsCommand.Stats.BUDGET,
                "descriptions + input schemas of all tools cost " + s.total()
                        + " characters, over the budget of " + ToolsCommand.Stats.BUDGET + ": " + s.line()
                        + " — shorten tool descriptions and schema texts");
    }

    @Test
    void everyDescriptionIsShort() {
        for (StewardTool<?> t : Tools.registry().tools()) {
            int n = t.description().length();
            assertTrue(
                    n <= ToolsCommand.Stats.MAX_DESCRIPTION,
                    t.name() + ": description is " + n + " characters, over " + ToolsCommand.Stats.MAX_DESCRIPTION);
        }
    }
}
