package steward.server;

import java.sql.Connection;
import java.sql.DriverManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import steward.json.Json;
import steward.server.tools.StewardTool;

/**
 * One-time costs that every first tool call would otherwise pay (compiling the input schemas, loading
 * SQLite's native library), started on a background thread as soon as the server exists, so that they
 * overlap with the client's {@code initialize} and {@code tools/list} instead of delaying the first call.
 * Purely an optimisation: it changes no state and a failure is only logged.
 */
public final class Warmup {
    private static final Logger LOG = LoggerFactory.getLogger(Warmup.class);

    private Warmup() {}

    public static void start(ToolRegistry registry) {
        Thread t = new Thread(
                () -> {
                    try {
                        for (StewardTool<?> tool : registry.tools())
                            Schemas.validate(tool.name() + ".input.json", Json.MAPPER.createObjectNode());
                        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
                            c.isValid(1);
                        }
                    } catch (Exception | LinkageError e) {
                        LOG.debug("warm-up skipped: {}", e.toString());
                    }
                },
                "steward-warmup");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }
}
