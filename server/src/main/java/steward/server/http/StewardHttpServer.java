package steward.server.http;

import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import steward.StewardError;
import steward.server.McpServerFactory;
import steward.server.ToolRegistry;
import steward.server.tools.ToolContext;

/**
 * Steward over HTTP in an embedded Tomcat: Streamable HTTP at {@code /mcp} and, when asked, the
 * older HTTP+SSE transport at {@code /sse} + {@code /message}. Both serve the same tool registry
 * through their own MCP server; every request first passes the {@link SecurityFilter}.
 */
public final class StewardHttpServer implements AutoCloseable {
    // Tomcat logs through java.util.logging; keep the logger referenced so the level sticks
    private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

    private final Tomcat tomcat;
    private final Path baseDir;
    private final List<McpSyncServer> servers = new ArrayList<>();
    private final int port;
    private final HttpOptions options;

    private StewardHttpServer(Tomcat tomcat, Path baseDir, int port, HttpOptions options) {
        this.tomcat = tomcat;
        this.baseDir = baseDir;
        this.port = port;
        this.options = options;
    }

    public static StewardHttpServer start(
            HttpOptions options, ToolRegistry registry, ToolContext ctx, McpServerFactory.Extras extras) {
        TOMCAT_LOG.setLevel(Level.WARNING);
        Path base;
        try {
            base = Files.createTempDirectory("steward-http-");
        } catch (IOException e) {
            throw new StewardError("http", "cannot create Tomcat's work dir: " + e.getMessage());
        }
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector();
        connector.setPort(options.port());
        connector.setProperty("address", options.bind());
        connector.setProperty("maxSwallowSize", String.valueOf(options.maxRequestBytes()));
        connector.setMaxPostSize(options.maxRequestBytes());
        connector.setXpoweredBy(false);
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", base.toString());
        ErrorReportValve errors = new ErrorReportValve(); // plain error pages: no stack traces, no server version
        errors.setShowReport(false);
        errors.setShowServerInfo(false);
        tomcat.getHost().getPipeline().addValve(errors);

        var streamable = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(McpServerFactory.mapper())
                .mcpEndpoint(HttpOptions.MCP_PATH)
                .maxRequestSize(options.maxRequestBytes())
                .build();
        McpSyncServer mcp = McpServerFactory.build(streamable, registry, ctx, extras);
        Tomcat.addServlet(context, "mcp", streamable).setAsyncSupported(true);
        context.addServletMapping(HttpOptions.MCP_PATH, "mcp");

        StewardHttpServer server;
        List<McpSyncServer> built = new ArrayList<>(List.of(mcp));
        if (options.sse()) {
            @SuppressWarnings(
                    "deprecation") // the SDK deprecates HTTP+SSE (protocol 2024-11-05) with no replacement; --sse
            // exists for old clients
            var sse = HttpServletSseServerTransportProvider.builder()
                    .jsonMapper(McpServerFactory.mapper())
                    .sseEndpoint(HttpOptions.SSE_PATH)
                    .messageEndpoint(HttpOptions.MESSAGE_PATH)
                    .keepAliveInterval(Duration.ofSeconds(30))
                    .maxRequestSize(options.maxRequestBytes())
                    .build();
            built.add(McpServerFactory.build(sse, registry, ctx, extras));
            Tomcat.addServlet(context, "sse", sse).setAsyncSupported(true);
            context.addServletMapping(HttpOptions.SSE_PATH, "sse");
            context.addServletMapping(HttpOptions.MESSAGE_PATH, "sse");
        }

        FilterDef def = new FilterDef();
        def.setFilterName("steward-security");
        def.setFilter(new SecurityFilter(options, McpServerFactory.CANCELLATIONS));
        def.setAsyncSupported("true");
        context.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName("steward-security");
        map.addURLPattern("/*");
        context.addFilterMap(map);
        FilterDef resumable = new FilterDef();
        resumable.setFilterName("steward-resumable-streams");
        resumable.setFilter(new ResumableStreamFilter(ResumableStreams.INSTANCE));
        resumable.setAsyncSupported("true");
        context.addFilterDef(resumable);
        FilterMap resumableMap = new FilterMap();
        resumableMap.setFilterName("steward-resumable-streams");
        resumableMap.addURLPattern(HttpOptions.MCP_PATH);
        context.addFilterMap(resumableMap);

        try {
            tomcat.start();
        } catch (LifecycleException e) {
            throw new StewardError("http " + options.bind() + ":" + options.port(), "cannot start: " + e.getMessage());
        }
        int actual = connector.getLocalPort();
        if (actual <= 0) {
            stopQuietly(tomcat, base);
            throw new StewardError(
                    "http " + options.bind() + ":" + options.port(),
                    "cannot listen (address in use or not available?)");
        }
        server = new StewardHttpServer(tomcat, base, actual, options);
        server.servers.addAll(built);
        return server;
    }

    public int port() {
        return port;
    }

    /** The MCP servers behind the endpoints (Streamable HTTP first, then SSE if enabled). */
    public List<McpSyncServer> servers() {
        return List.copyOf(servers);
    }

    public String url() {
        String host = options.bind().contains(":") ? "[" + options.bind() + "]" : options.bind();
        if (host.equals("0.0.0.0") || host.equals("[::]")) host = "127.0.0.1";
        return "http://" + host + ":" + port + HttpOptions.MCP_PATH;
    }

    /** Blocks until the server is stopped. */
    public void await() {
        tomcat.getServer().await();
    }

    @Override
    public void close() {
        for (McpSyncServer s : servers) {
            try {
                s.closeGracefully();
            } catch (RuntimeException e) {
                // shutting down anyway
            }
        }
        stopQuietly(tomcat, baseDir);
    }

    private static void stopQuietly(Tomcat tomcat, Path base) {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException | RuntimeException e) {
            // shutting down anyway
        }
        try (Stream<Path> s = Files.walk(base)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // temp dir: best effort
        }
    }
}
