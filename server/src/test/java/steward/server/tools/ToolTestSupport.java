package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.Schemas;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** A copy of fixtures/hermes-home and a registry to call tools on it, pinned to 2026-08-10T12:00:00Z. */
final class ToolTestSupport {
    static final Instant NOW = Instant.parse("2026-08-10T12:00:00Z");
    final Path home;
    final ToolRegistry registry = Tools.registry();
    final ToolContext ctx;

    ToolTestSupport(Path tmp) throws Exception {
        this(tmp, false);
    }

    /** {@code claude}: with a copy of fixtures/claude-home too (both homes). */
    ToolTestSupport(Path tmp, boolean claude) throws Exception {
        home = TestHomes.copyFixture(tmp);
        StewardPaths paths =
                claude ? StewardPaths.of(home, ClaudeTestHomes.install(tmp, false)) : StewardPaths.of(home);
        ctx = new ToolContext(paths, Clock.fixed(NOW, ZoneOffset.UTC), Work.NONE);
    }

    ToolResult call(String tool, String json) {
        return registry.invoke(tool, Json.MAPPER.readTree(json), ctx);
    }

    /** Calls a tool that must succeed and checks its structured result against the output schema. */
    JsonNode ok(String tool, String json) {
        ToolResult r = call(tool, json);
        assertFalse(r.isError(), r.text());
        JsonNode n = ToolRegistry.toJson(r.structured());
        List<String> problems = Schemas.validate(tool + ".output.json", n);
        assertEquals(List.of(), problems, tool + " result must validate against its output schema");
        return n;
    }
}
