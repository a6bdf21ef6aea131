package steward.learning;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;

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

    /**
     * Reads the store; a property this build does not model is kept (PreferenceData's {@code unknown} maps), its numbers
     * to their last digit (a float is read as a decimal, not a double), so that a rewrite gives it back as it was.
     */
    private static final ObjectReader READER =
            Json.MAPPER.readerFor(PreferenceData.class).with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

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
                    "preferences: cannot read " + file() + ": " + steward.state.IoErrors.describe(e)
                            + "; learning is paused and the file is left as it is");
        }
        try {
            PreferenceData d = READER.readValue(bytes);
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
            String damaged = damaged(d);
            if (damaged != null) throw new IllegalArgumentException(damaged);
            return new Snapshot(d, true, null);
        } catch (RuntimeException e) {
            String why = Json.problem(e); // plain words, never the parser's class names
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
        if (d.session_level.retain == null) d.session_level.retain = new ArrayList<>();
        if (d.session_level.delete == null) d.session_level.delete = new ArrayList<>();
        if (d.session_level.rename == null) d.session_level.rename = new ArrayList<>();
        if (d.session_level.rejected == null) d.session_level.rejected = new ArrayList<>();
        if (d.topic_level.precheck == null) d.topic_level.precheck = new ArrayList<>();
        if (d.topic_level.consolidated == null) d.topic_level.consolidated = new ArrayList<>();
        if (d.topic_level.not_yet == null) d.topic_level.not_yet = new ArrayList<>();
        if (d.active_threshold < PreferenceData.MIN_THRESHOLD || d.active_threshold > PreferenceData.MAX_THRESHOLD) {
            d.active_threshold =
                    Math.max(PreferenceData.MIN_THRESHOLD, Math.min(PreferenceData.MAX_THRESHOLD, d.active_threshold));
        }
    }

    /**
     * What makes a parsed store one that learning did not write (a hand edit, a damaged file): an entry that is null or
     * has no session id, rule condition or topic, a count below zero, a date that is not yyyy-MM-dd. Such a store is not
     * used at all (no preference, so nothing runs automatically because of it) and is left as it is. Null when sound.
     */
    static String damaged(PreferenceData d) {
        for (var e : List.of(
                Map.entry("retain", d.session_level.retain),
                Map.entry("delete", d.session_level.delete),
                Map.entry("rename", d.session_level.rename),
                Map.entry("rejected", d.session_level.rejected))) {
            for (PreferenceData.SessionMark m : e.getValue()) {
                if (m == null || blank(m.id))
                    return "session_level." + e.getKey() + " has an entry without a session id";
                if (m.stale_runs < 0) return "session_level." + e.getKey() + ": " + m.id + " has stale_runs below zero";
                if (m.stale_since != null && !day(m.stale_since))
                    return "session_level." + e.getKey() + ": " + m.id + " has an invalid stale_since (yyyy-MM-dd)";
                if (e.getKey().equals("rejected") && !day(m.date))
                    return "session_level.rejected: " + m.id + " has no valid date (yyyy-MM-dd)";
            }
        }
        for (var e : d.rule_level.entrySet()) {
            PreferenceData.RuleState s = e.getValue();
            if (blank(e.getKey()) || s == null)
                return "rule_level has an empty entry" + (blank(e.getKey()) ? "" : " for " + e.getKey());
            int[] counts = {
                s.approvals,
                s.approval_runs,
                s.vetoes,
                s.extra_deletes,
                s.unanswered,
                s.auto_runs,
                s.restores,
                s.renames,
                s.withdrawn,
                s.runs,
                s.contradictions,
                s.vetoes_since_approval,
                s.veto_runs_since_approval,
                s.not_yet
            };
            for (int c : counts) if (c < 0) return "rule_level." + e.getKey() + " has a count below zero";
        }
        for (var e : List.of(
                Map.entry("consolidated", d.topic_level.consolidated), Map.entry("not_yet", d.topic_level.not_yet))) {
            for (PreferenceData.TopicMark m : e.getValue()) {
                if (m == null || blank(m.topic)) return "topic_level." + e.getKey() + " has an entry without a topic";
                if (e.getKey().equals("not_yet") && !day(m.date))
                    return "topic_level.not_yet: \"" + m.topic + "\" has no valid date (yyyy-MM-dd)";
            }
        }
        if (d.topic_level.precheck.contains(null)) return "topic_level.precheck has an empty entry";
        for (PreferenceData.Waiting w : d.waiting) {
            if (w == null || blank(w.session_id) || blank(w.key))
                return "waiting has an entry without a session id or rule condition";
            if (w.later_until != null && !day(w.later_until))
                return "waiting: " + w.session_id + " has an invalid later_until (yyyy-MM-dd)";
        }
        if (d.feedback_contradictions.contains(null) || d.runs.contains(null) || d.changes.contains(null))
            return "feedback_contradictions, runs or changes has an empty entry";
        return null;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static boolean day(String s) {
        if (s == null) return false;
        try {
            LocalDate.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
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
