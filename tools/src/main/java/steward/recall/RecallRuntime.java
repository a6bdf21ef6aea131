package steward.recall;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import steward.config.StewardPaths;

/**
 * Recall for one process: its resolved {@link RecallSettings}, the one {@link DenseModel} every engine shares (loaded
 * only when something is embedded), the engines (one per home, state dir and clock; at most {@link #MAX_ENGINES}, the
 * least recently used closed first) and the background indexers a long-lived server starts. Created explicitly by the
 * entry point ({@code steward serve}, {@code steward call}) and handed to the tools; {@link #process()} is that
 * instance for entry points that do not make their own.
 */
public final class RecallRuntime implements AutoCloseable {
    static final int MAX_ENGINES = 8;
    private static RecallRuntime process;

    private final RecallSettings settings;
    private DenseModel model;
    private boolean oneShot;
    private final Map<String, RecallEngine> engines = new LinkedHashMap<>(8, 0.75f, true);
    private final Map<String, BackgroundIndexer> workers = new LinkedHashMap<>();

    public RecallRuntime(RecallSettings settings) {
        this.settings = settings;
    }

    /** The process's runtime, from the environment, made on first use. */
    public static synchronized RecallRuntime process() {
        if (process == null) process = new RecallRuntime(RecallSettings.fromEnvironment());
        return process;
    }

    public RecallSettings settings() {
        return settings;
    }

    /**
     * Marks this runtime as a one-shot process's ({@code steward call}): its model is made {@link DenseModel#lean()},
     * and its engines read the index and the vectors rather than map and keep them. Before the model is made; later it
     * changes nothing.
     */
    public synchronized RecallRuntime oneShot() {
        oneShot = true;
        return this;
    }

    /** The shared model (nothing is loaded by asking for it). */
    public synchronized DenseModel model(StewardPaths paths) {
        if (model == null) {
            model = new DenseModel(
                    RecallEngine.recallDir(paths).resolve("model"),
                    settings.embedChars().value(),
                    settings.dense().value(),
                    oneShot);
        }
        return model;
    }

    private static String key(StewardPaths paths, Clock clock) {
        return paths.hermesHome() + "\u0000" + paths.claudeHome() + "\u0000" + paths.stateDir() + "\u0000" + clock;
    }

    /** The engine for this home, state dir and clock, kept warm across tool calls. */
    public synchronized RecallEngine engine(StewardPaths paths, Clock clock) {
        String k = key(paths, clock);
        RecallEngine e = engines.get(k);
        if (e == null) {
            e = new RecallEngine(
                    paths,
                    clock,
                    RecallEngine.Options.DEFAULT.withDense(settings.dense().value()),
                    model(paths));
            engines.put(k, e);
            if (engines.size() > MAX_ENGINES) {
                var eldest = engines.entrySet().iterator().next();
                if (!workers.containsKey(eldest.getKey())) {
                    eldest.getValue().close();
                    engines.remove(eldest.getKey());
                }
            }
        }
        return e;
    }

    /**
     * Starts the background indexer for this home (once), unless {@code STEWARD_RECALL_BACKGROUND=off}. Returns it, or
     * null when background indexing is off.
     */
    public synchronized BackgroundIndexer startBackground(StewardPaths paths, Clock clock) {
        if (!settings.background().value()) return null;
        String k = key(paths, clock);
        BackgroundIndexer w = workers.get(k);
        if (w == null) {
            w = new BackgroundIndexer(
                            engine(paths, clock), settings.pollMillis().value())
                    .start();
            workers.put(k, w);
        }
        return w;
    }

    /** The background indexer running for this home, or null. */
    public synchronized BackgroundIndexer background(StewardPaths paths, Clock clock) {
        return workers.get(key(paths, clock));
    }

    /** How long {@link #close()} waits for the background indexers and the model's running native call. */
    public static final long CLOSE_WAIT_MS = 20_000;

    @Override
    public void close() {
        close(CLOSE_WAIT_MS);
    }

    /**
     * Stops recall for the rest of the process: every background indexer is told to stop, the model is closed (no
     * ONNX session is made and no text embedded from here on, in any thread) after the native call now running ends,
     * the indexers are joined and the engines closed, all within about {@code waitMs}. Returns whether no native call
     * runs any more; false means one outlived the wait, and the process must exit without ONNX Runtime's own shutdown
     * hook (which frees the runtime under that call: a SIGSEGV). Safe to call again.
     */
    public boolean close(long waitMs) {
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        List<BackgroundIndexer> ws;
        List<RecallEngine> es;
        DenseModel m;
        synchronized (this) {
            ws = new ArrayList<>(workers.values());
            es = new ArrayList<>(engines.values());
            m = model;
            workers.clear();
            engines.clear();
        }
        for (BackgroundIndexer w : ws) w.stop();
        boolean quiet = m == null || m.close(waitMs);
        boolean ended = true;
        for (BackgroundIndexer w : ws) ended &= w.join((deadline - System.nanoTime()) / 1_000_000);
        // an indexer still running (a long write past the wait) keeps its engine open: the process ends under it
        if (ended) for (RecallEngine e : es) e.close();
        return quiet;
    }
}
