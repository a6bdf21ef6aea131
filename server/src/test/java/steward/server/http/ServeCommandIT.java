package steward.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The serve command's refusals, and cancellation over stdio (the same interception as over HTTP). */
class ServeCommandIT {
    @Test
    void aNonLoopbackBindWithoutATokenIsRefused(@TempDir Path tmp) throws Exception {
        Path home = TestHomes.copyFixture(tmp.resolve("home"));
        ProcessBuilder pb = new ProcessBuilder(HttpServerProcess.javaBin(), "-jar", HttpServerProcess.jar(), "serve", "--http",
                "--bind", "0.0.0.0", "--port", "0", "--hermes-home", home.toString()).redirectErrorStream(true);
        pb.environment().remove(BearerToken.ENV);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("refusing to listen on a non-loopback address without a token"), out);
    }

    @Test
    void cancellationWorksOverStdioToo(@TempDir Path tmp) throws Exception {
        Path home = TestHomes.copyFixture(tmp.resolve("home"));
        Process p = new ProcessBuilder(HttpServerProcess.javaBin(), "-jar", HttpServerProcess.jar(), "serve", "--hermes-home", home.toString(),
                "--conformance-fixtures").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        int items = 400;
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
            assertTrue(out.readLine().contains("\"id\":1"));
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"steward_test_slow\","
                    + "\"arguments\":{\"items\":" + items + ",\"delay_ms\":25}}}");
            Path dir = home.resolve("steward/test-slow");
            await().atMost(Duration.ofSeconds(20)).until(() -> count(dir) >= 5);
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":5}}");
            JsonNode answer = null;
            String line;
            while ((line = out.readLine()) != null) {
                JsonNode n = Json.MAPPER.readTree(line);
                if (n.has("id") && n.get("id").asInt() == 5) {
                    answer = n;
                    break;
                }
            }
            assertTrue(answer != null && answer.get("result").get("isError").asBoolean(), String.valueOf(answer));
            assertTrue(answer.get("result").get("content").get(0).get("text").asString().contains("cancelled"));
            long written = count(dir);
            assertTrue(written < items);
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = new ArrayList<>(s.toList());
            }
            Collections.sort(files);
            for (int i = 0; i < files.size(); i++) {
                assertEquals(String.format("item-%05d.txt", i + 1), files.get(i).getFileName().toString());
                assertEquals("item " + (i + 1) + " of " + items + "\n", Files.readString(files.get(i)));
            }
            assertFalse(p.waitFor(100, TimeUnit.MILLISECONDS), "the server keeps serving");
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    static void send(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    static long count(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }
}
