package steward.server.http;

import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import steward.json.Json;
import steward.server.McpServerFactory;
import steward.server.protocol.Cancellations;
import steward.server.protocol.JsonRpcInspector;
import tools.jackson.databind.JsonNode;

/**
 * Everything a request passes before it reaches the MCP servlets, in this order:
 * <ol>
 * <li>Host and Origin must name an allowed host (DNS-rebinding protection) — else 403;</li>
 * <li>the bearer token, when one is configured — else 401 with {@code WWW-Authenticate: Bearer};</li>
 * <li>a POST body larger than the limit — 413;</li>
 * <li>JSON-RPC inspection: {@code notifications/cancelled} marks the request cancelled (the SDK ignores
 * it), and a {@code tools/call} gets its JSON-RPC id in {@code _meta} so the running call can find its
 * cancellation flag.</li>
 * </ol>
 * Neither the token nor the Authorization header is ever logged.
 */
public final class SecurityFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(SecurityFilter.class);

    private final transient BearerToken token;
    private final Set<String> allowedHosts;
    private final int maxBytes;
    private final transient Cancellations cancellations;

    public SecurityFilter(HttpOptions options, Cancellations cancellations) {
        this.token = options.token();
        this.allowedHosts = options.allowedHosts();
        this.maxBytes = options.maxRequestBytes();
        this.cancellations = cancellations;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse servletRes, FilterChain chain)
            throws IOException, ServletException {
        HttpServletResponse res = new HopByHopGuard(servletRes);
        String host = hostName(req.getHeader("Host"));
        if (host == null || !allowedHosts.contains(host)) {
            deny(
                    res,
                    403,
                    "Forbidden: Host header not allowed (DNS-rebinding protection); allowed: "
                            + String.join(", ", allowedHosts));
            return;
        }
        String origin = req.getHeader("Origin");
        if (origin != null && !originAllowed(origin)) {
            deny(
                    res,
                    403,
                    "Forbidden: Origin not allowed (DNS-rebinding protection); allowed hosts: "
                            + String.join(", ", allowedHosts));
            return;
        }
        if (token != null && !token.matches(req.getHeader("Authorization"))) {
            res.setHeader("WWW-Authenticate", "Bearer realm=\"steward\"");
            deny(res, 401, "Unauthorized: missing or wrong bearer token (send Authorization: Bearer <token>)");
            return;
        }
        if (!"POST".equalsIgnoreCase(req.getMethod())) {
            chain.doFilter(req, res);
            return;
        }
        long declared = req.getContentLengthLong();
        if (declared > maxBytes) {
            deny(res, 413, "Payload Too Large: request body over " + maxBytes + " bytes");
            return;
        }
        byte[] body = readBounded(req.getInputStream(), maxBytes);
        if (body == null) {
            deny(res, 413, "Payload Too Large: request body over " + maxBytes + " bytes");
            return;
        }
        JsonNode parsed;
        try {
            parsed = Json.MAPPER.readTree(body);
        } catch (RuntimeException e) {
            // the SDK would answer 400 with its own exception serialized (class names, a stack trace) and no id:
            // answered
            // here as over stdio, under the request's id when a plain scan can still read it
            String text = new String(body, StandardCharsets.UTF_8);
            JsonNode id = JsonRpcInspector.salvagedId(text);
            String msg = JsonRpcInspector.parseErrorMessage(e);
            answer(res, 400, id, -32700, msg);
            return;
        }
        String invalid = JsonRpcInspector.invalidParams(parsed);
        if (invalid != null) {
            // the SDK would answer with its own class names: answered here, under the request's id
            answer(res, 200, parsed.get("id"), -32602, invalid);
            return;
        }
        // what the SDK cannot read (a batch included: MCP has none since 2025-06-18) it would answer with its exception
        // serialized: answered here in plain words, as over stdio
        try {
            McpSchema.deserializeJsonRpcMessage(McpServerFactory.mapper(), new String(body, StandardCharsets.UTF_8));
        } catch (Exception e) {
            answer(
                    res,
                    400,
                    parsed.isObject() ? parsed.get("id") : null,
                    -32600,
                    "Invalid Request: not a JSON-RPC 2.0 message");
            return;
        }
        chain.doFilter(new BufferedRequest(req, inspect(body, sessionId(req))), res);
    }

    /** The host part of a Host header, lower case ("[::1]" keeps its brackets), or null if malformed. */
    static String hostName(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) return null;
        String h = hostHeader.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? null : h.substring(0, end + 1);
        }
        int colon = h.indexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    boolean originAllowed(String origin) {
        try {
            URI u = new URI(origin.strip());
            if (u.getScheme() == null || u.getHost() == null) return false;
            String scheme = u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) return false;
            return allowedHosts.contains(u.getHost().toLowerCase(Locale.ROOT));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static String sessionId(HttpServletRequest req) {
        String h = req.getHeader("Mcp-Session-Id");
        if (h != null && !h.isBlank()) return h;
        String q = req.getQueryString();
        if (q == null) return null;
        for (String part : q.split("&")) {
            if (part.startsWith("sessionId=")) return URLDecoder.decode(part.substring(10), StandardCharsets.UTF_8);
        }
        return null;
    }

    private byte[] inspect(byte[] body, String session) {
        JsonNode tree;
        try {
            tree = Json.MAPPER.readTree(body);
        } catch (RuntimeException e) {
            return body; // not JSON: the transport answers with its own parse error
        }
        return JsonRpcInspector.inspect(tree, session, cancellations) ? Json.MAPPER.writeValueAsBytes(tree) : body;
    }

    static byte[] readBounded(InputStream in, int max) throws IOException {
        byte[] buf = in.readNBytes(max + 1);
        return buf.length > max ? null : buf;
    }

    /** A JSON-RPC error under {@code id} (null unless a string or a number). */
    private static void answer(HttpServletResponse res, int status, JsonNode id, int code, String message)
            throws IOException {
        res.setStatus(status);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.getOutputStream().write(Json.MAPPER.writeValueAsBytes(JsonRpcInspector.errorResponse(id, code, message)));
    }

    private static void deny(HttpServletResponse res, int status, String message) throws IOException {
        LOG.debug("refused a request: {} {}", status, message);
        res.setStatus(status);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        var node = Json.MAPPER.createObjectNode();
        node.put("jsonrpc", "2.0");
        node.putNull("id");
        var err = node.putObject("error");
        err.put("code", status == 401 ? -32001 : status == 403 ? -32003 : -32600);
        err.put("message", message);
        res.getOutputStream().write(Json.MAPPER.writeValueAsBytes(node));
    }

    /**
     * Leaves {@code Connection} and {@code Keep-Alive} to the container. The SDK sets "Connection: keep-alive" on
     * every SSE answer; when Tomcat then ends the connection (its keep-alive request limit) the answer carried both
     * "keep-alive" and "close", a client read the first, reused the closed connection and failed ("header parser
     * received no bytes").
     */
    static final class HopByHopGuard extends HttpServletResponseWrapper {
        HopByHopGuard(HttpServletResponse res) {
            super(res);
        }

        private static boolean hopByHop(String name) {
            return "Connection".equalsIgnoreCase(name) || "Keep-Alive".equalsIgnoreCase(name);
        }

        @Override
        public void setHeader(String name, String value) {
            if (!hopByHop(name)) super.setHeader(name, value);
        }

        @Override
        public void addHeader(String name, String value) {
            if (!hopByHop(name)) super.addHeader(name, value);
        }
    }

    /** The request with its body already read (and possibly rewritten). */
    static final class BufferedRequest extends HttpServletRequestWrapper {
        private final byte[] body;

        BufferedRequest(HttpServletRequest req, byte[] body) {
            super(req);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener l) {
                    throw new IllegalStateException("synchronous reads only");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        }
    }
}
