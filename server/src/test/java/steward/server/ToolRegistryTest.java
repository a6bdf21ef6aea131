package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import steward.server.tools.StewardTool;
import tools.jackson.databind.JsonNode;

class ToolRegistryTest {
    private static final List<String> GROUPS = List.of("session_", "memory_", "recall_", "steward_");

    @Test
    void namesAreUniqueWellFormedAndGrouped() {
        Set<String> seen = new HashSet<>();
        for (StewardTool<?> t : Tools.registry().tools()) {
            assertTrue(seen.add(t.name()), "duplicate " + t.name());
            assertTrue(t.name().matches("^[a-z][a-z0-9_]*$"), t.name());
            assertTrue(GROUPS.stream().anyMatch(t.name()::startsWith), t.name() + " lacks a group prefix");
        }
        assertFalse(seen.isEmpty());
    }

    @Test
    void everyAnnotationIsSetAndDescriptionsAreWrittenForTheModel() {
        for (StewardTool<?> t : Tools.registry().tools()) {
            McpSchema.Tool d = McpServerFactory.describe(t);
            McpSchema.ToolAnnotations a = d.annotations();
            assertNotNull(a, t.name());
            assertNotNull(a.readOnlyHint(), t.name());
            assertNotNull(a.destructiveHint(), t.name());
            assertNotNull(a.idempotentHint(), t.name());
            assertNotNull(a.openWorldHint(), t.name());
            if (a.readOnlyHint()) assertFalse(a.destructiveHint(), t.name() + ": read-only cannot be destructive");
            assertNotNull(t.title(), t.name());
            assertTrue(t.description().length() >= 80, t.name() + ": description too thin for a model");
        }
    }

    @Test
    void inputSchemasAreObjectsWithoutTopLevelCombinators() {
        for (StewardTool<?> t : Tools.registry().tools()) {
            JsonNode in = Schemas.input(t.name());
            assertEquals("object", in.get("type").asString(), t.name());
            for (String k : List.of("anyOf", "oneOf", "allOf"))
                assertFalse(in.has(k), t.name() + " has top-level " + k);
            // no "$schema": MCP reads an input schema without one as JSON Schema 2020-12, and so does Schemas (58
            // characters
            // per tool saved from the context budget)
            assertFalse(
                    in.has("$schema"),
                    t.name() + ": input schemas are 2020-12 by default; \"$schema\" only costs context");
            JsonNode out = Schemas.output(t.name());
            assertEquals("object", out.get("type").asString(), t.name());
        }
    }

    @Test
    void unknownToolIsAnErrorResult() {
        var r = Tools.registry().invoke("nope_tool", null, null);
        assertTrue(r.isError());
        assertTrue(r.text().startsWith("nope_tool: unknown tool"), r.text());
    }
}
