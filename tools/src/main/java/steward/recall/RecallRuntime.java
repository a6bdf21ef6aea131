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

    /** The shared model (nothing is loaded by asking for it). */
    public synchronized DenseModel model(StewardPaths paths) {
        if (model == null) {
            model = new DenseModel(RecallEngine.recallDir(paths).resolve("model"), settings.embedChars().value(), settings.dense().value());
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
            e = new RecallEngine(paths, clock, RecallEngine.Options.DEFAULT.withDense(settings.dense().value()), model(paths));
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
            w = new BackgroundIndexer(engine(paths, clock), settings.pollMillis().value()).start();
            workers.put(k, w);
        }
        return w;
    }

    /** The background indexer running for this home, or null. */
    public synchronized BackgroundIndexer background(StewardPaths paths, Clock clock) {
        return workers.get(key(paths, clock));
    }

    @Override
    public void close() {
        List<BackgroundIndexer> ws;
        List<RecallEngine> es;
        synchronized (this) {
            ws = new ArrayList<>(workers.values());
            es = new ArrayList<>(engines.values());
            workers.clear();
            engines.clear();
        }
        for (BackgroundIndexer w : ws) w.close();
        for (RecallEngine e : es) e.close();
        synchronized (this) {
            if (model != null) model.close();
            model = null;
        }
    }
}
