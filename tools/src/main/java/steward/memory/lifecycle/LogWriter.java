package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.memory.Flock;
import steward.memory.MemoryDocument;
import steward.memory.Similarity;
import steward.memory.ThreatScan;
import steward.memory.history.History;
import steward.state.AtomicFiles;
import steward.state.IoErrors;
import steward.text.CodePoints;

/**
 * {@code memory_log}: appends one short note to today's {@code logs/YYYY-MM-DD.md} with the seed's limits: at most
 * {@value #MAX_CHARS} characters, a cooldown of {@value #COOLDOWN_MINUTES} minutes (doubled between 22:00 and
 * 08:00), at most {@value #MAX_PER_DAY} notes a day, no duplicate of the day's notes, threat-scanned, written
 * atomically under Steward's lock on the memory root. Days and night are the user's local time ({@code zone}).
 */
public final class LogWriter {
    public static final int MAX_CHARS = 240;
    public static final int MAX_PER_DAY = 8;
    public static final int COOLDOWN_MINUTES = 30;
    public static final LocalTime NIGHT_FROM = LocalTime.of(22, 0);
    public static final LocalTime NIGHT_TO = LocalTime.of(8, 0);
    static final double DUPLICATE_JACCARD = 0.85;

    private final StewardPaths paths;
    private final MemoryRoot root;
    private final Clock clock;
    private final ZoneId zone;

    public LogWriter(StewardPaths paths, MemoryRoot root, Clock clock, ZoneId zone) {
        this.paths = paths;
        this.root = root;
        this.clock = clock;
        this.zone = zone;
    }

    public record Request(String note, String cwd, String workspace) {}

    public record Result(
            boolean written,
            String refused,
            String file,
            String date,
            String time,
            String workspace,
            int notes_today,
            int max_per_day,
            int cooldown_minutes,
            String next_allowed_at,
            String duplicate_of,
            String message) {}

    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public Result append(Request r) {
        HermesMemoryRoot.requireHome(root, paths, "memory_log");
        String note = r.note() == null
                ? ""
                : CodePoints.pyStrip(
                        r.note().replace("\r\n", "\n").replace('\n', ' ').replace('\r', ' '));
        if (note.isEmpty()) throw new StewardError("memory_log", "note is empty: pass one short sentence");
        int len = CodePoints.length(note);
        if (len > MAX_CHARS) {
            throw new StewardError(
                    "memory_log",
                    "note is " + len + " characters; the limit is " + MAX_CHARS + ": keep one short fact per note");
        }
        var threat = ThreatScan.blockMessage(note);
        if (threat.isPresent()) throw new StewardError("memory_log", threat.get());
        String ws = workspace(r);
        Matcher mark = DailyLog.WORKSPACE_MARK.matcher(note);
        if (ws == null && mark.lookingAt()) {
            // "- HH:MM @name: text" is a partition's note: written to the root, it would never be the root's
            throw new StewardError(
                    "memory_log",
                    "a note in the root log cannot begin with '" + mark.group()
                            + "' (that marks a workspace partition's note); rephrase it, or pass workspace");
        }
        Journal.recover(paths, root.stewardLock());
        LocalDateTime now = LocalDateTime.ofInstant(clock.instant(), zone).truncatedTo(ChronoUnit.MINUTES);
        LocalDate today = now.toLocalDate();
        Path file = DailyLog.file(root, today);
        try (Flock lock = Flock.exclusive(root.stewardLock())) {
            DailyLog.Day day = DailyLog.read(file, today);
            List<DailyLog.Line> notes = day.notes();
            LocalDateTime last = lastNote(day, today);
            int cooldown = cooldown(now);
            if (notes.size() >= MAX_PER_DAY) {
                return refused(
                        "daily_cap",
                        file,
                        today,
                        ws,
                        notes.size(),
                        cooldown,
                        today.plusDays(1).atStartOfDay(),
                        null,
                        MAX_PER_DAY + " notes today already; the next one is allowed tomorrow");
            }
            if (last != null) {
                LocalDateTime next = nextAllowed(last);
                if (now.isBefore(next)) {
                    return refused(
                            "cooldown",
                            file,
                            today,
                            ws,
                            notes.size(),
                            cooldown,
                            next,
                            null,
                            "cooldown: last note at " + last.toLocalTime() + ", next allowed at " + next.toLocalTime()
                                    + (night(next) || night(now) ? " (doubled at night)" : ""));
                }
            }
            for (DailyLog.Line l : notes) {
                if (duplicate(l.text(), note)) {
                    return refused(
                            "duplicate",
                            file,
                            today,
                            ws,
                            notes.size(),
                            cooldown,
                            null,
                            l.text(),
                            "already in today's log at " + l.time() + ": nothing written");
                }
            }
            byte[] before = Files.exists(file) ? Files.readAllBytes(file) : null;
            String text = before == null ? DailyLog.header(today) : MemoryDocument.decodeUtf8(before, file);
            if (!text.isEmpty() && !text.endsWith("\n")) text += "\n";
            text += DailyLog.noteLine(now.toLocalTime(), ws, note) + "\n";
            AtomicFiles.writeString(file, text);
            Map<Path, byte[]> was = new HashMap<>();
            was.put(file, before);
            History.recordQuietly(paths, clock, "memory_log: note " + today + " " + now.toLocalTime(), was);
            LocalDateTime next =
                    notes.size() + 1 >= MAX_PER_DAY ? today.plusDays(1).atStartOfDay() : nextAllowed(now);
            return new Result(
                    true,
                    null,
                    root.relative(file),
                    today.toString(),
                    now.toLocalTime().toString(),
                    ws,
                    notes.size() + 1,
                    MAX_PER_DAY,
                    cooldown,
                    iso(next),
                    null,
                    "noted in " + root.relative(file) + "; next note allowed at " + next.toLocalTime()
                            + (next.toLocalDate().isAfter(today) ? " tomorrow" : ""));
        } catch (IOException e) {
            throw new StewardError("memory_log", "cannot write " + file + ": " + IoErrors.describe(e), e);
        }
    }

    private String workspace(Request r) {
        List<Partitions.Workspace> all = Partitions.list(root);
        if (r.workspace() != null && !r.workspace().isBlank()) {
            Partitions.Workspace w = Partitions.byName(all, r.workspace().strip());
            if (w == null) throw new StewardError("memory_log", "no workspace partition named '" + r.workspace() + "'");
            return w.name();
        }
        if (r.cwd() != null && !r.cwd().isBlank() && !absolute(Partitions.normalise(r.cwd())))
            // a partition is found by its absolute directory: a relative one would never match and the note would land
            // in the root log unasked, as memory_consolidate refuses such a path
            throw new StewardError(
                    "memory_log",
                    "cwd must be an absolute path (got '" + r.cwd().strip() + "')");
        Partitions.Workspace w = Partitions.resolve(all, r.cwd());
        return w == null ? null : w.name();
    }

    /** "/…", or a Windows drive path "C:/…" (backslashes already turned into slashes). */
    private static boolean absolute(String p) {
        return p.startsWith("/") || p.matches("[A-Za-z]:/.*");
    }

    private Result refused(
            String why,
            Path file,
            LocalDate today,
            String ws,
            int n,
            int cooldown,
            LocalDateTime next,
            String dup,
            String msg) {
        return new Result(
                false,
                why,
                root.relative(file),
                today.toString(),
                null,
                ws,
                n,
                MAX_PER_DAY,
                cooldown,
                next == null ? null : iso(next),
                dup,
                msg);
    }

    private String iso(LocalDateTime t) {
        return t.atZone(zone).toOffsetDateTime().toString();
    }

    /** The last note's time, today's or (for a night cooldown across midnight) yesterday's. */
    private LocalDateTime lastNote(DailyLog.Day day, LocalDate today) {
        List<DailyLog.Line> n = day.notes();
        if (!n.isEmpty()) return today.atTime(n.get(n.size() - 1).time());
        DailyLog.Day y = DailyLog.read(DailyLog.file(root, today.minusDays(1)), today.minusDays(1));
        List<DailyLog.Line> yn = y.notes();
        return yn.isEmpty()
                ? null
                : today.minusDays(1).atTime(yn.get(yn.size() - 1).time());
    }

    public static boolean night(LocalDateTime t) {
        LocalTime x = t.toLocalTime();
        return !x.isBefore(NIGHT_FROM) || x.isBefore(NIGHT_TO);
    }

    public static int cooldown(LocalDateTime t) {
        return night(t) ? 2 * COOLDOWN_MINUTES : COOLDOWN_MINUTES;
    }

    /** The first moment after {@code last} at which the cooldown that applies then has passed. */
    public static LocalDateTime nextAllowed(LocalDateTime last) {
        LocalDateTime day = last.plusMinutes(COOLDOWN_MINUTES);
        if (!night(day)) return day;
        LocalDateTime morning = (last.toLocalTime().isBefore(NIGHT_TO)
                        ? last.toLocalDate()
                        : last.toLocalDate().plusDays(1))
                .atTime(NIGHT_TO);
        LocalDateTime nightly = last.plusMinutes(2L * COOLDOWN_MINUTES);
        return !morning.isBefore(day) && morning.isBefore(nightly) ? morning : nightly;
    }

    static boolean duplicate(String a, String b) {
        String x = norm(a), y = norm(b);
        if (x.equals(y)) return true;
        var ta = Similarity.tokens(a);
        var tb = Similarity.tokens(b);
        return ta.size() >= 3 && tb.size() >= 3 && Similarity.jaccard(ta, tb) >= DUPLICATE_JACCARD;
    }

    static String norm(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[\\p{P}\\p{S}\\s]+", " ").strip();
    }
}
