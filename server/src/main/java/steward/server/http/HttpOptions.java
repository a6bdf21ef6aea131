package steward.server.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import steward.StewardError;

/**
 * How {@code steward serve --http} listens. Secure by default: loopback only; a non-loopback
 * address is refused without a token; Host and Origin must name an allowed host.
 *
 * @param bind            address to listen on (default 127.0.0.1)
 * @param port            TCP port (0 = any free port)
 * @param token           bearer token every request must carry, or null (loopback only)
 * @param extraHosts      host names besides loopback and the bind address that Host/Origin may name
 * @param sse             also serve the older HTTP+SSE transport at /sse + /message
 * @param maxRequestBytes largest request body accepted (413 above it)
 */
public record HttpOptions(
        String bind, int port, BearerToken token, List<String> extraHosts, boolean sse, int maxRequestBytes) {
    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final int DEFAULT_PORT = 8765;
    public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
    public static final String MCP_PATH = "/mcp";
    public static final String SSE_PATH = "/sse";
    public static final String MESSAGE_PATH = "/message";

    public HttpOptions {
        if (port < 0 || port > 65535) throw new StewardError("--port", port + " is not a TCP port");
        if (maxRequestBytes < 1024) throw new StewardError("max request size", "must be at least 1024 bytes");
        extraHosts = extraHosts == null ? List.of() : List.copyOf(extraHosts);
        if (!isLoopback(bind) && token == null) {
            throw new StewardError(
                    "--bind " + bind,
                    "refusing to listen on a non-loopback address without a token; " + "give --token-file FILE or set "
                            + BearerToken.ENV);
        }
    }

    public static boolean isLoopback(String address) {
        if (address == null) return false;
        String a = address.strip().toLowerCase(Locale.ROOT);
        if (a.equals("localhost")) return true;
        if (a.startsWith("[") && a.endsWith("]")) a = a.substring(1, a.length() - 1);
        if (!a.matches("[0-9a-f:.]+")) return false; // only literal addresses: never resolve names here
        try {
            return InetAddress.getByName(a).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Host names (lower case, without port) that Host and Origin headers may name. */
    public Set<String> allowedHosts() {
        Set<String> s = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", "[::1]"));
        String b = bind.strip().toLowerCase(Locale.ROOT);
        if (!b.equals("0.0.0.0") && !b.equals("::") && !b.equals("[::]"))
            s.add(b.contains(":") && !b.startsWith("[") ? "[" + b + "]" : b);
        for (String h : extraHosts) s.add(h.strip().toLowerCase(Locale.ROOT));
        return s;
    }
}
