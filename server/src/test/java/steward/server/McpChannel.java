package steward.server;

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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * A raw MCP client for end-to-end tests, over stdio or Streamable HTTP to the real jar in a child process: it sends
 * JSON-RPC text and keeps every message the server sends, in the order they arrived on the wire (the SDK clients hand
 * notifications to consumers on worker threads, so their order cannot be checked through them).
 */
abstract class McpChannel implements AutoCloseable {
    static final String INIT =
            "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    final Process process;
    final BlockingQueue<JsonNode> inbox = new LinkedBlockingQueue<>();
    final List<JsonNode> seen = Collections.synchronizedList(new ArrayList<>());

    McpChannel(Process process) {
        this.process = process;
    }

    /** Sends one JSON-RPC message (a request or a notification). */
    abstract void send(String json) throws Exception;

    /** The next message the server sent that matches, waiting at most {@code wait}; earlier ones are kept in {@link #seen}. */
    JsonNode next(Predicate<JsonNode> match, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            JsonNode m = left <= 0 ? null : inbox.poll(left, TimeUnit.NANOSECONDS);
            if (m == null) throw new AssertionError("no matching message within " + wait + "; seen: " + seen);
            if (match.test(m)) return m;
        }
    }

    /** Sends a request and returns its answer, waiting at most {@code wait}. */
    JsonNode call(String id, String json, Duration wait) throws Exception {
        send(json);
        return next(answers(id), wait);
    }

    void received(JsonNode m) {
        seen.add(m);
        inbox.add(m);
    }

    static Predicate<JsonNode> answers(String id) {
        return m -> (m.has("result") || m.has("error"))
                && id.equals(m.path("id").asString(m.path("id").toString()));
    }

    static Predicate<JsonNode> progressOf(String token) {
        return m -> "notifications/progress".equals(m.path("method").asString(""))
                && token.equals(m.path("params").path("progressToken").asString(""));
    }

    /** The progress notifications of {@code token} seen so far, in order. */
    List<JsonNode> progress(String token) {
        synchronized (seen) {
            return seen.stream().filter(progressOf(token)).toList();
        }
    }

    int indexOf(JsonNode m) {
        synchronized (seen) {
            for (int i = 0; i < seen.size(); i++) if (seen.get(i) == m) return i;
        }
        return -1;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            // a server stops its background indexer and the model first (bounded by 20 s): wait, so that it writes
            // nothing
            // into a temp dir being deleted
            if (!process.waitFor(30, TimeUnit.SECONDS))
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (
                InterruptedException
                        e) { // close() does not throw it (AutoCloseable's advice): the process goes, the flag stays set
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** {@code steward serve} on stdio. */
    static McpChannel stdio(Path home, Path stateDir, Path log) throws Exception {
        return stdio(home, stateDir, log, Map.of());
    }

    /** {@code steward serve} on stdio with these environment variables added. */
    static McpChannel stdio(Path home, Path stateDir, Path log, Map<String, String> env) throws Exception {
        List<String> cmd =
                StewardProcess.command("serve", "--hermes-home", home.toString(), "--state-dir", stateDir.toString());
        ProcessBuilder spb = new ProcessBuilder(cmd).redirectError(log.toFile());
        spb.environment().putAll(env);
        Process p = spb.start();
        McpChannel c = new McpChannel(p) {
            final OutputStream in = p.getOutputStream();

            @Override
            synchronized void send(String json) throws IOException {
                in.write((json + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
        };
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader r =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = r.readLine()) != null) c.received(Json.MAPPER.readTree(line));
                    } catch (IOException e) {
                        // the process ended
                    }
                },
                "it-stdio-reader");
        reader.setDaemon(true);
        reader.start();
        c.call("init", INIT, Duration.ofSeconds(60));
        c.send(INITIALIZED);
        return c;
    }

    /** {@code steward serve --http} on a free loopback port; each request's SSE stream is read as it arrives. */
    static McpChannel http(Path home, Path stateDir, Path log) throws Exception {
        return http(home, stateDir, log, Map.of());
    }

    /** {@code steward serve --http} with these environment variables added. */
    @SuppressWarnings("try") // the connect is the probe; the socket is never used
    static McpChannel http(Path home, Path stateDir, Path log, Map<String, String> env) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = StewardProcess.command(
                "serve",
                "--http",
                "--port",
                String.valueOf(port),
                "--hermes-home",
                home.toString(),
                "--state-dir",
                stateDir.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("STEWARD_HTTP_TOKEN");
        pb.environment().putAll(env);
        Process p = pb.start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            if (!p.isAlive()) throw new IllegalStateException("server exited: " + Files.readString(log));
            try (Socket s = new Socket("127.0.0.1", port)) {
                break;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    p.destroyForcibly();
                    throw new IllegalStateException("server did not listen: " + Files.readString(log));
                }
                Thread.sleep(100);
            }
        }
        URI mcp = URI.create("http://127.0.0.1:" + port + "/mcp");
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String[] session = {null};
        McpChannel c = new McpChannel(p) {
            @Override
            void send(String json) throws Exception {
                HttpRequest.Builder b = HttpRequest.newBuilder(mcp)
                        .timeout(Duration.ofMinutes(5))
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(json));
                if (session[0] != null)
                    b.header("Mcp-Session-Id", session[0]).header("MCP-Protocol-Version", "2025-06-18");
                JsonNode msg = Json.MAPPER.readTree(json);
                if (!msg.has("id")) {
                    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 202)
                        throw new AssertionError("notification answered " + r.statusCode() + ": " + r.body());
                    return;
                }
                HttpResponse<Stream<String>> r = http.send(b.build(), HttpResponse.BodyHandlers.ofLines());
                r.headers().firstValue("Mcp-Session-Id").ifPresent(v -> session[0] = v);
                Thread t = new Thread(
                        () -> r.body().forEach(line -> {
                            String data = line.startsWith("data:")
                                    ? line.substring(5).strip()
                                    : line.startsWith("{") ? line : "";
                            if (!data.isEmpty()) received(Json.MAPPER.readTree(data));
                        }),
                        "it-http-stream");
                t.setDaemon(true);
                t.start();
            }
        };
        c.call("init", INIT, Duration.ofSeconds(60));
        c.send(INITIALIZED);
        // the session's own stream (GET), where notifications that belong to no request arrive (resources/updated)
        HttpRequest get = HttpRequest.newBuilder(mcp)
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session[0])
                .header("MCP-Protocol-Version", "2025-06-18")
                .GET()
                .build();
        http.sendAsync(get, HttpResponse.BodyHandlers.ofLines())
                .thenAccept(r -> r.body().forEach(line -> {
                    if (line.startsWith("data:") && line.length() > 5)
                        c.received(Json.MAPPER.readTree(line.substring(5).strip()));
                }));
        return c;
    }
}
