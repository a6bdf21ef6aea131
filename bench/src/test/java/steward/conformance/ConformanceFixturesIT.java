package steward.conformance;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.bench.DevProcess;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/**
 * The fixture tools through Steward's own transports, end to end: progress in order, cancellation at a safe point
 * over HTTP and over stdio, and a cut Streamable HTTP stream resumed from Last-Event-ID. They run the shipped jar
 * with this module's jar on the class path ({@code serve --conformance-fixtures}), as {@code .ci/conformance.sh} does.
 */
class ConformanceFixturesIT {
    static final String TOKEN = "it-token-0123456789abcdef";

    @TempDir
    static Path tmp;

    static Path home;
    static int port;
    static Process server;
    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    @SuppressWarnings("try") // the connect is the probe; the socket is never used
    static void start() throws Exception {
        home = TestHomes.copyFixture(tmp);
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path token = tmp.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        Path log = tmp.resolve("server.log");
        ProcessBuilder pb = new ProcessBuilder(DevProcess.command(
                        "serve",
                        "--http",
                        "--port",
                        String.valueOf(port),
                        "--hermes-home",
                        home.toString(),
                        "--token-file",
                        token.toString(),
                        "--conformance-fixtures"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().remove("STEWARD_HTTP_TOKEN");
        server = pb.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) throw new IllegalStateException("server exited: " + Files.readString(log));
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("server did not listen in time: " + Files.readString(log));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    static String url() {
        return "http://127.0.0.1:" + port;
    }

    static McpSyncClient client(Consumer<McpClient.SyncSpec> customize) {
        var transport = HttpClientStreamableHttpTransport.builder(url())
                .endpoint("/mcp")
                .addHttpRequestCustomizer((b, method, uri, body, ctx) -> b.header("Authorization", "Bearer " + TOKEN))
                .build();
        var spec = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30));
        customize.accept(spec);
        McpSyncClient c = spec.build();
        c.initialize();
        return c;
    }

    static final String INIT =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";

    static HttpResponse<String> post(String body, Map<String, String> headers) throws Exception {
        var b = HttpRequest.newBuilder(URI.create(url() + "/mcp"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static Map<String, String> auth() {
        return Map.of("Authorization", "Bearer " + TOKEN);
    }

    static Map<String, String> auth(String session) {
        return Map.of(
                "Authorization", "Bearer " + TOKEN, "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18");
    }

    static String initSession() throws Exception {
        return initSession("2025-06-18");
    }

    static String initSession(String version) throws Exception {
        HttpResponse<String> r = post(INIT.replace("2025-06-18", version), auth());
        assertEquals(200, r.statusCode(), r.body());
        String sid = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(
                202,
                post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", auth(sid))
                        .statusCode());
        return sid;
    }

    static long count(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    static void send(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    @Test
    void theFixtureToolsAnswerSeveralClientsConcurrently() throws Exception {
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try (McpSyncClient c = client(s -> {})) {
                    var r = c.callTool(McpSchema.CallToolRequest.builder("test_simple_text")
                            .arguments(Map.of())
                            .build());
                    return ((McpSchema.TextContent) r.content().get(0)).text();
                }
            }));
        }
        for (var f : calls) assertEquals("This is a simple text response for testing.", f.get(60, TimeUnit.SECONDS));
    }

    /**
     * Read from the wire (the call's SSE stream), not through the SDK client: the Java SDK hands each notification
     * to a sync consumer on a worker thread, so the order a consumer sees is not the order the server sent.
     */
    @Test
    void progressArrivesInOrder() throws Exception {
        String sid = initSession();
        HttpResponse<String> r = post(
                "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_test_slow\","
                        + "\"arguments\":{\"items\":6,\"delay_ms\":20},\"_meta\":{\"progressToken\":\"p-1\"}}}",
                auth(sid));
        assertEquals(200, r.statusCode(), r.body());
        List<JsonNode> messages = r.body()
                .lines()
                .filter(l -> l.startsWith("data:") && l.length() > 5)
                .map(l -> Json.MAPPER.readTree(l.substring(5)))
                .toList();
        List<JsonNode> progress = messages.stream()
                .filter(m -> "notifications/progress".equals(m.path("method").asString("")))
                .toList();
        assertEquals(
                List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0),
                progress.stream()
                        .map(m -> m.get("params").get("progress").asDouble())
                        .toList(),
                r.body());
        assertTrue(
                progress.stream()
                        .allMatch(m -> "p-1"
                                        .equals(m.get("params")
                                                .get("progressToken")
                                                .asString())
                                && m.get("params").get("total").asDouble() == 6.0),
                r.body());
        JsonNode result = messages.stream()
                .filter(m -> "p".equals(m.path("id").asString("")))
                .findFirst()
                .orElseThrow();
        assertFalse(result.get("result").get("isError").asBoolean(), result.toString());
        assertTrue(
                messages.indexOf(result) > messages.indexOf(progress.get(5)),
                "the result comes after the last progress");
    }

    @Test
    void aCancelledLongCallStopsAtASafePointAndLeavesConsistentFiles() throws Exception {
        String sid = initSession();
        int items = 400;
        String call =
                "{\"jsonrpc\":\"2.0\",\"id\":\"slow-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_test_slow\","
                        + "\"arguments\":{\"items\":" + items + ",\"delay_ms\":25},\"_meta\":{\"progressToken\":7}}}";
        var req = HttpRequest.newBuilder(URI.create(url() + "/mcp"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(call));
        auth(sid).forEach(req::header);
        CompletableFuture<HttpResponse<String>> running =
                HTTP.sendAsync(req.build(), HttpResponse.BodyHandlers.ofString());
        Path dir = home.resolve("steward/test-slow");
        await().atMost(Duration.ofSeconds(20)).until(() -> count(dir) >= 5);
        assertEquals(
                202,
                post(
                                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"slow-1\","
                                        + "\"reason\":\"user gave up\"}}",
                                auth(sid))
                        .statusCode());
        HttpResponse<String> answer = running.get(30, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode());
        String result = answer.body()
                .lines()
                .filter(l -> l.startsWith("data:") && l.contains("\"slow-1\""))
                .findFirst()
                .orElseThrow();
        JsonNode n = Json.MAPPER.readTree(result.substring(5));
        assertTrue(n.get("result").get("isError").asBoolean(), result);
        assertTrue(n.get("result").get("content").get(0).get("text").asString().contains("cancelled"), result);
        Thread.sleep(200);
        long written = count(dir);
        assertTrue(written < items, "the call stopped early: " + written);
        Thread.sleep(300);
        assertEquals(written, count(dir), "nothing is written after the answer");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = new ArrayList<>(s.toList());
        }
        Collections.sort(files);
        for (int i = 0; i < files.size(); i++) {
            Path f = files.get(i);
            assertEquals(
                    String.format("item-%05d.txt", i + 1), f.getFileName().toString(), "contiguous, no temp files");
            assertEquals("item " + (i + 1) + " of " + items + "\n", Files.readString(f), "every file complete");
        }
    }

    @Test
    void aCutStreamResumesFromLastEventIdOn2025_11_25() throws Exception {
        String sid = initSession("2025-11-25");
        HttpResponse<String> cut = post(
                "{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tools/call\",\"params\":{\"name\":\"test_reconnection\",\"arguments\":{}}}",
                auth(sid));
        assertEquals(200, cut.statusCode());
        List<String> lines = cut.body().lines().toList();
        assertTrue(
                lines.get(0).startsWith("id: ")
                        && lines.get(1).startsWith("retry: ")
                        && lines.get(2).equals("data: "),
                cut.body());
        assertFalse(cut.body().contains("\"id\":41"), "the answer did not come on the cut stream");
        String last = lines.get(0).substring(4);
        var get = HttpRequest.newBuilder(URI.create(url() + "/mcp"))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", "text/event-stream")
                .header("Last-Event-ID", last)
                .GET();
        auth(sid).forEach(get::header);
        HttpResponse<String> resumed = HTTP.send(get.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, resumed.statusCode());
        assertTrue(
                resumed.body().contains("\"id\":41")
                        && resumed.body().contains("Reconnection test completed successfully"),
                resumed.body());

        // another session cannot resume this stream
        String other = initSession("2025-11-25");
        var foreign = HttpRequest.newBuilder(URI.create(url() + "/mcp"))
                .timeout(Duration.ofSeconds(5))
                .header("Accept", "text/event-stream")
                .header("Last-Event-ID", last)
                .GET();
        auth(other).forEach(foreign::header);
        HttpResponse<String> f = HTTP.send(foreign.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, f.statusCode());
        assertFalse(f.body().contains("Reconnection test completed"), f.body());
    }

    @Test
    void cancellationWorksOverStdioToo(@TempDir Path tmp) throws Exception {
        Path home = TestHomes.copyFixture(tmp.resolve("home"));
        Process p = new ProcessBuilder(
                        DevProcess.command("serve", "--hermes-home", home.toString(), "--conformance-fixtures"))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        int items = 400;
        try (OutputStream in = p.getOutputStream();
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
            assertTrue(out.readLine().contains("\"id\":1"));
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"steward_test_slow\","
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
            assertTrue(answer.get("result")
                    .get("content")
                    .get(0)
                    .get("text")
                    .asString()
                    .contains("cancelled"));
            long written = count(dir);
            assertTrue(written < items);
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = new ArrayList<>(s.toList());
            }
            Collections.sort(files);
            for (int i = 0; i < files.size(); i++) {
                assertEquals(
                        String.format("item-%05d.txt", i + 1),
                        files.get(i).getFileName().toString());
                assertEquals("item " + (i + 1) + " of " + items + "\n", Files.readString(files.get(i)));
            }
            assertFalse(p.waitFor(100, TimeUnit.MILLISECONDS), "the server keeps serving");
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
