package steward.server;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import steward.json.Json;
import steward.server.protocol.JsonRpcInspector;
import tools.jackson.databind.JsonNode;

/**
 * Newline-delimited JSON-RPC over stdin/stdout, replacing the SDK's stdio provider where it falls
 * short for scripting: a line that is not JSON gets a {@code -32700} parse error (and a JSON value
 * that is not a JSON-RPC message a {@code -32600}) and the server keeps serving; when stdin closes,
 * every request already received is answered before {@link #awaitTermination} returns.
 */
public final class StdioTransport implements McpServerTransportProvider {
    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);
    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(10);

    private final McpJsonMapper mapper;
    private final InputStream in;
    private final OutputStream out;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Object drainLock = new Object();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile McpServerSession session;

    public StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out) {
        this.mapper = mapper;
        this.in = in;
        this.out = out;
    }

    @Override
    public List<String> protocolVersions() {
        return List.of(
                ProtocolVersions.MCP_2024_11_05,
                ProtocolVersions.MCP_2025_03_26,
                ProtocolVersions.MCP_2025_06_18,
                ProtocolVersions.MCP_2025_11_25);
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
        this.session = factory.create(new SessionTransport());
        Thread reader = new Thread(this::readLoop, "stdio-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Blocks until stdin has closed and every request received before has been answered. */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    private void readLoop() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) continue;
                dispatch(line);
            }
        } catch (IOException e) {
            LOG.warn("stdin closed with an error: {}", e.getMessage());
        } finally {
            drainAndTerminate();
        }
    }

    private void dispatch(String line) {
        JsonNode tree;
        try {
            tree = Json.MAPPER.readTree(line);
        } catch (RuntimeException e) {
            // a request whose id can still be read is answered under it (its client would otherwise wait for its
            // timeout)
            JsonNode id = JsonRpcInspector.salvagedId(line);
            String msg = JsonRpcInspector.parseErrorMessage(e);
            writeError(id, -32700, msg);
            return;
        }
        String invalid = JsonRpcInspector.invalidParams(tree);
        if (invalid != null) {
            writeError(tree.get("id"), -32602, invalid);
            return;
        }
        McpServerSession current = session;
        if (JsonRpcInspector.inspect(tree, current == null ? null : current.getId(), McpServerFactory.CANCELLATIONS))
            line = tree.toString();
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(mapper, line);
        } catch (Exception e) {
            JsonNode id = tree.isObject() ? tree.get("id") : null;
            writeError(id, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
            return;
        }
        inFlight.incrementAndGet();
        session.handle(message)
                .doFinally(signal -> {
                    if (inFlight.decrementAndGet() == 0) {
                        synchronized (drainLock) {
                            drainLock.notifyAll();
                        }
                    }
                })
                .subscribe(v -> {}, err -> LOG.warn("error handling a message: {}", err.toString()));
    }

    private void drainAndTerminate() {
        long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
        synchronized (drainLock) {
            while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                try {
                    drainLock.wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (inFlight.get() > 0)
            LOG.warn("stdin closed; {} request(s) still running after the drain limit", inFlight.get());
        closing.set(true);
        McpServerSession s = session;
        if (s != null) s.close();
        terminated.countDown();
    }

    private void writeError(JsonNode id, int code, String message) {
        writeLine(JsonRpcInspector.errorResponse(id, code, message).toString());
    }

    private void writeLine(String json) {
        byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (out) {
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                if (!closing.get()) LOG.warn("cannot write to stdout: {}", e.getMessage());
            }
        }
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession s = session;
        return s == null ? Mono.error(new IllegalStateException("no session")) : s.sendNotification(method, params);
    }

    /**
     * One client, one session: what the SDK sends to a session (resources/updated to a subscriber) goes to it.
     * The SDK's default refuses, which left stdio subscribers without a single resources/updated.
     */
    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        McpServerSession s = session;
        if (s == null) return Mono.error(new IllegalStateException("no session"));
        if (!s.getId().equals(sessionId))
            return Mono.error(new IllegalStateException("no session " + sessionId + " on stdio"));
        return s.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        McpServerSession s = session;
        return s == null ? Mono.empty() : s.closeGracefully();
    }

    private final class SessionTransport implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> {
                try {
                    // Jackson never emits raw newlines inside a JSON text, so one message is one line
                    writeLine(mapper.writeValueAsString(message));
                } catch (IOException e) {
                    throw new IllegalStateException("cannot serialise a JSON-RPC message", e);
                }
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return mapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(() -> closing.set(true));
        }

        @Override
        public void close() {
            closing.set(true);
        }

        @Override
        public List<String> protocolVersions() {
            return StdioTransport.this.protocolVersions();
        }
    }
}
