package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import steward.cli.ToolsCommand;
import steward.docs.RuleTables;
import steward.testing.TestHomes;

/** README stays true: its tool and rule tables are the registries', and it names the commands CI and users run. */
class ReadmeTest {
    @Test
    void toolTableMatchesTheRegistry() throws Exception {
        String readme = Files.readString(TestHomes.repo().resolve("README.md"));
        int b = readme.indexOf("<!-- tools:begin -->");
        int e = readme.indexOf("<!-- tools:end -->");
        assertTrue(b >= 0 && e > b, "README lacks the tools markers");
        String table = readme.substring(b + "<!-- tools:begin -->".length(), e).strip();
        String fresh = ToolsCommand.markdownTable(Tools.registry());
        if (Boolean.getBoolean("snapshot.update") && !fresh.equals(table)) {
            // regenerated like the tool snapshots: mvn test -Dsnapshot.update=true (then review the diff)
            Files.writeString(
                    TestHomes.repo().resolve("README.md"),
                    readme.substring(0, b + "<!-- tools:begin -->".length()) + "\n" + fresh + "\n"
                            + readme.substring(e));
            return;
        }
        assertEquals(
                fresh,
                table,
                "README's tool table is stale: paste the output of `steward tools --markdown`, "
                        + "or run the tests with -Dsnapshot.update=true");
    }

    /** Each rule family's table is its registry's metadata ({@code steward tools --rules-markdown}). */
    @Test
    void ruleTablesMatchTheRegistries() throws Exception {
        Path file = TestHomes.repo().resolve("README.md");
        String readme = Files.readString(file);
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> t : RuleTables.all().entrySet()) {
            String begin = RuleTables.begin(t.getKey()), end = RuleTables.end(t.getKey());
            int b = readme.indexOf(begin);
            int e = readme.indexOf(end);
            assertTrue(b >= 0 && e > b, "README lacks the markers " + begin + " … " + end);
            String table = readme.substring(b + begin.length(), e).strip();
            if (table.equals(t.getValue())) continue;
            stale.add(t.getKey());
            readme = readme.substring(0, b + begin.length()) + "\n" + t.getValue() + "\n" + readme.substring(e);
        }
        if (Boolean.getBoolean("snapshot.update") && !stale.isEmpty()) {
            Files.writeString(file, readme); // mvn test -Dsnapshot.update=true (then review the diff)
            return;
        }
        assertEquals(
                List.of(),
                stale,
                "README's rule tables are stale: paste the output of `steward tools --rules-markdown`, "
                        + "or run the tests with -Dsnapshot.update=true");
    }

    @Test
    void ciRunsReadmesTestCommand() throws Exception {
        String readme = Files.readString(TestHomes.repo().resolve("README.md"));
        String ci = Files.readString(TestHomes.repo().resolve(".ci/run"));
        assertTrue(readme.contains("mvn -B verify"));
        assertTrue(ci.contains("mvn -B verify"));
        assertTrue(readme.contains("./steward demo"));
    }

    @Test
    void mcpJsonStartsTheServer() throws Exception {
        Path mcp = TestHomes.repo().resolve("mcp.json");
        assertTrue(Files.readString(mcp).contains("\"serve\""));
    }
}
