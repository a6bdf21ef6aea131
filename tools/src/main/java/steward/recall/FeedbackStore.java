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
import java.util.TreeMap;
import java.util.regex.Pattern;
import steward.StewardError;
import steward.json.Json;
import steward.memory.Flock;
import steward.state.AtomicFiles;

/**
 * Outcomes reported through recall_feedback ({@code <state dir>/recall/feedback.json}): per item URI the counts of
 * used / ignored / harmful / corrected (harmful items are gated from then on, ignored and corrected ones down-weighted,
 * used ones boosted a little), the last entries (bounded), and per lane and source the outcomes of injected items,
 * from which the gate's calibration is computed (see {@link #offset}). The user resets the calibration with
 * {@link #resetCalibration}.
 * <p>Items are keyed by their content-derived URI. Feedback stored by an earlier release under a positional memory URI
 * ({@code steward://memory/memory/3}) is moved once to the entry now at that position only if the memory file has not
 * changed since that feedback was given (then it is the same entry); otherwise it is set aside as unmapped and applies
 * to nothing, rather than to whatever entry moved into the slot.
 */
public final class FeedbackStore {
    public static final Set<String> OUTCOMES = Set.of("used", "ignored", "harmful", "corrected");
    static final int MAX_ENTRIES = 1000;
    static final int VERSION = 2;
    /** Precision the gate aims at; with no feedback the calibration is neutral. */
    public static final double TARGET_PRECISION = 0.75;
    /** Weight of the prior (as if this many outcomes at the target precision had been seen). */
    public static final double PRIOR_OUTCOMES = 4;
    /** Threshold shift per unit of precision below (or above) the target, and its bounds. */
    public static final double GAIN = 0.4, MAX_RAISE = 0.15, MAX_LOWER = 0.10;

    private static final Pattern POSITIONAL = Pattern.compile("steward://memory/(memory|user)/\\d{1,6}");

    public record Counts(int used, int ignored, int harmful, int corrected) {
        public static final Counts NONE = new Counts(0, 0, 0, 0);

        Counts plus(String outcome) {
            switch (outcome) {
                case "used":
                    return new Counts(used + 1, ignored, harmful, corrected);
                case "ignored":
                    return new Counts(used, ignored + 1, harmful, corrected);
                case "harmful":
                    return new Counts(used, ignored, harmful + 1, corrected);
                default:
                    return new Counts(used, ignored, harmful, corrected + 1);
            }
        }

        Counts plus(Counts o) {
            return new Counts(used + o.used, ignored + o.ignored, harmful + o.harmful, corrected + o.corrected);
        }

        public int judged() {
            return used + ignored + harmful + corrected;
        }

        /** Multiplier on an item's importance: used +10 % each (≤ 1.3), ignored ×0.85 each, corrected ×0.6 each, floor 0.3. */
        public double factor() {
            double f = Math.min(1.3, 1.0 + 0.1 * used) * Math.pow(0.85, ignored) * Math.pow(0.6, corrected);
            if (harmful > 0) f *= 0.3;
            return Math.max(0.3, f);
        }
    }

    public record Entry(String decision_id, String uri, String outcome, String at, String lane) {}

    /** {@code calibration}: outcomes of injected items per "lane/source"; {@code unmapped}: old positional feedback set aside. */
    public record State(
            Map<String, Counts> items,
            List<Entry> entries,
            Map<String, Counts> calibration,
            Map<String, Counts> unmapped,
            Integer version,
            String calibration_reset_at) {
        static State empty() {
            return new State(new LinkedHashMap<>(), new ArrayList<>(), new TreeMap<>(), new TreeMap<>(), VERSION, null);
        }
    }

    /** One lane/source's calibration for steward_status. */
    public record Calibration(String lane, String source, Counts outcomes, double precision, double offset) {}

    private final Path file;
    private final HermesFiles files;
    private State state;
    private long loadedMtime = -1;

    public FeedbackStore(Path recallDir) {
        this(recallDir, (HermesFiles) null);
    }

    FeedbackStore(Path recallDir, HermesFiles files) {
        this.file = recallDir.resolve("feedback.json");
        this.files = files;
    }

    /** The state as read, or (empty) with why the file cannot be read: {@code problem} is null when it was read. */
    public record Read(State state, String problem) {}

    /** A recall state file that is there but cannot be read, in the words every tool uses for it. */
    public static String unreadable(Path file, String cause) {
        return file + " cannot be read: " + cause + "; fix or remove it";
    }

    /** {@link #unreadable(Path, String)} with what a call did without the file (it is left as it is). */
    public static String unreadable(Path file, String cause, String effect) {
        return file + " cannot be read: " + cause + "; " + effect + "; it is left as it is: fix or remove it";
    }

    /** Why the file cannot be read (it is never written over then: every write first reads it). */
    private static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String cause) {
            super(cause, null, false, false);
        }
    }

    /** The file's state (changes another process wrote are read again); a damaged file throws, naming it. */
    public synchronized State state() {
        Read r = read();
        if (r.problem() != null) throw new StewardError("recall_feedback", unreadable(file, r.problem()));
        return r.state();
    }

    /**
     * The file's state, or an empty one with why the file cannot be read (cut short, not UTF-8, the wrong shape, written
     * by a newer Steward): what ranks and gates reads, so that a damaged file never blocks recall. Never writes a
     * damaged file.
     */
    public synchronized Read read() {
        try {
            return new Read(load(), null);
        } catch (Unreadable u) {
            state = null;
            return new Read(State.empty(), u.getMessage());
        }
    }

    private State load() throws Unreadable {
        long m;
        byte[] bytes;
        try {
            m = Files.exists(file) ? Files.getLastModifiedTime(file).toMillis() : 0;
            if (state != null && m == loadedMtime) return state;
            bytes = Files.exists(file) ? Files.readAllBytes(file) : null;
        } catch (IOException e) {
            throw new Unreadable(Json.problem(e));
        }
        State s;
        try {
            s = bytes == null ? State.empty() : Json.MAPPER.readValue(bytes, State.class);
        } catch (RuntimeException e) {
            throw new Unreadable(Json.problem(e));
        }
        if (s == null) throw new Unreadable("not the JSON Steward writes there (null)");
        if (s.version() != null && s.version() > VERSION)
            // what a newer Steward keeps there would be lost by writing it back as this version
            throw new Unreadable(
                    "written by a newer Steward (version " + s.version() + ", this one reads " + VERSION + ")");
        s = new State(
                s.items() == null ? new LinkedHashMap<>() : s.items(),
                s.entries() == null ? new ArrayList<>() : s.entries(),
                s.calibration() == null ? new TreeMap<>() : s.calibration(),
                s.unmapped() == null ? new TreeMap<>() : s.unmapped(),
                s.version(),
                s.calibration_reset_at());
        String why = damage(s);
        if (why != null) throw new Unreadable(why);
        state = s;
        loadedMtime = m;
        if (files != null && (s.version() == null || s.version() < VERSION)) migrate();
        return state;
    }

    /** What makes a state that is JSON not whole (a null where counts or an entry belong), or null. */
    private static String damage(State s) {
        for (Map<String, Counts> m : List.of(s.items(), s.calibration(), s.unmapped()))
            if (m.containsValue(null)) return "an item without its counts";
        for (Entry e : s.entries())
            if (e == null || e.uri() == null || e.outcome() == null || e.at() == null)
                return "an entry without its item, outcome or time";
        return null;
    }

    /** Moves feedback on positional memory URIs to the entry now there when the file is unchanged since; else sets it aside. */
    private void migrate() {
        Map<String, Counts> items = new LinkedHashMap<>();
        Map<String, Counts> unmapped = new TreeMap<>(state.unmapped());
        Map<String, String> now = files == null ? Map.of() : files.positionalToStable();
        for (Map.Entry<String, Counts> e : state.items().entrySet()) {
            String uri = e.getKey();
            if (!POSITIONAL.matcher(uri).matches()) {
                items.merge(uri, e.getValue(), Counts::plus);
                continue;
            }
            String target = uri.split("/")[3];
            String last = null;
            for (Entry en : state.entries())
                if (uri.equals(en.uri()) && (last == null || en.at().compareTo(last) > 0)) last = en.at();
            double fileTime = files == null ? Double.MAX_VALUE : HermesFiles.mtime(files.memoryFile(target));
            String stable = now.get(uri);
            if (stable != null && last != null && fileTime <= epochSeconds(last))
                items.merge(stable, e.getValue(), Counts::plus);
            else unmapped.merge(uri, e.getValue(), Counts::plus);
        }
        state = new State(items, state.entries(), state.calibration(), unmapped, VERSION, state.calibration_reset_at());
        if (Files.exists(file)) write(state);
    }

    /** An entry's time in epoch seconds; one that is not an ISO instant is before any file (never mapped). */
    private static double epochSeconds(String at) {
        try {
            return Instant.parse(at).toEpochMilli() / 1000.0;
        } catch (java.time.format.DateTimeParseException e) {
            return Double.NEGATIVE_INFINITY;
        }
    }

    public Counts counts(String uri) {
        return state().items().getOrDefault(uri, Counts.NONE);
    }

    public boolean harmful(String uri) {
        return counts(uri).harmful() > 0;
    }

    /**
     * Records one outcome for each URI; returns the new counts per URI. With a lane (the outcome of an injection
     * decision), each item's outcome also counts towards that lane's calibration for the item's source.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public synchronized Map<String, Counts> record(
            String decisionId, String lane, List<String> uris, String outcome, Clock clock) {
        if (!OUTCOMES.contains(outcome)) throw new StewardError("recall_feedback", "unknown outcome '" + outcome + "'");
        try (Flock ignored = lock()) {
            return record(fresh(), decisionId, lane, uris, outcome, clock);
        } catch (IOException e) {
            throw new StewardError("recall_feedback", "cannot lock " + lockFile() + ": " + e.getMessage());
        }
    }

    /**
     * Every change is read, changed and written under {@code feedback.json.lock}, from the file as it is then: another
     * process on this state dir (a server and a steward call) may have recorded since this one last read it.
     */
    private Flock lock() throws IOException {
        return Flock.exclusive(lockFile());
    }

    private Path lockFile() {
        return file.resolveSibling(file.getFileName() + ".lock");
    }

    /** The state read again from the file (what another process wrote is never written over). */
    private State fresh() {
        state = null;
        return state();
    }

    private Map<String, Counts> record(
            State s, String decisionId, String lane, List<String> uris, String outcome, Clock clock) {
        Map<String, Counts> items = new LinkedHashMap<>(s.items());
        Map<String, Counts> cal = new TreeMap<>(s.calibration());
        List<Entry> entries = new ArrayList<>(s.entries());
        Map<String, Counts> out = new LinkedHashMap<>();
        String at = Instant.now(clock).toString();
        for (String uri : uris) {
            Counts c = items.getOrDefault(uri, Counts.NONE).plus(outcome);
            items.put(uri, c);
            out.put(uri, c);
            entries.add(new Entry(decisionId, uri, outcome, at, lane));
            if (lane != null) cal.merge(lane + "/" + kind(uri), Counts.NONE.plus(outcome), Counts::plus);
        }
        while (entries.size() > MAX_ENTRIES) entries.remove(0);
        write(new State(items, entries, cal, s.unmapped(), VERSION, s.calibration_reset_at()));
        return out;
    }

    /** The source kind of a URI: its first segment ("memory", "skill", "session", "log", …), "claude_" + the second for Claude Code's. */
    static String kind(String uri) {
        String rest = uri.startsWith("steward://") ? uri.substring("steward://".length()) : uri;
        int slash = rest.indexOf('/');
        if (slash > 0 && rest.startsWith("claude/")) {
            int next = rest.indexOf('/', slash + 1);
            return "claude_" + rest.substring(slash + 1, next < 0 ? rest.length() : next);
        }
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    /** Forgets the gate's calibration (item outcomes stay); returns what was dropped. */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public synchronized Map<String, Counts> resetCalibration(Clock clock) {
        try (Flock ignored = lock()) {
            return resetCalibration(fresh(), clock);
        } catch (IOException e) {
            throw new StewardError("recall_feedback", "cannot lock " + lockFile() + ": " + e.getMessage());
        }
    }

    private Map<String, Counts> resetCalibration(State s, Clock clock) {
        Map<String, Counts> dropped = new TreeMap<>(s.calibration());
        write(new State(
                s.items(),
                s.entries(),
                new TreeMap<>(),
                s.unmapped(),
                VERSION,
                Instant.now(clock).toString()));
        return dropped;
    }

    private void write(State next) {
        try {
            AtomicFiles.write(file, Json.MAPPER.writeValueAsBytes(next));
            state = next;
            loadedMtime = Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            throw new StewardError("recall_feedback", "cannot write " + file + ": " + e.getMessage());
        }
    }

    /**
     * How much higher (positive) or lower the calibrated score must be for this lane to inject an item of this source:
     * the outcomes' precision, smoothed by a prior of {@link #PRIOR_OUTCOMES} outcomes at {@link #TARGET_PRECISION}, times
     * {@link #GAIN} below the target, bounded to [−{@link #MAX_LOWER}, +{@link #MAX_RAISE}]. No feedback: 0. Ten ignored
     * injections: +0.15 (the bound); ten used: −0.07.
     */
    public double offset(String lane, String source) {
        return offset(state(), lane, source);
    }

    /** {@link #offset(String, String)} in a state already read. */
    public static double offset(State s, String lane, String source) {
        return offset(s.calibration().getOrDefault(lane + "/" + source, Counts.NONE));
    }

    static double offset(Counts c) {
        double p = precision(c);
        return Math.max(-MAX_LOWER, Math.min(MAX_RAISE, GAIN * (TARGET_PRECISION - p)));
    }

    static double precision(Counts c) {
        return (c.used() + TARGET_PRECISION * PRIOR_OUTCOMES) / (c.judged() + PRIOR_OUTCOMES);
    }

    /** Every lane/source with outcomes, for steward_status. */
    public List<Calibration> calibration() {
        List<Calibration> out = new ArrayList<>();
        for (Map.Entry<String, Counts> e : state().calibration().entrySet()) {
            String[] ls = e.getKey().split("/", 2);
            out.add(new Calibration(
                    ls[0],
                    ls.length > 1 ? ls[1] : "",
                    e.getValue(),
                    round3(precision(e.getValue())),
                    round3(offset(e.getValue()))));
        }
        return out;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Injection precision: used / all judged outcomes (null when nothing was judged yet). */
    public Double precision() {
        int used = 0, all = 0;
        for (Counts c : state().items().values()) {
            used += c.used();
            all += c.judged();
        }
        return all == 0 ? null : (double) used / all;
    }

    public int judged() {
        int all = 0;
        for (Counts c : state().items().values()) all += c.judged();
        return all;
    }
}
