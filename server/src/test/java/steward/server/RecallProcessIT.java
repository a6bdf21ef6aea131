package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** Recall in real child processes: dense retrieval as it holds when the ONNX runtime cannot load; the background indexer. */
class RecallProcessIT {
    @TempDir
    Path tmp;

    JsonNode call(Path home, List<String> jvm, String tool, String args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(StewardProcess.java()));
        cmd.addAll(jvm);
        cmd.addAll(
                List.of("-jar", StewardProcess.jar().toString(), "call", tool, args, "--hermes-home", home.toString()));
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        JsonNode n = Json.MAPPER.readTree(out);
        return n.has("isError") ? n.get("result") : n;
    }

    @Test
    void whenTheOnnxRuntimeCannotLoadStatusAndResultsSaySoAndRecallStaysLexical() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        // the runtime's native library is looked for in an empty directory: it cannot load in that process
        Path empty = Files.createDirectories(tmp.resolve("no-native-libs"));
        List<String> broken = List.of("-Donnxruntime.native.path=" + empty);
        JsonNode status = call(home, broken, "steward_status", "{}").get("recall");
        assertEquals("failed", status.get("dense_state").asString(), status.toString());
        assertFalse(status.get("dense_enabled").asBoolean());
        assertTrue(
                status.get("dense").asString().startsWith("off: the embedding runtime could not be loaded here"),
                status.get("dense").asString());
        assertEquals(
                "on",
                status.get("settings").get("dense").get("value").asString(),
                "the setting says on; what holds is off");

        JsonNode search = call(home, broken, "recall_search", "{\"query\":\"session housekeeping rules\"}");
        assertFalse(search.get("index").get("dense_enabled").asBoolean());
        assertTrue(search.get("index")
                .get("dense")
                .asString()
                .startsWith("off: the embedding runtime could not be loaded here"));
        assertTrue(search.get("items").size() > 0, "lexical recall still answers: " + search);
        assertTrue(search.get("match").get("semantic_floor").isNull());

        // the same home in a process where the runtime loads: status says so
        JsonNode ok = call(home, List.of(), "steward_status", "{}").get("recall");
        assertEquals("available", ok.get("dense_state").asString(), ok.toString());
        assertTrue(ok.get("dense_enabled").asBoolean());
    }

    @Test
    void theLongLivedServerIndexesAndEmbedsInTheBackgroundAndCallsNeverEmbed() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        for (String f : List.of("state.db", "state.db-wal", "state.db-shm"))
            Files.deleteIfExists(home.resolve(f)); // memory and skills: a few texts
        try (McpSyncClient client = StewardProcess.client(home)) {
            // the background indexer builds the index on its own; a call at any time gets an answer at once: from what
            // is
            // indexed, saying so while the build runs
            JsonNode first = structured(client.callTool(McpSchema.CallToolRequest.builder("recall_search")
                    .arguments(Map.of("query", "session housekeeping"))
                    .build()));
            assertTrue(
                    first.get("index").get("built").asBoolean()
                            || first.get("index").get("building").asString("").startsWith("index building"),
                    first.get("index").toString());
            assertEquals(0, first.get("index").get("items_written").asInt(), "the call itself never writes the index");
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            JsonNode st;
            do {
                Thread.sleep(2000);
                st = structured(client.callTool(McpSchema.CallToolRequest.builder("steward_status")
                                .arguments(Map.of())
                                .build()))
                        .get("recall");
            } while ((!st.get("index_built").asBoolean()
                            || st.get("dense_pending").asInt(-1) != 0)
                    && System.nanoTime() < deadline);
            assertTrue(st.get("index_built").asBoolean(), st.toString());
            assertEquals(0, st.get("dense_pending").asInt(), st.toString());
            assertTrue(st.get("background").get("running").asBoolean());
            assertTrue(st.get("background").get("embedded").asLong() >= 10, st.toString());
            assertTrue(st.get("vectors").asInt() >= 10);
            JsonNode later = structured(client.callTool(McpSchema.CallToolRequest.builder("recall_search")
                    .arguments(Map.of("query", "how do I tidy up old chats"))
                    .build()));
            assertTrue(later.get("index").get("built").asBoolean());
            assertTrue(later.get("items").size() > 0);
            assertTrue(
                    later.get("index").get("dense_enabled").asBoolean(),
                    later.get("index").toString());
            assertEquals(0, later.get("index").get("dense_pending").asInt());
        }
    }

    static JsonNode structured(McpSchema.CallToolResult r) {
        assertFalse(Boolean.TRUE.equals(r.isError()), String.valueOf(r.content()));
        return Json.MAPPER.valueToTree(r.structuredContent());
    }
}
