package steward.server.protocol;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import steward.Work;

/**
 * {@link Work} for one MCP request: progress becomes {@code notifications/progress} when the caller
 * gave a {@code progressToken} (strictly increasing, sent in order on the request's own stream), and
 * {@link #cancelled()} reads the flag that {@code notifications/cancelled} sets.
 */
public final class ExchangeWork implements Work {
    private static final Logger LOG = LoggerFactory.getLogger(ExchangeWork.class);
    private final McpSyncServerExchange exchange;
    private final Object progressToken;
    private final AtomicBoolean cancelled;
    private double last = Double.NEGATIVE_INFINITY;

    public ExchangeWork(McpSyncServerExchange exchange, Object progressToken, AtomicBoolean cancelled) {
        this.exchange = exchange;
        this.progressToken = progressToken;
        this.cancelled = cancelled;
    }

    @Override
    public synchronized void progress(double done, double total, String message) {
        if (progressToken == null || exchange == null || done <= last) return;
        last = done;
        try {
            exchange.progressNotification(McpSchema.ProgressNotification.builder(progressToken, done)
                    .total(total > 0 ? total : null)
                    .message(message)
                    .build());
        } catch (RuntimeException e) {
            LOG.debug("cannot send progress: {}", e.toString());
        }
    }

    @Override
    public boolean cancelled() {
        return cancelled.get();
    }

    /** Sends a log notification to this client (filtered by its {@code logging/setLevel}); never fails the call. */
    public static void log(McpSyncServerExchange exchange, McpSchema.LoggingLevel level, String message) {
        if (exchange == null) return;
        try {
            exchange.loggingNotification(McpSchema.LoggingMessageNotification.builder(level, message)
                    .logger("steward")
                    .build());
        } catch (RuntimeException e) {
            LOG.debug("cannot send a log notification: {}", e.toString());
        }
    }
}
