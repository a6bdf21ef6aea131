package steward.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;
import steward.state.IoErrors;

/**
 * Steward's per-target overflow / compression history ({@code <state dir>/memory-history.json}) and the
 * consecutive consolidation-failure counter Hermes keeps per turn. Read and written under its own
 * {@code flock} so concurrent writers on both targets never lose an update.
 */
public final class MemoryHistory {
    static final int KEEP = 20;

    public record Overflow(String at, long at_epoch, String kind, int chars, int limit, int needed) {}

    public record Compression(
            String at,
            long at_epoch,
            int before,
            int after,
            double gain_percent,
            int after_percent,
            boolean still_high) {}

    /**
     * {@code pending_contents}: what the last overflowing call tried to write; a later successful write that
     * contains it counts as "compress, then add", and its gain is measured without it.
     */
    public record TargetHistory(
            List<Overflow> overflows,
            boolean pending_overflow,
            List<String> pending_contents,
            List<Compression> compressions,
            int consecutive_high) {
        static TargetHistory empty() {
            return new TargetHistory(List.of(), false, List.of(), List.of(), 0);
        }

        public List<String> pending_contents() {
            return pending_contents == null ? List.of() : pending_contents;
        }
    }

    public record Consolidation(int failures, long last_failure_epoch_ms) {}

    public record File(int version, Consolidation consolidation, Map<String, TargetHistory> targets) {
        static File empty() {
            return new File(1, new Consolidation(0, 0), new LinkedHashMap<>());
        }

        public TargetHistory target(String id) {
            TargetHistory t = targets == null ? null : targets.get(id);
            return t == null ? TargetHistory.empty() : t;
        }

        File with(String id, TargetHistory t) {
            Map<String, TargetHistory> m = new LinkedHashMap<>(targets == null ? Map.of() : targets);
            m.put(id, t);
            return new File(version, consolidation, m);
        }

        File with(Consolidation c) {
            return new File(version, c, targets);
        }
    }

    private final Path path;
    private final Path lock;

    public MemoryHistory(Path stateDir) {
        this.path = stateDir.resolve("memory-history.json");
        this.lock = stateDir.resolve("memory-history.json.lock");
    }

    public File read() {
        try {
            byte[] b = Files.readAllBytes(path);
            File f = Json.MAPPER.readValue(b, File.class);
            if (f.consolidation() == null) f = f.with(new Consolidation(0, 0));
            return f;
        } catch (NoSuchFileException e) {
            return File.empty();
        } catch (IOException | RuntimeException e) {
            // a damaged history only loses advice, never a write: start again
            return File.empty();
        }
    }

    /** Read-modify-write under the history lock. */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public File update(UnaryOperator<File> change) {
        try (Flock l = Flock.exclusive(lock)) {
            File next = change.apply(read());
            AtomicFiles.write(path, Json.MAPPER.writeValueAsBytes(next));
            return next;
        } catch (IOException e) {
            throw new StewardError("memory-history.json", "cannot update " + path + ": " + IoErrors.describe(e), e);
        }
    }

    static <T> List<T> append(List<T> list, T item) {
        List<T> out = new ArrayList<>(list == null ? List.of() : list);
        out.add(item);
        while (out.size() > KEEP) out.remove(0);
        return out;
    }

    static String iso(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }
}
