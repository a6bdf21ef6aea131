package steward.server.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import steward.json.Json;
import steward.server.protocol.JsonRpcInspector;
import tools.jackson.databind.JsonNode;

/**
 * Resumable POST streams (SEP-1699) on top of the SDK's Streamable HTTP servlet, which has none:
 * for sessions that negotiated protocol 2025-11-25 or later, every SSE response to a request starts
 * with a priming event (an id, a {@code retry} hint, empty data), every event gets a unique id
 * ({@code <stream>_<n>}), and the events are kept for a short while so that a client whose stream
 * was cut can {@code GET} with {@code Last-Event-ID} and receive what it missed, then the rest live.
 */
public final class ResumableStreams {
    private static final Logger LOG = LoggerFactory.getLogger(ResumableStreams.class);
    public static final ResumableStreams INSTANCE = new ResumableStreams();
    public static final String MIN_VERSION = "2025-11-25";
    static final int RETRY_MS = 1000;
    static final int MAX_STREAMS = 256;
    static final int MAX_EVENTS = 1000;
    static final long KEEP_FINISHED_NANOS = TimeUnit.SECONDS.toNanos(60);
    static final long RESUME_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(5);

    private final Set<String> sessions = ConcurrentHashMap.newKeySet();
    private final Map<String, Stream> streams = new ConcurrentHashMap<>();

    ResumableStreams() {}

    /** A session that negotiated a protocol version with resumable streams. */
    void enable(String session) {
        if (session != null) sessions.add(session);
    }

    boolean enabled(String session) {
        return session != null && sessions.contains(session);
    }

    void forget(String session) {
        if (session == null) return;
        sessions.remove(session);
        streams.values().removeIf(s -> s.session.equals(session));
    }

    Stream open(String session, String requestId, String toolName) {
        purge();
        Stream s = new Stream(UUID.randomUUID().toString().replace("-", ""), session, requestId, toolName);
        streams.put(s.id, s);
        return s;
    }

    /** The stream an event id names, if it belongs to {@code session}. */
    Stream find(String session, String lastEventId) {
        if (lastEventId == null || session == null) return null;
        int us = lastEventId.lastIndexOf('_');
        if (us <= 0) return null;
        Stream s = streams.get(lastEventId.substring(0, us));
        return s != null && s.session.equals(session) ? s : null;
    }

    static int seqOf(String lastEventId) {
        try {
            return Integer.parseInt(lastEventId.substring(lastEventId.lastIndexOf('_') + 1));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Cuts the client's POST stream of the running {@code tools/call} of {@code toolName} in this
     * session, as a server may to free the connection; later events wait for a resuming GET.
     */
    public boolean detachToolCall(String session, String toolName) {
        boolean any = false;
        for (Stream s : streams.values()) {
            if (s.session.equals(session) && toolName.equals(s.toolName) && !s.finished) {
                s.detach();
                any = true;
            }
        }
        return any;
    }

    private void purge() {
        long now = System.nanoTime();
        streams.values().removeIf(s -> s.finished && now - s.finishedAt > KEEP_FINISHED_NANOS);
        if (streams.size() >= MAX_STREAMS) {
            for (Iterator<Stream> it = streams.values().iterator(); it.hasNext() && streams.size() >= MAX_STREAMS; ) {
                if (it.next().finished) it.remove();
            }
        }
    }

    /** One POST's SSE stream: what was sent, where it goes now. */
    final class Stream {
        final String id;
        final String session;
        final String requestId;
        final String toolName;
        private final List<String> events = new ArrayList<>(); // event i (1-based) at i-1, without its id line
        private boolean finished;
        private long finishedAt;
        private boolean detached;
        private PrintWriter origin;
        private Writer live;
        private AsyncContext liveContext;

        Stream(String id, String session, String requestId, String toolName) {
            this.id = id;
            this.session = session;
            this.requestId = requestId;
            this.toolName = toolName;
        }

        /** A writer for the SDK that rewrites event ids, records events and writes the priming event now. */
        synchronized PrintWriter attach(PrintWriter real) {
            origin = real;
            real.write("id: " + id + "_0\nretry: " + RETRY_MS + "\ndata: \n\n");
            real.flush();
            return new PrintWriter(new EventWriter(this), false);
        }

        synchronized void detach() {
            if (detached || origin == null) return;
            detached = true;
            try {
                origin.flush();
                origin.close(); // ends the POST response; the SDK keeps writing into this stream's record
            } catch (RuntimeException e) {
                LOG.debug("closing a stream: {}", e.toString());
            }
        }

        synchronized void event(String body) {
            if (events.size() >= MAX_EVENTS) events.set(events.size() - 1, body); // bounded: keep the newest
            else events.add(body);
            String text = "id: " + id + "_" + events.size() + "\n" + body + "\n\n";
            Writer target = detached ? live : origin;
            if (target != null) {
                try {
                    target.write(text);
                    target.flush();
                } catch (IOException e) {
                    LOG.debug("a stream's reader went away: {}", e.toString());
                }
            }
            if (isFinalResponse(body)) {
                finished = true;
                finishedAt = System.nanoTime();
                completeLive();
            }
        }

        private boolean isFinalResponse(String body) {
            if (requestId == null) return false;
            for (String line : body.split("\n")) {
                if (!line.startsWith("data:")) continue;
                try {
                    JsonNode n = Json.MAPPER.readTree(line.substring(5).strip());
                    if ((n.has("result") || n.has("error")) && requestId.equals(JsonRpcInspector.idText(n.get("id"))))
                        return true;
                } catch (RuntimeException e) {
                    return false;
                }
            }
            return false;
        }

        /** Serves a resuming GET: the events after {@code afterSeq}, then the rest as they come. */
        synchronized void resume(int afterSeq, Writer w, AsyncContext ctx) throws IOException {
            for (int i = Math.max(afterSeq, 0); i < events.size(); i++) {
                w.write("id: " + id + "_" + (i + 1) + "\n" + events.get(i) + "\n\n");
            }
            w.flush();
            if (finished) {
                ctx.complete();
                return;
            }
            completeLive();
            live = w;
            liveContext = ctx;
            ctx.addListener(new AsyncListener() {
                @Override
                public void onComplete(AsyncEvent e) {
                    drop(ctx);
                }

                @Override
                public void onTimeout(AsyncEvent e) {
                    drop(ctx);
                }

                @Override
                public void onError(AsyncEvent e) {
                    drop(ctx);
                }

                @Override
                public void onStartAsync(AsyncEvent e) {}
            });
        }

        private synchronized void drop(AsyncContext ctx) {
            if (liveContext == ctx) {
                live = null;
                liveContext = null;
            }
        }

        private void completeLive() {
            if (liveContext != null) {
                try {
                    liveContext.complete();
                } catch (IllegalStateException e) {
                    // already completed
                }
                live = null;
                liveContext = null;
            }
        }
    }

    /** Splits what the SDK writes into SSE events and hands each to its stream without the SDK's id line. */
    static final class EventWriter extends Writer {
        private final Stream stream;
        private final StringBuilder buf = new StringBuilder();

        EventWriter(Stream stream) {
            this.stream = stream;
        }

        @Override
        public void write(char[] c, int off, int len) {
            synchronized (buf) {
                buf.append(c, off, len);
                int end;
                while ((end = buf.indexOf("\n\n")) >= 0) {
                    String event = buf.substring(0, end);
                    buf.delete(0, end + 2);
                    StringBuilder body = new StringBuilder();
                    for (String line : event.split("\n")) {
                        if (line.startsWith("id:")) continue;
                        if (body.length() > 0) body.append('\n');
                        body.append(line);
                    }
                    if (body.length() > 0) stream.event(body.toString());
                }
            }
        }

        @Override
        public void flush() {
            // events are written (and flushed) whole, as soon as they are complete
        }

        @Override
        public void close() {
            flush();
        }
    }
}
