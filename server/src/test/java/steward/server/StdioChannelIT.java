package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    static String call(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{}}}";
    }

    private Process start(Path home) throws Exception {
        return new ProcessBuilder(StewardProcess.command("serve", "--hermes-home", home.toString()))
                .redirectError(tmp.resolve("stderr.txt").toFile()).start();
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
        assertEquals(62, answer.get("result").get("structuredContent").get("sessions").get("total").asInt());
        in.close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
    }

    @Test
    void whenStdinClosesEveryRequestAlreadyReceivedIsAnswered() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Process p = start(home);
        StringBuilder script = new StringBuilder(INIT).append('\n').append(INITIALIZED).append('\n');
        for (int id = 2; id <= 11; id++) script.append(call(id)).append('\n');
        try (OutputStream in = p.getOutputStream()) {
            in.write(script.toString().getBytes(StandardCharsets.UTF_8)); // like: printf '...' | steward serve
        }
        List<JsonNode> answers = readAll(p);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        List<Integer> ids = answers.stream().map(a -> a.get("id").asInt()).sorted().toList();
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), ids);
        for (JsonNode a : answers) {
            if (a.get("id").asInt() > 1) assertEquals(62, a.get("result").get("structuredContent").get("sessions").get("total").asInt());
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
        String stderr = java.nio.file.Files.readString(tmp.resolve("stderr.txt"));
        assertTrue(stderr.contains("serving on stdio"), "logs go to stderr: " + stderr);
    }

    private static void write(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
