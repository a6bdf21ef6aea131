package steward.recall;

import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import steward.StewardError;
import steward.config.StewardPaths;

/**
 * Recall as it holds, for steward_status, without building, syncing or writing anything: the index and its counts, dense
 * retrieval from what is true here (the setting, whether the ONNX runtime loads in this process, the vectors stored and
 * waiting), every setting with where it came from, the gate's calibration from feedback, and the background indexer.
 */
public record RecallStatus(
        boolean index_built,
        Map<String, Integer> items,
        boolean dense_enabled,
        String dense,
        String dense_state,
        Integer vectors,
        Integer dense_pending,
        Double injection_precision,
        int feedback_judged,
        String index_path,
        Map<String, RecallSettings.Shown> settings,
        List<String> settings_warnings,
        List<FeedbackStore.Calibration> calibration,
        Background background) {

    /** The background indexer of a long-lived server, when one runs for this home. */
    public record Background(
            boolean running, boolean low_priority, long embedded, String last_error, String building) {}

    public static RecallStatus of(StewardPaths paths, RecallRuntime runtime, Clock clock) {
        Path dir = RecallEngine.recallDir(paths);
        RecallSettings settings = runtime.settings();
        List<String> kinds = RecallItem.KINDS;
        Map<String, Integer> items = new TreeMap<>();
        boolean built;
        Integer vectors = null, pending = null;
        try (RecallIndex idx = new RecallIndex(dir.resolve("index"));
                VectorStore vs = new VectorStore(dir)) {
            built = idx.exists();
            if (built) {
                try {
                    items = idx.counts(kinds);
                } catch (StewardError e) {
                    built = false;
                }
            }
            if (!built) for (String k : kinds) items.put(k, 0);
            if (settings.dense().value()) {
                vectors = vs.size();
                pending = built ? new Embedder(idx, vs, null).pendingNow() : Integer.valueOf(0);
            }
        }
        DenseModel model = runtime.model(paths);
        String state;
        boolean enabled;
        String dense;
        if (!model.enabled()) {
            state = "disabled";
            enabled = false;
            RecallSettings.Setting<Boolean> s = settings.dense();
            dense = "off (" + (s.from() != null ? s.from() + "=off" : "off") + "): lexical BM25F only";
        } else if (model.state() == DenseModel.State.LOADED) {
            state = "loaded";
            enabled = true;
            dense = "on: " + DenseModel.MODEL + " loaded in this process";
        } else if (model.runtimeLoads()) {
            state = "available";
            enabled = true;
            dense = "on: the ONNX runtime loads here; the model is loaded when something is embedded";
        } else {
            state = "failed";
            enabled = false;
            dense = "off: the embedding runtime could not be loaded here (" + model.failure() + "); lexical BM25F only";
        }
        if (enabled && pending != null && pending > 0) dense += "; " + pending + " texts wait for a vector";
        FeedbackStore fb = new FeedbackStore(dir);
        Double precision;
        int judged;
        List<FeedbackStore.Calibration> cal;
        try {
            precision = fb.precision();
            judged = fb.judged();
            cal = fb.calibration();
        } catch (StewardError e) {
            precision = null;
            judged = 0;
            cal = List.of();
        }
        BackgroundIndexer bg = runtime.background(paths, clock);
        Background b = bg == null
                ? null
                : new Background(bg.alive(), bg.lowPriority(), bg.embedded(), bg.lastError(), bg.building());
        return new RecallStatus(
                built,
                items,
                enabled,
                dense,
                state,
                vectors,
                pending,
                precision,
                judged,
                dir.resolve("index").toString(),
                new LinkedHashMap<>(settings.describe()),
                settings.warnings(),
                cal,
                b);
    }
}
