package steward.learning;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;

/**
 * The learning store: {@code <state dir>/preferences.json}, versioned, written atomically, the previous
 * version kept under {@code backups/preferences/} (newest 2). It is the user's data: a file that cannot be
 * read or parsed is reported and left exactly as it is — learning pauses — and is never silently reset.
 * Updates from several Steward processes are serialised by a lock file and re-read under the lock.
 */
public final class PreferenceStore {
    public static final String FILE = "preferences.json";
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final Path stateDir;
    private final Clock clock;

    public PreferenceStore(Path stateDir, Clock clock) {
        this.stateDir = stateDir;
        this.clock = clock;
    }

    public Path file() {
        return stateDir.resolve(FILE);
    }

    /** A read of the store: the data, or why it cannot be used (then {@code data} holds defaults). */
    public record Snapshot(PreferenceData data, boolean exists, String problem) {
        public boolean usable() {
            return problem == null;
        }

        public Preferences view() {
            return new Preferences(data, problem);
        }
    }

    public Snapshot read() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file());
        } catch (NoSuchFileException e) {
            return new Snapshot(new PreferenceData(), false, null);
        } catch (IOException e) {
            return new Snapshot(
                    new PreferenceData(),
                    true,
                    "preferences: cannot read " + file() + ": " + e.getMessage()
                            + "; learning is paused and the file is left as it is");
        }
        try {
            PreferenceData d = Json.MAPPER.readValue(bytes, PreferenceData.class);
            if (d == null) throw new IllegalArgumentException("empty document");
            if (d.version > PreferenceData.CURRENT_VERSION) {
                return new Snapshot(
                        new PreferenceData(),
                        true,
                        "preferences: " + file() + " has version " + d.version
                                + ", newer than this Steward understands (" + PreferenceData.CURRENT_VERSION
                                + "); learning is paused");
            }
            normalise(d);
            return new Snapshot(d, true, null);
        } catch (RuntimeException e) {
            String why = e.getMessage() == null
                    ? e.getClass().getSimpleName()
                    : e.getMessage().lines().findFirst().orElse("");
            return new Snapshot(
                    new PreferenceData(),
                    true,
                    "preferences: " + file() + " is not a valid preference store (" + why
                            + "); learning is paused and the file is left untouched — fix it, or reset it with session_preferences");
        }
    }

    private static void normalise(PreferenceData d) {
        if (d.session_level == null) d.session_level = new PreferenceData.SessionLevel();
        if (d.rule_level == null) d.rule_level = new LinkedHashMap<>();
        if (d.topic_level == null) d.topic_level = new PreferenceData.TopicLevel();
        if (d.feedback_contradictions == null) d.feedback_contradictions = new ArrayList<>();
        if (d.runs == null) d.runs = new ArrayList<>();
        if (d.changes == null) d.changes = new ArrayList<>();
        if (d.waiting == null) d.waiting = new ArrayList<>();
        if (d.session_level.rejected == null) d.session_level.rejected = new ArrayList<>();
        if (d.active_threshold < PreferenceData.MIN_THRESHOLD || d.active_threshold > PreferenceData.MAX_THRESHOLD) {
            d.active_threshold =
                    Math.max(PreferenceData.MIN_THRESHOLD, Math.min(PreferenceData.MAX_THRESHOLD, d.active_threshold));
        }
    }

    /**
     * Reads, changes and writes the store under its lock. Refused (nothing written) when the store is
     * unusable, unless {@code overrideCorrupt} — used only by an explicit reset — in which case the
     * unreadable file is first preserved as a backup.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public <T> T update(Function<PreferenceData, T> change, boolean overrideCorrupt) {
        try {
            AtomicFiles.ensurePrivateDir(stateDir);
            Path lockFile = stateDir.resolve(FILE + ".lock");
            try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = ch.lock()) {
                AtomicFiles.setMode(lockFile, AtomicFiles.FILE_MODE);
                Snapshot s = read();
                if (!s.usable() && !overrideCorrupt)
                    throw new StewardError("preferences", s.problem().replaceFirst("^preferences: ", ""));
                PreferenceData d = s.usable() ? s.data() : new PreferenceData();
                T result = change.apply(d);
                if (s.exists()) backup();
                AtomicFiles.write(
                        file(), Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(d));
                return result;
            }
        } catch (IOException e) {
            throw new StewardError("preferences", "cannot write " + file() + ": " + e.getMessage(), e);
        }
    }

    private void backup() throws IOException {
        Path dir = stateDir.resolve("backups").resolve("preferences");
        AtomicFiles.ensurePrivateDir(dir);
        AtomicFiles.write(dir.resolve(FILE + "." + STAMP.format(clock.instant())), Files.readAllBytes(file()));
        List<Path> all;
        try (Stream<Path> s = Files.list(dir)) {
            all = s.filter(p -> p.getFileName().toString().startsWith(FILE + "."))
                    .sorted(Comparator.reverseOrder())
                    .toList();
        }
        for (int i = 2; i < all.size(); i++) Files.deleteIfExists(all.get(i));
    }
}
