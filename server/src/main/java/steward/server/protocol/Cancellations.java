package steward.server.protocol;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which running requests the client gave up on ({@code notifications/cancelled}), which the SDK
 * ignores as shipped. A transport calls {@link #cancel} when it sees the notification; a running
 * tool call holds the flag returned by {@link #register} and its {@link steward.Work} reads it at
 * safe points. Keys are (MCP session id, JSON-RPC request id as text), so clients never collide.
 */
public final class Cancellations {
    /** Where a transport puts the JSON-RPC id of a {@code tools/call} so the handler can find its flag. */
    public static final String REQUEST_ID_META = "dev.steward/request-id";

    private static final int MAX_ORPHANS = 1024;
    private static final long ORPHAN_TTL_NANOS = 60_000_000_000L;

    private record Entry(AtomicBoolean flag, long createdNanos, boolean orphan) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    private static String key(String sessionId, String requestId) {
        return (sessionId == null ? "" : sessionId) + '\u0000' + requestId;
    }

    /** The flag of a request that starts running; already set when the cancellation overtook the request. */
    public AtomicBoolean register(String sessionId, String requestId) {
        if (requestId == null) return new AtomicBoolean();
        return entries.compute(
                        key(sessionId, requestId),
                        (k, old) -> new Entry(old == null ? new AtomicBoolean() : old.flag(), System.nanoTime(), false))
                .flag();
    }

    public void finished(String sessionId, String requestId) {
        if (requestId != null) entries.remove(key(sessionId, requestId));
    }

    /** Marks the request cancelled; returns whether it was running. */
    public boolean cancel(String sessionId, String requestId) {
        if (requestId == null) return false;
        Entry e = entries.computeIfAbsent(
                key(sessionId, requestId), k -> new Entry(new AtomicBoolean(), System.nanoTime(), true));
        e.flag().set(true);
        if (entries.size() > MAX_ORPHANS) purgeOrphans();
        return !e.orphan();
    }

    private void purgeOrphans() {
        long now = System.nanoTime();
        for (Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
            Entry e = it.next().getValue();
            if (e.orphan() && now - e.createdNanos() > ORPHAN_TTL_NANOS) it.remove();
        }
    }

    int size() {
        return entries.size();
    }
}
