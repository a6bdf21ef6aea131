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
import steward.testing.TestHomes;
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
        Path samples = TestHomes.repo().resolve("server/src/test/resources/samples");
        for (StewardTool<?> t : Tools.registry().tools()) {
            Path f = samples.resolve(t.name() + ".json");
            assertTrue(Files.exists(f), "no sample arguments for " + t.name() + " in " + f);
            Path home = TestHomes.copyFixture(Files.createTempDirectory(tmp, t.name()));
            JsonNode calls = Json.MAPPER.readTree(Files.readString(f));
            assertTrue(calls.isArray() && !calls.isEmpty(), f + " must be a non-empty array");
            for (JsonNode sample : calls) {
                JsonNode args = resolve(sample, home);
                ToolResult r = Tools.registry().invoke(t.name(), args, TestSupport.context(home));
                assertFalse(r.isError(), t.name() + " " + args + " → " + r.text());
                assertNotNull(r.text());
                List<String> problems =
                        Schemas.validate(t.name() + ".output.json", ToolRegistry.toJson(r.structured()));
                assertTrue(problems.isEmpty(), t.name() + " " + args + ": " + problems);
            }
        }
    }

    /**
     * Sample arguments may name ids that only exist after another call on the same copy: {@code "$plan_id"}
     * (from a fresh session_audit) and {@code "$backup_id"} (from session_audit then session_apply).
     */
    static JsonNode resolve(JsonNode sample, Path home) {
        String text = sample.toString();
        if (!text.contains("\"$plan_id\"") && !text.contains("\"$backup_id\"")) return sample;
        ToolResult audit = Tools.registry()
                .invoke(
                        "session_audit",
                        Json.MAPPER.readTree("{\"now\":\"2026-08-10T12:00:00Z\"}"),
                        TestSupport.context(home));
        String plan = ToolRegistry.toJson(audit.structured()).get("plan_id").asString();
        if (text.contains("\"$backup_id\"")) {
            ToolResult applied = Tools.registry()
                    .invoke(
                            "session_apply",
                            Json.MAPPER.readTree("{\"plan_id\":\"" + plan + "\"}"),
                            TestSupport.context(home));
            String backup = ToolRegistry.toJson(applied.structured())
                    .get("backup")
                    .get("backup_id")
                    .asString();
            text = text.replace("\"$backup_id\"", "\"" + backup + "\"");
        }
        return Json.MAPPER.readTree(text.replace("\"$plan_id\"", "\"" + plan + "\""));
    }
}
