package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The stdio channel itself, byte for byte: parse errors keep the server alive; EOF drains pending answers. */
class StdioChannelIT {
    @TempDir
    Path tmp;

    static final String INIT =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    static String call(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{}}}";
    }

    private Process start(Path home) throws Exception {
        return new ProcessBuilder(StewardProcess.command("serve", "--hermes-home", home.toString()))
                .redirectError(tmp.resolve("stderr.txt").toFile())
                .start();
    }

    private static List<JsonNode> readAll(Process p) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) out.add(Json.MAPPER.readTree(line));
        }
        return out;
    }

    @Test
    void aLineThatIsNotJsonGetsAParseErrorAndTheServerKeepsServing() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Process p = start(home);
        OutputStream in = p.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        write(in, INIT);
        assertEquals(1, Json.MAPPER.readTree(out.readLine()).get("id").asInt());
        write(in, INITIALIZED);
        write(in, "this is { not json");
        JsonNode err = Json.MAPPER.readTree(out.readLine());
        assertEquals(-32700, err.get("error").get("code").asInt());
        assertTrue(err.get("id").isNull());
        write(in, "[1, 2, 3]");
        JsonNode invalid = Json.MAPPER.readTree(out.readLine());
        assertEquals(-32600, invalid.get("error").get("code").asInt());
        write(in, call(7));
        JsonNode answer = Json.MAPPER.readTree(out.readLine());
        assertEquals(7, answer.get("id").asInt());
        assertEquals(
                62,
                answer.get("result")
                        .get("structuredContent")
                        .get("sessions")
                        .get("total")
                        .asInt());
        in.close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
    }

    @Test
    void whenStdinClosesEveryRequestAlreadyReceivedIsAnswered() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Process p = start(home);
        StringBuilder script =
                new StringBuilder(INIT).append('\n').append(INITIALIZED).append('\n');
        for (int id = 2; id <= 11; id++) script.append(call(id)).append('\n');
        try (OutputStream in = p.getOutputStream()) {
            in.write(script.toString().getBytes(StandardCharsets.UTF_8)); // like: printf '...' | steward serve
        }
        List<JsonNode> answers = readAll(p);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        List<Integer> ids =
                answers.stream().map(a -> a.get("id").asInt()).sorted().toList();
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), ids);
        for (JsonNode a : answers) {
            if (a.get("id").asInt() > 1)
                assertEquals(
                        62,
                        a.get("result")
                                .get("structuredContent")
                                .get("sessions")
                                .get("total")
                                .asInt());
        }
    }

    @Test
    void stdoutCarriesOnlyProtocolMessages() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Process p = start(home);
        try (OutputStream in = p.getOutputStream()) {
            in.write((INIT + "\n" + INITIALIZED + "\n" + call(2) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        List<JsonNode> lines = readAll(p); // readAll fails on any non-JSON line
        p.waitFor(30, TimeUnit.SECONDS);
        for (JsonNode l : lines) assertEquals("2.0", l.get("jsonrpc").asString());
        String stderr = Files.readString(tmp.resolve("stderr.txt"));
        assertTrue(stderr.contains("serving on stdio"), "logs go to stderr: " + stderr);
    }

    /** Issue 12, defects 4 and 5: no Java class name in any error; a deeply nested request is answered under its id. */
    @Test
    void badArgumentsAndDeepNestingAreAnsweredUnderTheirIdInPlainWords() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Process p = start(home);
        StringBuilder script =
                new StringBuilder(INIT).append('\n').append(INITIALIZED).append('\n');
        String[] bad = {"\"text\"", "[1,2]", "42", "true"};
        for (int i = 0; i < bad.length; i++) {
            script.append("{\"jsonrpc\":\"2.0\",\"id\":")
                    .append(10 + i)
                    .append(",\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\",\"arguments\":")
                    .append(bad[i])
                    .append("}}\n");
        }
        script.append(
                "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/call\",\"params\":{\"name\":\"recall_search\",\"arguments\":{\"query\":\"x\",\"k\":1e308}}}\n");
        String deep = "[".repeat(600) + "]".repeat(600);
        script.append(
                        "{\"jsonrpc\":\"2.0\",\"id\":\"deep-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{\"x\":")
                .append(deep)
                .append("}}}\n");
        script.append("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"a\":")
                .append(deep)
                .append("},\"id\":21}\n");
        try (OutputStream in = p.getOutputStream()) {
            in.write(script.toString().getBytes(StandardCharsets.UTF_8));
        }
        List<JsonNode> answers = readAll(p);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        Map<String, JsonNode> byId = new HashMap<>();
        for (JsonNode a : answers) {
            if (!a.has("id")) continue; // a notification (e.g. resources/updated), not an answer
            byId.put(a.get("id").isNull() ? "null" : a.get("id").asString(), a);
        }
        for (String id : List.of("10", "11", "12", "13", "20", "deep-1", "21")) {
            JsonNode a = byId.get(id);
            assertTrue(a != null, "no answer under id " + id + ": " + answers);
            String text = a.toString();
            assertTrue(
                    !text.matches("(?s).*\\b(java|tools\\.jackson|com\\.fasterxml|io\\.modelcontextprotocol)\\.[a-z].*")
                            && !text.contains("Exception")
                            && !text.contains("LinkedHashMap")
                            && !text.contains("DoubleNode"),
                    text);
            boolean toolError =
                    a.has("result") && a.get("result").get("isError").asBoolean();
            int code = a.has("error") ? a.get("error").get("code").asInt() : 0;
            assertTrue(toolError || code == -32602 || code == -32700 || code == -32600, text);
        }
        for (String id : List.of("10", "11", "12", "13")) {
            assertTrue(
                    byId.get(id).toString().contains("arguments must be a JSON object"),
                    byId.get(id).toString());
        }
    }

    private static void write(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
