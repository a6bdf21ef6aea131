package steward.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;

import steward.server.Schemas;
import steward.server.Tools;
import steward.server.tools.StewardTool;

/**
 * What the tool surface costs an agent on every turn (the budget is tracked, not asserted yet): this test prints
 * {@code steward tools --stats} and checks that its figures are the sums they claim to be.
 */
class ToolStatsTest {
    @Test
    void printsTheSurfaceAndItsFiguresAddUp() {
        ToolsCommand.Stats s = ToolsCommand.Stats.of(Tools.registry());
        System.out.println("steward tools --stats: " + s.line());
        int d = 0;
        for (StewardTool<?> t : Tools.registry().tools()) d += t.description().length();
        assertEquals(Tools.registry().tools().size(), s.tools());
        assertEquals(d, s.descriptionChars());
        assertTrue(s.inputSchemaChars() >= Tools.registry().tools().size() * "{\"type\":\"object\"}".length());
        assertTrue(s.toolsListChars() > s.descriptionChars() + s.inputSchemaChars(), "tools/list carries descriptions, input and output schemas");
        assertTrue(s.line().contains(String.format(Locale.ROOT, "= %,d characters", s.descriptionChars() + s.inputSchemaChars())));
        assertTrue(Schemas.input("steward_status").isObject());
    }
}
