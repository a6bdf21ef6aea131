package steward.recall;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import steward.Work;

/**
 * The long-lived server's recall worker: one thread at the lowest CPU priority (after a first build, which runs at the
 * calls' priority) that keeps the index fresh (one cheap
 * check per poll: while it runs, the Claude Code home's directories are watched, so the check is a look at the queue of
 * changed paths; a full reconciliation at start and every {@link #RECONCILE_MS}) and embeds waiting texts a batch at a
 * time, without pause while any wait. Tool calls never wait for it: during a first build they search what it has written
 * so far and say how far it is. Stops at a safe point when closed.
 */
public final class BackgroundIndexer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundIndexer.class);
    /** A full comparison of every source this often (catches in-place edits the cheap checks cannot see). */
    public static final long RECONCILE_MS = 10 * 60_000;
    /** Texts embedded per step (about a quarter of a second of work on one core). */
    public static final int BATCH = 32;

    private final RecallEngine engine;
    private final long pollMs;
    private final Thread thread;
    private volatile boolean stop;
    private volatile boolean lowered;
    private volatile String lastError;
    private volatile long embedded;

    public BackgroundIndexer(RecallEngine engine, long pollMs) {
        this.engine = engine;
        this.pollMs = pollMs;
        this.thread = new Thread(this::run, "steward-recall-indexer");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
    }

    public BackgroundIndexer start() {
        engine.keptBy(this);
        engine.watchSources(true); // the first reconciliation lists and registers every directory
        thread.start();
        return this;
    }

    /** Whether the worker still runs (a stopped one leaves syncing to the calls again). */
    boolean alive() {
        return !stop && thread.isAlive();
    }

    /** Ends the current poll's sleep: a call saw a source move. */
    void wake() {
        synchronized (sleeper) {
            woken = true;
            sleeper.notifyAll();
        }
    }

    private final Object sleeper = new Object();
    private boolean woken;

    /** Whether this worker built the index from nothing, at the calls' priority (before lowering its own). */
    boolean builtAtCallPriority() {
        return builtAtCallPriority;
    }

    private volatile boolean builtAtCallPriority;

    /** Whether the worker runs at nice 19 (Linux). */
    public boolean lowPriority() {
        return lowered;
    }

    public String lastError() {
        return lastError;
    }

    /** "index building: n of m (what)" while a sync runs, else null. */
    public String building() {
        double[] p = engine.indexProgress();
        return p == null || p[1] <= 0 ? null : String.format("index building: %d of %d", (long) p[0], (long) p[1]);
    }

    /** Vectors stored by this worker since it started. */
    public long embedded() {
        return embedded;
    }

    private final Work work = new Work() {
        @Override
        public void progress(double done, double total, String message) {
            // the indexer keeps the running sync's progress for callers that wait for it
        }

        @Override
        public boolean cancelled() {
            return stop;
        }
    };

    private void run() {
        // A first build runs at the calls' priority: until it commits, recall answers from part of the history, and at
        // nice 19 on a busy machine (the calls themselves keep it busy) it could take minutes. Everything after it
        // (updates, reconciliations, embedding) runs at the lowest priority.
        boolean first;
        try {
            first = engine.firstBuildPending();
        } catch (RuntimeException e) {
            first = false;
        }
        builtAtCallPriority = first;
        if (!first) lowered = LowPriority.lowerThisThread();
        long lastReconcile = 0;
        while (!stop) {
            boolean busy = false;
            try {
                if (System.currentTimeMillis() - lastReconcile > RECONCILE_MS) {
                    engine.reconcile(work);
                    lastReconcile = System.currentTimeMillis();
                    if (first) {
                        first = false;
                        lowered = LowPriority.lowerThisThread();
                    }
                } else {
                    engine.sync(work);
                }
                int n = engine.embedPending(BATCH, work);
                embedded += n;
                busy = n > 0;
                lastError = null;
            } catch (Work.Cancelled e) {
                return;
            } catch (RuntimeException e) {
                lastError = e.getMessage();
                LOG.debug("recall background: {}", e.toString());
            }
            if (!busy) {
                try {
                    synchronized (sleeper) {
                        if (!woken) sleeper.wait(pollMs);
                        woken = false;
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /**
     * Asks the worker to stop at its next safe point (between texts, between steps, or in its sleep) without
     * interrupting it: an interrupt during a read closes Lucene's file channels under it.
     */
    void stop() {
        stop = true;
        engine.keptBy(null);
        engine.watchSources(false);
        wake();
    }

    /** Waits up to {@code ms} for the worker to end; whether it has. */
    boolean join(long ms) {
        try {
            thread.join(Math.max(1, ms));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    @Override
    public void close() {
        stop();
        join(5000);
    }
}
