package steward.server;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import steward.testing.TestHomes;

/** For end-to-end tests: the real shaded jar, spawned as a child process. */
public final class StewardProcess {
    private StewardProcess() {}

    public static Path jar() {
        String p = System.getProperty("steward.jar");
        Path jar = p != null ? Path.of(p) : TestHomes.repo().resolve("server/target/steward.jar");
        if (!jar.toFile().isFile()) throw new IllegalStateException("steward jar not built: " + jar);
        return jar;
    }

    public static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    public static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(java(), "-jar", jar().toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** An initialized MCP Java SDK client talking to {@code steward serve} over stdio. */
    public static McpSyncClient client(Path hermesHome) {
        ServerParameters params = ServerParameters.builder(java())
                .args("-jar", jar().toString(), "serve", "--hermes-home", hermesHome.toString())
                .build();
        var transport = new WaitingTransport(params);
        transport.setStdErrorHandler(line -> System.err.println("[steward] " + line));
        McpSyncClient client =
                McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        return client;
    }

    /**
     * The SDK's {@code close()} only subscribes to the graceful close and returns at once, so the child could still be
     * writing its state dir when a test's {@code @TempDir} is deleted ("Failed to close extension context" in CI).
     * This transport's close waits until the child has exited.
     */
    private static final class WaitingTransport extends StdioClientTransport {
        WaitingTransport(ServerParameters params) {
            super(params, McpServerFactory.mapper());
        }

        @Override
        public void close() {
            closeGracefully().block(Duration.ofSeconds(30));
        }
    }
}
