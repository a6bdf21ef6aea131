package steward.server.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/** Steward over HTTP end to end: the real jar, the SDK's HTTP client transports and raw HTTP. */
class HttpTransportIT {
    @TempDir
    static Path tmp;

    static HttpServerProcess server;
    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        server = new HttpServerProcess(tmp, true);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) server.close();
    }

    static McpSyncClient client(Consumer<McpClient.SyncSpec> customize) {
        var transport = HttpClientStreamableHttpTransport.builder(server.url())
                .endpoint("/mcp")
                .addHttpRequestCustomizer(
                        (b, method, uri, body, ctx) -> b.header("Authorization", "Bearer " + HttpServerProcess.TOKEN))
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
        var b = HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static Map<String, String> auth() {
        return Map.of("Authorization", "Bearer " + HttpServerProcess.TOKEN);
    }

    static Map<String, String> auth(String session) {
        return Map.of(
                "Authorization",
                "Bearer " + HttpServerProcess.TOKEN,
                "Mcp-Session-Id",
                session,
                "MCP-Protocol-Version",
                "2025-06-18");
    }

    static String initSession() throws Exception {
        HttpResponse<String> r = post(INIT, auth());
        assertEquals(200, r.statusCode(), r.body());
        String sid = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(
                202,
                post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", auth(sid))
                        .statusCode());
        return sid;
    }

    @Test
    void toolsOverHttpGiveTheSameResultsAsOverStdio() throws Exception {
        JsonNode overHttp;
        try (McpSyncClient c = client(s -> {})) {
            var r = c.callTool(McpSchema.CallToolRequest.builder("steward_status")
                    .arguments(Map.of())
                    .build());
            assertFalse(Boolean.TRUE.equals(r.isError()));
            overHttp = Json.MAPPER.valueToTree(r.structuredContent());
            var bad = c.callTool(McpSchema.CallToolRequest.builder("steward_status")
                    .arguments(Map.of("nope", 1))
                    .build());
            assertTrue(bad.isError());
        }
        Process p = new ProcessBuilder(
                        HttpServerProcess.javaBin(),
                        "-jar",
                        HttpServerProcess.jar(),
                        "serve",
                        "--hermes-home",
                        server.home.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        JsonNode overStdio = null;
        try (OutputStream in = p.getOutputStream();
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            in.write((INIT + "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{}}}\n")
                    .getBytes(StandardCharsets.UTF_8));
            in.flush();
            String line;
            while ((line = out.readLine()) != null) {
                JsonNode n = Json.MAPPER.readTree(line);
                if (n.has("id") && n.get("id").asInt() == 2) {
                    overStdio = n.get("result").get("structuredContent");
                    break;
                }
            }
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        assertNotNull(overStdio);
        // the recall section is what each server's background indexer has done so far (its index build, its vectors):
        // it moves with time, not with the transport
        ((tools.jackson.databind.node.ObjectNode) overStdio).remove("recall");
        ((tools.jackson.databind.node.ObjectNode) overHttp).remove("recall");
        assertEquals(overStdio, overHttp);
    }

    @Test
    void missingOrWrongTokenIs401() throws Exception {
        HttpResponse<String> none = post(INIT, Map.of());
        assertEquals(401, none.statusCode());
        assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
        assertTrue(none.body().contains("bearer token"), none.body());
        assertEquals(
                401,
                post(INIT, Map.of("Authorization", "Bearer wrong-token-0123456789"))
                        .statusCode());
        assertEquals(
                401,
                post(INIT, Map.of("Authorization", "Basic " + HttpServerProcess.TOKEN))
                        .statusCode());
        assertFalse(none.body().contains(HttpServerProcess.TOKEN));
        assertFalse(Files.readString(server.log).contains(HttpServerProcess.TOKEN), "the token must never be logged");
        assertEquals(200, post(INIT, auth()).statusCode());
    }

    @Test
    void foreignOriginOrHostIs403() throws Exception {
        HttpResponse<String> origin = post(
                INIT, Map.of("Authorization", "Bearer " + HttpServerProcess.TOKEN, "Origin", "http://evil.example"));
        assertEquals(403, origin.statusCode());
        assertTrue(origin.body().contains("Origin"), origin.body());
        assertEquals(
                200,
                post(
                                INIT,
                                Map.of(
                                        "Authorization",
                                        "Bearer " + HttpServerProcess.TOKEN,
                                        "Origin",
                                        "http://localhost:3000"))
                        .statusCode());
        assertEquals(403, rawStatus("evil.example:" + server.port));
        assertEquals(403, rawStatus("127.0.0.1.nip.io:" + server.port));
        assertEquals(200, rawStatus("localhost:" + server.port));
    }

    /** A raw HTTP/1.1 POST with the given Host header (java.net.http does not let a caller set Host). */
    static int rawStatus(String host) throws Exception {
        byte[] body = INIT.getBytes(StandardCharsets.UTF_8);
        try (Socket s = new Socket("127.0.0.1", server.port)) {
            s.setSoTimeout(10_000);
            String head = "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + HttpServerProcess.TOKEN
                    + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: "
                    + body.length
                    + "\r\nConnection: close\r\n\r\n";
            s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().write(body);
            String status =
                    new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    @Test
    void oversizedRequestIs413() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
                + "x".repeat(HttpOptions.DEFAULT_MAX_REQUEST_BYTES) + "\"}}";
        assertEquals(413, post(big, auth()).statusCode());
    }

    /** Issue 12 (fuzz over HTTP): the SDK answered these 400 with its McpError serialized (class names, a stack trace), no id. */
    @Test
    void malformedBodiesAreAnsweredUnderTheirIdInPlainWords() throws Exception {
        String sid = initSession();
        String[][] cases = {
            {
                "{\"jsonrpc\":\"2.0\",\"id\":\"u1\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{\"x\":"
                        + "[".repeat(600) + "}}}",
                "\"u1\"",
                "-32700"
            },
            {
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{\"a\":"
                        + "[".repeat(5000) + "]".repeat(5000) + "}}}",
                "7",
                null
            },
            {"not json at all", "null", "-32700"},
            {"{\"jsonrpc\":\"2.0\",\"id\":\"m2\"}", "\"m2\"", "-32600"},
            {"{\"jsonrpc\":\"2.0\",\"id\":\"m4\",\"method\":42}", "\"m4\"", null},
            {"[]", "null", "-32600"},
            {"[{\"jsonrpc\":\"2.0\",\"id\":\"m14\",\"method\":\"tools/list\"}]", "null", "-32600"},
        };
        for (String[] c : cases) {
            HttpResponse<String> r = post(c[0], auth(sid));
            String body = r.body();
            assertFalse(
                    body.contains("Exception")
                            || body.contains("McpError")
                            || body.contains("stackTrace")
                            || body.contains("io.modelcontextprotocol"),
                    r.statusCode() + " " + body);
            JsonNode a = Json.MAPPER.readTree(
                    body.startsWith("{")
                            ? body
                            : body.lines()
                                    .filter(l -> l.startsWith("data:"))
                                    .findFirst()
                                    .orElseThrow()
                                    .substring(5));
            assertEquals(c[1], a.path("id").toString(), body);
            if (c[2] != null)
                assertEquals(
                        Integer.parseInt(c[2]), a.path("error").path("code").asInt(), body);
            else assertTrue(a.has("error") || a.path("result").path("isError").asBoolean(false), body);
        }
    }

    @Test
    void severalClientsKeepSeparateSessions() throws Exception {
        String a = initSession();
        String b = initSession();
        assertNotEquals(a, b);
        String list = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}";
        assertEquals(200, post(list, auth(a)).statusCode());
        var del = HttpRequest.newBuilder(URI.create(server.url() + "/mcp")).DELETE();
        auth(a).forEach(del::header);
        assertEquals(
                200,
                HTTP.send(del.build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(404, post(list, auth(a)).statusCode(), "a closed session is gone");
        HttpResponse<String> stillB = post(list, auth(b));
        assertEquals(200, stillB.statusCode());
        assertTrue(stillB.body().contains("steward_status"));

        // and concurrently, through the SDK client
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try (McpSyncClient c = client(s -> {})) {
                    var r = c.callTool(McpSchema.CallToolRequest.builder("steward_status")
                            .arguments(Map.of())
                            .build());
                    return ((McpSchema.TextContent) r.content().get(0)).text();
                }
            }));
        }
        for (var f : calls)
            assertTrue(
                    f.get(60, TimeUnit.SECONDS).startsWith("Hermes home: " + server.home),
                    "each client gets its own answer");
    }

    @Test
    void subscribedClientIsToldWhenAMemoryFileChanges() throws Exception {
        List<McpSchema.ResourceContents> updates = new CopyOnWriteArrayList<>();
        try (McpSyncClient c = client(s -> s.resourcesUpdateConsumer(updates::addAll))) {
            String uri = c.listResources().resources().stream()
                    .map(McpSchema.Resource::uri)
                    .filter(u -> u.endsWith("MEMORY.md"))
                    .findFirst()
                    .orElseThrow();
            c.subscribeResource(McpSchema.SubscribeRequest.builder(uri).build());
            Thread.sleep(400); // let the watcher settle
            Path memory = server.home.resolve("memories/MEMORY.md");
            Path tmpFile = memory.resolveSibling("MEMORY.md.tmp-it");
            Files.writeString(
                    tmpFile, Files.readString(memory) + "\n§\n[ops] written by another process during the IT");
            Files.move(tmpFile, memory, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            await().atMost(Duration.ofSeconds(10)).until(() -> !updates.isEmpty());
            var text = (McpSchema.TextResourceContents) updates.get(0);
            assertEquals(uri, text.uri());
            assertTrue(text.text().contains("written by another process during the IT"));
            // and Steward's own write
            var w = c.callTool(McpSchema.CallToolRequest.builder("memory_write")
                    .arguments(Map.of(
                            "target", "memory", "action", "add", "content", "[ops] written by Steward over HTTP"))
                    .build());
            assertFalse(Boolean.TRUE.equals(w.isError()), w.toString());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> updates.stream()
                            .anyMatch(u -> u instanceof McpSchema.TextResourceContents t
                                    && t.text().contains("written by Steward over HTTP")));
        }
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

    @Test
    void olderProtocolSessionsGetNoPrimingEvent() throws Exception {
        String sid = initSession("2025-06-18");
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}", auth(sid));
        assertFalse(r.body().contains("retry:"), r.body());
        assertTrue(r.body().contains("steward_status"));
    }

    @Test
    void theOlderSseTransportServesTheSameRegistry() {
        @SuppressWarnings(
                "deprecation") // the SDK deprecates the HTTP+SSE client with no replacement; this test is about that
        // transport
        var transport = HttpClientSseClientTransport.builder(server.url())
                .sseEndpoint("/sse")
                .addHttpRequestCustomizer(
                        (b, method, uri, body, ctx) -> b.header("Authorization", "Bearer " + HttpServerProcess.TOKEN))
                .build();
        try (McpSyncClient c =
                McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            c.initialize();
            assertTrue(c.listTools().tools().stream().anyMatch(t -> t.name().equals("steward_status")));
            var r = c.callTool(McpSchema.CallToolRequest.builder("steward_status")
                    .arguments(Map.of())
                    .build());
            assertFalse(Boolean.TRUE.equals(r.isError()));
            assertEquals(
                    62,
                    ((Map<?, ?>) r.structuredContent()).get("sessions") instanceof Map<?, ?> m
                            ? ((Number) m.get("total")).intValue()
                            : -1);
            Exception unknown = assertThrows(
                    Exception.class,
                    () -> c.callTool(McpSchema.CallToolRequest.builder("no_such_tool")
                            .arguments(Map.of())
                            .build()));
            assertTrue(String.valueOf(unknown.getMessage()).contains("Unknown tool: no_such_tool"), unknown.toString());
        }
    }

    @Test
    void manyCallsOnOneConnectionAllComeBackWhole() throws Exception {
        // 250 calls on one keep-alive connection: they cross Tomcat's limit of 100 requests per connection twice,
        // and every answer must arrive whole, under its id, in the session it was asked in
        HttpClient one = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        String sid = initSession();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            var b = HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":\"m" + i
                            + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\",\"arguments\":{}}}"));
            auth(sid).forEach(b::header);
            try {
                HttpResponse<String> r = one.send(b.build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200 || !r.body().contains("\"id\":\"m" + i + "\"")) {
                    failures.add(i + ": " + r.statusCode() + " " + r.body());
                } else if (r.headers().allValues("Connection").size() > 1) {
                    failures.add(i + ": Connection " + r.headers().allValues("Connection"));
                }
            } catch (IOException e) {
                failures.add(i + ": " + e);
            }
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void anUnknownToolsErrorNamesTheToolAsked() throws Exception {
        String sid = initSession();
        HttpResponse<String> r = post(
                "{\"jsonrpc\":\"2.0\",\"id\":\"u\",\"method\":\"tools/call\",\"params\":{\"name\":\"sesion_audit\","
                        + "\"arguments\":{}}}",
                auth(sid));
        assertEquals(200, r.statusCode(), r.body());
        String data = r.body()
                .lines()
                .filter(l -> l.startsWith("data:") && l.contains("\"u\""))
                .findFirst()
                .orElse(r.body());
        JsonNode err = Json.MAPPER
                .readTree(data.startsWith("data:") ? data.substring(5) : data)
                .get("error");
        assertEquals(-32602, err.get("code").asInt());
        assertEquals("Unknown tool: sesion_audit", err.get("message").asString());
    }

    @Test
    void promptsCompletionsAndResourcesWork() {
        try (McpSyncClient c = client(s -> {})) {
            var prompts = c.listPrompts().prompts().stream()
                    .map(McpSchema.Prompt::name)
                    .toList();
            assertTrue(prompts.containsAll(List.of("housekeeping", "remember")), prompts.toString());
            var zh = c.getPrompt(McpSchema.GetPromptRequest.builder("housekeeping")
                    .arguments(Map.of("locale", "zh"))
                    .build());
            assertTrue(((McpSchema.TextContent) zh.messages().get(0).content())
                    .text()
                    .contains("简体中文"));
            var locales = c.completeCompletion(McpSchema.CompleteRequest.builder(
                            new McpSchema.PromptReference("housekeeping"),
                            new McpSchema.CompleteRequest.CompleteArgument("locale", "z"))
                    .build());
            assertEquals(List.of("zh"), locales.completion().values());
            var targets = c.completeCompletion(McpSchema.CompleteRequest.builder(
                            new McpSchema.PromptReference("remember"),
                            new McpSchema.CompleteRequest.CompleteArgument("target", ""))
                    .build());
            assertEquals(List.of("memory", "user"), targets.completion().values());
            var ids = c.completeCompletion(McpSchema.CompleteRequest.builder(
                            new McpSchema.ResourceReference("steward://session/{id}"),
                            new McpSchema.CompleteRequest.CompleteArgument("id", ""))
                    .build());
            assertFalse(ids.completion().values().isEmpty());
            String id = ids.completion().values().get(0);
            var session = c.readResource(McpSchema.ReadResourceRequest.builder("steward://session/" + id)
                    .build());
            String text = ((McpSchema.TextResourceContents) session.contents().get(0)).text();
            assertTrue(
                    text.contains("Session " + id) && text.contains("Messages: ") && text.contains("## First messages"),
                    text);
            var audit = c.readResource(McpSchema.ReadResourceRequest.builder("steward://audit/latest")
                    .build());
            assertTrue(((McpSchema.TextResourceContents) audit.contents().get(0))
                    .text()
                    .startsWith("No audit yet"));
        }
    }
}
