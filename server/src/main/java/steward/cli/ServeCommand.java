package steward.cli;

import io.modelcontextprotocol.server.McpSyncServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import steward.StewardError;
import steward.memory.history.History;
import steward.server.McpServerFactory;
import steward.server.StdioTransport;
import steward.server.Tools;
import steward.server.Warmup;
import steward.server.http.BearerToken;
import steward.server.http.HttpOptions;
import steward.server.http.StewardHttpServer;
import steward.server.protocol.MemoryWatcher;
import steward.server.tools.ToolContext;
import steward.state.TempSweep;

@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = "Run the MCP server on stdio (the default command), or over HTTP with --http.")
public final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(
            names = "--http",
            description = "Serve Streamable HTTP at /mcp (and HTTP+SSE at /sse + /message) instead of stdio.")
    boolean http;

    @Option(
            names = "--port",
            paramLabel = "P",
            defaultValue = "" + HttpOptions.DEFAULT_PORT,
            description = "TCP port for --http (default ${DEFAULT-VALUE}; 0 = any free port, printed on stderr).")
    int port;

    @Option(
            names = "--bind",
            paramLabel = "ADDR",
            defaultValue = HttpOptions.DEFAULT_BIND,
            description = "Address to listen on (default ${DEFAULT-VALUE}). A non-loopback address requires a token.")
    String bind;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            description = "File holding the bearer token clients must send (else $" + BearerToken.ENV
                    + "; else no token, loopback only).")
    Path tokenFile;

    @Option(
            names = "--allow-host",
            paramLabel = "HOST",
            description =
                    "Extra host name that Host/Origin headers may carry (repeatable; loopback names are always allowed).")
    List<String> allowHosts = new ArrayList<>();

    @Option(
            names = "--no-sse",
            description =
                    "With --http, do not serve the older HTTP+SSE transport at /sse + /message (served by default).")
    boolean noSse;

    @Option(
            names = "--max-request-bytes",
            paramLabel = "N",
            defaultValue = "" + HttpOptions.DEFAULT_MAX_REQUEST_BYTES,
            description = "Largest request body accepted over HTTP (default ${DEFAULT-VALUE}).")
    int maxRequestBytes;

    @Option(
            names = "--conformance-fixtures",
            hidden = true,
            description = "TEST ONLY: add the MCP conformance suite's fixture tools, resources and prompts.")
    boolean conformanceFixtures;

    @Override
    public Integer call() throws Exception {
        ToolContext ctx = common.context();
        // temp files a killed Steward left (once per process; a CLI command made it already when it came through Main)
        TempSweep.atStart(ctx.paths().stateDir(), ctx.paths().hermesHome());
        McpServerFactory.Extras extras = McpServerFactory.Extras.PRODUCTION;
        if (conformanceFixtures) {
            DevExtension dev = DevExtension.find().orElse(null);
            if (dev == null) {
                System.err.println(
                        "steward serve: --conformance-fixtures needs the bench module on the class path "
                                + "(java -cp server/target/steward.jar:bench/target/steward-bench.jar steward.cli.Main serve ...)");
                return 2;
            }
            extras = dev.conformanceFixtures(ctx);
            LOG.warn("conformance fixtures are ON: test-only tools, resources and prompts are registered");
        }
        // an external change made while no server ran is recorded before anything else; later ones as the watcher sees
        // them
        recordExternal(ctx, "found at startup");
        try (MemoryWatcher watcher = new MemoryWatcher(ctx.paths().memoriesDir(), 250)) {
            watcher.addListener(file -> recordExternal(ctx, "seen by the watcher"));
            if (http) return serveHttp(ctx, extras, watcher);
            var transport = new StdioTransport(McpServerFactory.mapper(), System.in, Printer.out());
            var registry = Tools.registry();
            Warmup.start(registry);
            McpSyncServer server = McpServerFactory.build(transport, registry, ctx, extras);
            McpServerFactory.notifyOnMemoryChange(server, watcher);
            ctx.recall()
                    .startBackground(ctx.paths(), ctx.clock()); // keeps the recall index fresh; calls never wait for it
            LOG.info(
                    "steward {} serving on stdio (hermes home {})",
                    McpServerFactory.VERSION,
                    common.paths().hermesHome());
            transport.awaitTermination();
            server.close();
            if (!NativeExit.stop(ctx.recall())) NativeExit.halt(0); // the model outlived the wait: no ONNX Runtime hook
            return 0;
        }
    }

    /**
     * History of changes made outside Steward, when the user opted in (history.record_external; checked first, so a
     * server without it never loads JGit). A failure is logged, never fatal.
     */
    private static void recordExternal(ToolContext ctx, String how) {
        if (!History.recordExternal(ctx.paths().stateDir())) return;
        try {
            for (String v : new History(ctx.paths(), ctx.clock()).recordExternalChanges(how)) {
                LOG.info("memory history: external change recorded as {} ({})", v.substring(0, 12), how);
            }
        } catch (RuntimeException e) {
            LOG.warn("memory history: cannot record an external change: {}", e.getMessage());
        }
    }

    private int serveHttp(ToolContext ctx, McpServerFactory.Extras extras, MemoryWatcher watcher) {
        HttpOptions options;
        try {
            options = new HttpOptions(
                    bind, port, BearerToken.resolve(tokenFile, System.getenv()), allowHosts, !noSse, maxRequestBytes);
        } catch (StewardError e) {
            System.err.println("steward serve: " + e.getMessage());
            return 2;
        }
        StewardHttpServer server = StewardHttpServer.start(options, Tools.registry(), ctx, extras);
        server.servers().forEach(s -> McpServerFactory.notifyOnMemoryChange(s, watcher));
        ctx.recall().startBackground(ctx.paths(), ctx.clock()); // keeps the recall index fresh; calls never wait for it
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            ctx.recall().close();
                        },
                        "steward-http-stop"));
        LOG.info(
                "steward {} serving Streamable HTTP at {}{} ({}; hermes home {})",
                McpServerFactory.VERSION,
                server.url(),
                options.sse()
                        ? " and HTTP+SSE at " + server.url().replace(HttpOptions.MCP_PATH, HttpOptions.SSE_PATH)
                        : "",
                options.token() != null ? "bearer token required" : "no token: loopback only",
                ctx.paths().hermesHome());
        server.await();
        return 0;
    }
}
