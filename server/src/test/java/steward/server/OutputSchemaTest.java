package steward.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.json.Json;
import steward.server.tools.StewardTool;
import steward.server.tools.ToolResult;
import tools.jackson.databind.JsonNode;

/**
 * A real result of every registered tool validates against its output schema. Sample arguments live in
 * {@code server/src/test/resources/samples/<tool>.json} (a JSON array of argument objects, run in order
 * on one fresh copy of the fixture home); a tool without samples fails this test.
 */
class OutputSchemaTest {
    @TempDir
    Path tmp;

    @Test
    void everyToolsSampleResultsValidate() throws Exception {
        Path samples = TestSupport.repo().resolve("server/src/test/resources/samples");
        for (StewardTool t : Tools.registry().tools()) {
            Path f = samples.resolve(t.name() + ".json");
            assertTrue(Files.exists(f), "no sample arguments for " + t.name() + " in " + f);
            Path home = TestSupport.copyFixture(Files.createTempDirectory(tmp, t.name()));
            JsonNode calls = Json.MAPPER.readTree(Files.readString(f));
            assertTrue(calls.isArray() && !calls.isEmpty(), f + " must be a non-empty array");
            for (JsonNode args : calls) {
                ToolResult r = Tools.registry().invoke(t.name(), args, TestSupport.context(home));
                assertFalse(r.isError(), t.name() + " " + args + " → " + r.text());
                assertNotNull(r.text());
                List<String> problems = Schemas.validate(t.name() + ".output.json", ToolRegistry.toJson(r.structured()));
                assertTrue(problems.isEmpty(), t.name() + " " + args + ": " + problems);
            }
        }
    }
}
