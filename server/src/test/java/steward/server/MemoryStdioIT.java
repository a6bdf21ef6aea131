package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.state.FileTrees;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** End to end over stdio against the real jar: memory_write, an isError failure with Hermes' record, and the MEMORY.md resource. */
class MemoryStdioIT {
    @TempDir
    Path tmp;

    @Test
    void memoryToolsAndResourcesOverStdio() throws Exception {
        FileTrees.copy(TestHomes.fixtureHome(), tmp);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(
                        java, "-jar", System.getProperty("steward.jar"), "serve", "--hermes-home", tmp.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            OutputStream in = p.getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                            + "\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
            JsonNode init = read(out, 1);
            assertTrue(init.get("result").get("capabilities").has("resources"));
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\",\"arguments\":"
                            + "{\"action\":\"add\",\"content\":\"[env] Node 22 via fnm\"}}}");
            JsonNode ok = read(out, 2).get("result");
            assertEquals(false, ok.path("isError").asBoolean(false));
            assertEquals(
                    "Entry added.", ok.get("structuredContent").get("message").asString());
            send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\",\"arguments\":"
                            + "{\"action\":\"remove\",\"old_text\":\"[env]\"}}}");
            JsonNode multi = read(out, 3).get("result");
            assertTrue(multi.get("isError").asBoolean());
            assertEquals(
                    "multiple_match", multi.get("structuredContent").get("kind").asString());
            send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":\"steward://memory/MEMORY.md\"}}");
            String text = read(out, 4)
                    .get("result")
                    .get("contents")
                    .get(0)
                    .get("text")
                    .asString();
            assertTrue(text.contains("MEMORY (your personal notes) [") && text.endsWith("[env] Node 22 via fnm"), text);
        } finally {
            p.getOutputStream().close();
            p.destroy(); // and wait: a server still stopping its background indexer writes into the temp dir
            // JUnit deletes
            if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
        }
    }

    static void send(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    static JsonNode read(BufferedReader out, int id) throws Exception {
        String line;
        while ((line = out.readLine()) != null) {
            JsonNode n = Json.MAPPER.readTree(line);
            if (n.has("id") && n.get("id").asInt() == id) return n;
        }
        throw new AssertionError("no answer to " + id);
    }
}
