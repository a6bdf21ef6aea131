package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The real server in a child process, driven over stdio by the MCP Java SDK client. */
class StdioServerIT {
    @TempDir
    Path tmp;

    @Test
    void statusOverStdioMatchesTheManifest() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        JsonNode manifest = Json.MAPPER.readTree(Files.readString(home.resolve("manifest.json")));
        int active = 0, archived = 0;
        Map<String, Integer> bySource = new HashMap<>();
        for (JsonNode s : manifest.get("sessions")) {
            if (s.get("active").asBoolean()) active++;
            if (s.get("archived").asBoolean()) archived++;
            bySource.merge(s.get("source").asString(), 1, Integer::sum);
        }
        try (McpSyncClient client = StewardProcess.client(home)) {
            var tools = client.listTools().tools();
            assertEquals(Tools.registry().tools().size(), tools.size());
            assertTrue(tools.stream().anyMatch(t -> t.name().equals("steward_status")));

            McpSchema.CallToolResult r = client.callTool(McpSchema.CallToolRequest.builder("steward_status")
                    .arguments(Map.of())
                    .build());
            assertFalse(Boolean.TRUE.equals(r.isError()), r.toString());
            assertNotNull(r.structuredContent());
            JsonNode s = Json.MAPPER.valueToTree(r.structuredContent());
            assertTrue(Schemas.validate("steward_status.output.json", s).isEmpty());
            JsonNode sessions = s.get("sessions");
            assertEquals(manifest.get("sessions").size(), sessions.get("total").asInt());
            assertEquals(62, sessions.get("total").asInt());
            assertEquals(active, sessions.get("active").asInt());
            assertEquals(62 - active, sessions.get("ended").asInt());
            assertEquals(archived, sessions.get("archived").asInt());
            Map<String, Integer> seen = new HashMap<>();
            sessions.get("by_source")
                    .properties()
                    .forEach(e -> seen.put(e.getKey(), e.getValue().asInt()));
            assertEquals(bySource, seen);
            String text = ((McpSchema.TextContent) r.content().get(0)).text();
            assertTrue(text.contains("Sessions:    62"), text);
        }
        // closing the client waits for the child to exit: nothing writes into @TempDir while JUnit deletes it
        assertTrue(
                ProcessHandle.current()
                        .descendants()
                        .noneMatch(p -> p.info().commandLine().orElse("").contains(home.toString())),
                "the server child still runs after close");
    }

    @Test
    void unknownToolOverMcpIsAProtocolErrorAndTheServerKeepsServing() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        try (McpSyncClient client = StewardProcess.client(home)) {
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(
                    Exception.class,
                    () -> client.callTool(McpSchema.CallToolRequest.builder("no_such_tool")
                            .arguments(Map.of())
                            .build()));
            assertTrue(String.valueOf(e.getMessage()).contains("Unknown tool: no_such_tool"), e.toString());
            var ok = client.callTool(McpSchema.CallToolRequest.builder("steward_status")
                    .arguments(Map.of())
                    .build());
            assertFalse(Boolean.TRUE.equals(ok.isError()));
            var bad = client.callTool(McpSchema.CallToolRequest.builder("steward_status")
                    .arguments(Map.of("bogus", true))
                    .build());
            assertTrue(bad.isError());
            assertTrue(((McpSchema.TextContent) bad.content().get(0))
                    .text()
                    .startsWith("steward_status: invalid arguments"));
        }
    }
}
