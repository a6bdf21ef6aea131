package steward.server.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import steward.json.Json;
import steward.server.protocol.JsonRpcInspector;
import tools.jackson.databind.JsonNode;

/**
 * Applies {@link ResumableStreams} to {@code /mcp}: notes which sessions negotiated 2025-11-25 or
 * later, gives their request streams priming events and resumable event ids, and answers a
 * {@code GET} carrying a {@code Last-Event-ID} of such a stream itself. Runs after {@link SecurityFilter}.
 */
public final class ResumableStreamFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private final transient ResumableStreams streams;

    public ResumableStreamFilter(ResumableStreams streams) {
        this.streams = streams;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        String session = req.getHeader("Mcp-Session-Id");
        switch (req.getMethod().toUpperCase(Locale.ROOT)) {
            case "GET" -> {
                String last = req.getHeader("Last-Event-ID");
                ResumableStreams.Stream s = streams.find(session, last);
                if (s == null && last != null && session != null) {
                    // the SDK cannot replay: rather than hold the GET open forever, say the stream is unknown
                    res.setStatus(404);
                    res.setContentType("application/json");
                    res.setCharacterEncoding("UTF-8");
                    res.getWriter()
                            .write(
                                    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
                                            + "\"message\":\"Last-Event-ID names no resumable stream of this session (finished streams are kept 60 s)\"}}");
                    return;
                }
                if (s == null) {
                    chain.doFilter(req, res);
                    return;
                }
                res.setStatus(200);
                res.setContentType("text/event-stream");
                res.setCharacterEncoding("UTF-8");
                res.setHeader("Cache-Control", "no-cache");
                AsyncContext ctx = req.startAsync();
                ctx.setTimeout(ResumableStreams.RESUME_TIMEOUT_MS);
                s.resume(ResumableStreams.seqOf(last), res.getWriter(), ctx);
            }
            case "DELETE" -> {
                chain.doFilter(req, res);
                if (res.getStatus() < 300) streams.forget(session);
            }
            case "POST" -> post(req, res, chain, session);
            default -> chain.doFilter(req, res);
        }
    }

    private void post(HttpServletRequest req, HttpServletResponse res, FilterChain chain, String session)
            throws IOException, ServletException {
        JsonNode msg;
        try {
            msg = Json.MAPPER.readTree(req.getInputStream());
        } catch (RuntimeException e) {
            chain.doFilter(req, res);
            return;
        }
        if (msg == null || !msg.isObject() || !msg.has("method") || !msg.has("id")) {
            chain.doFilter(req, res);
            return;
        }
        String method = msg.get("method").asString("");
        if (method.equals("initialize")) {
            JsonNode v = msg.path("params").path("protocolVersion");
            boolean resumable = v.isString() && v.asString().compareTo(ResumableStreams.MIN_VERSION) >= 0;
            chain.doFilter(
                    req,
                    resumable
                            ? new HttpServletResponseWrapper(res) {
                                @Override
                                public void setHeader(String name, String value) {
                                    super.setHeader(name, value);
                                    if ("Mcp-Session-Id".equalsIgnoreCase(name)) streams.enable(value);
                                }

                                @Override
                                public void addHeader(String name, String value) {
                                    super.addHeader(name, value);
                                    if ("Mcp-Session-Id".equalsIgnoreCase(name)) streams.enable(value);
                                }
                            }
                            : res);
            return;
        }
        if (!streams.enabled(session)) {
            chain.doFilter(req, res);
            return;
        }
        String tool =
                method.equals("tools/call") ? msg.path("params").path("name").asString(null) : null;
        ResumableStreams.Stream stream = streams.open(session, JsonRpcInspector.idText(msg.get("id")), tool);
        chain.doFilter(req, new HttpServletResponseWrapper(res) {
            private PrintWriter writer;

            @Override
            public synchronized PrintWriter getWriter() throws IOException {
                if (writer != null) return writer;
                String type = getContentType();
                writer = type != null && type.startsWith("text/event-stream")
                        ? stream.attach(super.getWriter())
                        : super.getWriter();
                return writer;
            }
        });
    }
}
