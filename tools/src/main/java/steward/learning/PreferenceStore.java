package steward.learning;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Function;

import steward.StewardError;
import steward.json.Json;
import steward.sessions.rules.Preferences;
import steward.state.AtomicFiles;

/**
 * The preference store {@code <state dir>/preferences.json}: versioned JSON, written atomically, the
 * previous version copied to {@code backups/preferences/} first (newest 2 kept). A corrupt or
 * unreadable store is reported and never touched: learning pauses until the user repairs it.
 * Read-modify-write runs under an exclusive lock on {@code preferences.lock}.
 */
public final class PreferenceStore {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
    private final Path stateDir;

    public PreferenceStore(Path stateDir) {
        this.stateDir = stateDir;
    }

    public Path file() {
        return stateDir.resolve("preferences.json");
    }

    public Path backupDir() {
        return stateDir.resolve("backups").resolve("preferences");
    }

    /** {@code status}: ok, absent (nothing learned yet) or corrupt (with {@code error}; data is null). */
    public record Loaded(String status, String error, PreferenceData data) {
        public boolean usable() {
            return data != null;
        }

        public Preferences preferences() {
            return data == null ? Preferences.NONE : new LearnedPreferences(data);
        }
    }

    public Loaded load() {
        Path f = file();
        if (!Files.exists(f)) return new Loaded("absent", null, new PreferenceData());
        try {
            byte[] bytes = Files.readAllBytes(f);
            PreferenceData d = Json.MAPPER.readValue(bytes, PreferenceData.class);
            if (d == null) return new Loaded("corrupt", f + " is empty or null; learning is paused, the file is left as it is", null);
            if (d.version != PreferenceData.VERSION) {
                return new Loaded("corrupt", f + " has version " + d.version + " (Steward reads " + PreferenceData.VERSION
                        + "); learning is paused, the file is left as it is", null);
            }
            if (d.session_level == null || d.rule_level == null || d.topic_level == null || d.runs == null || d.changes == null
                    || d.feedback_contradictions == null) {
                return new Loaded("corrupt", f + " lacks required sections; learning is paused, the file is left as it is", null);
            }
            return new Loaded("ok", null, d);
        } catch (IOException | RuntimeException e) {
            String m = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            return new Loaded("corrupt", f + " is unreadable (" + m + "); learning is paused, the file is left as it is", null);
        }
    }

    /**
     * Loads, applies {@code change} and saves, under the lock. Refuses (StewardError) when the store is
     * corrupt. Returns what {@code change} returned.
     */
    public <T> T update(String context, Instant now, Function<PreferenceData, T> change) {
        try {
            AtomicFiles.ensurePrivateDir(stateDir);
            Path lock = stateDir.resolve("preferences.lock");
            try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock l = ch.lock()) {
                AtomicFiles.setMode(lock, AtomicFiles.FILE_MODE);
                Loaded loaded = load();
                if (!loaded.usable()) throw new StewardError(context, loaded.error());
                T result = change.apply(loaded.data());
                save(loaded.data(), now);
                return result;
            }
        } catch (IOException e) {
            throw new StewardError(context, "cannot write the preference store " + file() + ": " + e.getMessage(), e);
        }
    }

    private void save(PreferenceData d, Instant now) throws IOException {
        Path f = file();
        if (Files.exists(f)) {
            AtomicFiles.write(backupDir().resolve("preferences." + STAMP.format(now) + ".json"), Files.readAllBytes(f));
            try (var s = Files.list(backupDir())) {
                List<Path> old = s.filter(p -> p.getFileName().toString().startsWith("preferences.")).sorted().toList();
                for (int i = 0; i < old.size() - 2; i++) Files.deleteIfExists(old.get(i));
            }
        }
        AtomicFiles.write(f, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(d));
    }
}
