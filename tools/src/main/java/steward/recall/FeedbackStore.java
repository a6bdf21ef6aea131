package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;

/**
 * Outcomes reported for injected items ({@code <state dir>/recall/feedback.json}): per URI the counts of
 * used / ignored / harmful / corrected, and the last entries (bounded). Harmful items are gated from then
 * on; ignored and corrected ones are down-weighted; used ones get a small boost.
 */
public final class FeedbackStore {
    public static final Set<String> OUTCOMES = Set.of("used", "ignored", "harmful", "corrected");
    static final int MAX_ENTRIES = 1000;

    public record Counts(int used, int ignored, int harmful, int corrected) {
        static final Counts NONE = new Counts(0, 0, 0, 0);

        Counts plus(String outcome) {
            switch (outcome) {
                case "used": return new Counts(used + 1, ignored, harmful, corrected);
                case "ignored": return new Counts(used, ignored + 1, harmful, corrected);
                case "harmful": return new Counts(used, ignored, harmful + 1, corrected);
                default: return new Counts(used, ignored, harmful, corrected + 1);
            }
        }

        /** Multiplier on an item's importance: used +10 % each (≤ 1.3), ignored ×0.85 each, corrected ×0.6 each, floor 0.3. */
        public double factor() {
            double f = Math.min(1.3, 1.0 + 0.1 * used) * Math.pow(0.85, ignored) * Math.pow(0.6, corrected);
            if (harmful > 0) f *= 0.3;
            return Math.max(0.3, f);
        }
    }

    public record Entry(String decision_id, String uri, String outcome, String at) {}

    public record State(Map<String, Counts> items, List<Entry> entries) {}

    private final Path file;
    private State state;
    private long loadedMtime = -1;

    public FeedbackStore(Path recallDir) {
        this.file = recallDir.resolve("feedback.json");
    }

    public synchronized State state() {
        try {
            long m = Files.exists(file) ? Files.getLastModifiedTime(file).toMillis() : 0;
            if (state == null || m != loadedMtime) {
                state = Files.exists(file) ? Json.MAPPER.readValue(Files.readAllBytes(file), State.class)
                        : new State(new LinkedHashMap<>(), new ArrayList<>());
                loadedMtime = m;
            }
            return state;
        } catch (IOException | RuntimeException e) {
            throw new StewardError("recall_feedback", "cannot read " + file + ": " + e.getMessage());
        }
    }

    public Counts counts(String uri) {
        return state().items().getOrDefault(uri, Counts.NONE);
    }

    public boolean harmful(String uri) {
        return counts(uri).harmful() > 0;
    }

    /** Records one outcome for each URI; returns the new counts per URI. */
    public synchronized Map<String, Counts> record(String decisionId, List<String> uris, String outcome, Clock clock) {
        if (!OUTCOMES.contains(outcome)) throw new StewardError("recall_feedback", "unknown outcome '" + outcome + "'");
        State s = state();
        Map<String, Counts> items = new LinkedHashMap<>(s.items());
        List<Entry> entries = new ArrayList<>(s.entries());
        Map<String, Counts> out = new LinkedHashMap<>();
        String at = Instant.now(clock).toString();
        for (String uri : uris) {
            Counts c = items.getOrDefault(uri, Counts.NONE).plus(outcome);
            items.put(uri, c);
            out.put(uri, c);
            entries.add(new Entry(decisionId, uri, outcome, at));
        }
        while (entries.size() > MAX_ENTRIES) entries.remove(0);
        State next = new State(items, entries);
        try {
            AtomicFiles.write(file, Json.MAPPER.writeValueAsBytes(next));
            state = next;
            loadedMtime = Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            throw new StewardError("recall_feedback", "cannot write " + file + ": " + e.getMessage());
        }
        return out;
    }

    /** Injection precision: used / all judged outcomes (null when nothing was judged yet). */
    public Double precision() {
        int used = 0, all = 0;
        for (Counts c : state().items().values()) {
            used += c.used();
            all += c.used() + c.ignored() + c.harmful() + c.corrected();
        }
        return all == 0 ? null : (double) used / all;
    }

    public int judged() {
        int all = 0;
        for (Counts c : state().items().values()) all += c.used() + c.ignored() + c.harmful() + c.corrected();
        return all;
    }
}
