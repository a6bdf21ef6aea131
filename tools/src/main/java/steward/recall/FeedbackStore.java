package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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
 * <p>One outcome per (decision, item): reporting the same outcome again for an item of a decision changes nothing (the
 * call says it was already recorded), a different one replaces the earlier one in the item's counts and the lane's
 * calibration. A harmful item's normalised text is kept ({@link Identity#normalHash}), so that the harmful gate also
 * drops the same text wherever else it lives. {@link #resetCalibration} forgets the calibration and the weights that
 * outcomes of injections gave items; harmful marks and outcomes given on URIs alone stay.
 * <p>Items are keyed by their content-derived URI. Feedback stored by an earlier release under a positional memory URI
 * ({@code steward://memory/memory/3}) is moved once to the entry now at that position only if the memory file has not
 * changed since that feedback was given (then it is the same entry); otherwise it is set aside as unmapped and applies
 * to nothing, rather than to whatever entry moved into the slot.
 */
public final class FeedbackStore {
    public static final Set<String> OUTCOMES = Set.of("used", "ignored", "harmful", "corrected");
    /** Enough to hold an outcome for every item of every decision the injection log keeps, and 1,000 more. */
    static final int MAX_ENTRIES = InjectEngine.MAX_LOGGED_DECISIONS * InjectEngine.MAX_ITEMS + 1000;
    /** 3: content ids keep meaningful symbols ({@link Identity}); feedback under an id of before moves when unchanged. */
    static final int VERSION = 4; // 4: a confidence prefix is not part of an entry's id
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

        /** These counts less one outcome (never below zero). */
        Counts minus(String outcome) {
            return new Counts(
                    Math.max(0, used - ("used".equals(outcome) ? 1 : 0)),
                    Math.max(0, ignored - ("ignored".equals(outcome) ? 1 : 0)),
                    Math.max(0, harmful - ("harmful".equals(outcome) ? 1 : 0)),
                    Math.max(0, corrected - ("corrected".equals(outcome) ? 1 : 0)));
        }

        /** These counts less the used, ignored and corrected of {@code o} (harmful stays), never below zero. */
        Counts lessWeights(Counts o) {
            return new Counts(
                    Math.max(0, used - o.used),
                    Math.max(0, ignored - o.ignored),
                    harmful,
                    Math.max(0, corrected - o.corrected));
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

    /**
     * One outcome. {@code forgotten}: a calibration reset since dropped what it taught the gate and the item's weight
     * (a harmful mark stays).
     */
    public record Entry(String decision_id, String uri, String outcome, String at, String lane, Boolean forgotten) {
        Entry(String decision_id, String uri, String outcome, String at, String lane) {
            this(decision_id, uri, outcome, at, lane, null);
        }

        boolean isForgotten() {
            return Boolean.TRUE.equals(forgotten);
        }
    }

    /**
     * {@code calibration}: outcomes of injected items per "lane/source"; {@code unmapped}: old positional feedback set
     * aside; {@code injected}: per item, the outcomes of injections (what a calibration reset takes back from its
     * weight); {@code harmful_texts}: per harmful item, the normalised hash of its text.
     */
    public record State(
            Map<String, Counts> items,
            List<Entry> entries,
            Map<String, Counts> calibration,
            Map<String, Counts> unmapped,
            Integer version,
            String calibration_reset_at,
            Map<String, Counts> injected,
            Map<String, Long> harmful_texts) {
        static State empty() {
            return new State(
                    new LinkedHashMap<>(),
                    new ArrayList<>(),
                    new TreeMap<>(),
                    new TreeMap<>(),
                    VERSION,
                    null,
                    new TreeMap<>(),
                    new TreeMap<>());
        }

        State with(Map<String, Counts> items, List<Entry> entries, Map<String, Counts> calibration) {
            return new State(
                    items, entries, calibration, unmapped, VERSION, calibration_reset_at, injected, harmful_texts);
        }
    }

    /** How one URI's outcome was recorded: its counts now, and whether it repeated or replaced an earlier outcome. */
    public record Recorded(Counts counts, boolean already_recorded, String replaced) {}

    /** One lane/source's calibration for steward_status. */
    public record Calibration(String lane, String source, Counts outcomes, double precision, double offset) {}

    private final Path file;
    private final HermesFiles files;
    private State state;
    private String loadedStamp;

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
        String m;
        byte[] bytes;
        try {
            m = AtomicFiles.stamp(file); // another process may have written it since, within the same millisecond
            if (state != null && m.equals(loadedStamp)) return state;
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
        List<Entry> entries = s.entries() == null ? new ArrayList<>() : s.entries();
        s = new State(
                s.items() == null ? new LinkedHashMap<>() : s.items(),
                entries,
                s.calibration() == null ? new TreeMap<>() : s.calibration(),
                s.unmapped() == null ? new TreeMap<>() : s.unmapped(),
                s.version(),
                s.calibration_reset_at(),
                s.injected() == null ? injectedOf(entries) : s.injected(),
                s.harmful_texts() == null ? new TreeMap<>() : s.harmful_texts());
        String why = damage(s);
        if (why != null) throw new Unreadable(why);
        state = s;
        loadedStamp = m;
        if (files != null && (s.version() == null || s.version() < VERSION)) migrate();
        return state;
    }

    /** A file of before {@code injected} was kept: the outcomes of injections its entries still hold. */
    private static Map<String, Counts> injectedOf(List<Entry> entries) {
        Map<String, Counts> out = new TreeMap<>();
        for (Entry e : entries)
            if (e != null && e.decision_id() != null && e.uri() != null && OUTCOMES.contains(e.outcome()))
                out.merge(e.uri(), Counts.NONE.plus(e.outcome()), Counts::plus);
        return out;
    }

    /** What makes a state that is JSON not whole (a null where counts or an entry belong), or null. */
    private static String damage(State s) {
        for (Map<String, Counts> m : List.of(s.items(), s.calibration(), s.unmapped(), s.injected()))
            if (m.containsValue(null)) return "an item without its counts";
        for (Entry e : s.entries())
            if (e == null || e.uri() == null || e.outcome() == null || e.at() == null)
                return "an entry without its item, outcome or time";
        return null;
    }

    /**
     * Moves feedback on positional memory URIs to the entry now there when the file is unchanged since; else sets it
     * aside. Feedback on a memory or log entry's id of before meaningful symbols counted ({@link Identity#legacyId})
     * moves to that entry's id now when its file is unchanged since (then it is the same text); else it stays where it
     * is (it applies to no entry).
     */
    private void migrate() {
        Map<String, Counts> items = new LinkedHashMap<>();
        Map<String, Counts> unmapped = new TreeMap<>(state.unmapped());
        Map<String, String> now = files == null ? Map.of() : files.positionalToStable();
        Map<String, HermesFiles.Moved> moved = files == null ? Map.of() : files.legacyToCurrent();
        Map<String, String> renamed = new LinkedHashMap<>();
        Map<String, Long> rehashed = new HashMap<>(); // a renamed entry's text hashed as now (without its prefix)
        for (Map.Entry<String, Counts> e : state.items().entrySet()) {
            String uri = e.getKey();
            if (!POSITIONAL.matcher(uri).matches()) {
                HermesFiles.Moved m = moved.get(uri);
                String last = lastFeedback(uri);
                if (m != null && last != null && m.fileTime() <= epochSeconds(last)) {
                    renamed.put(uri, m.uri());
                    rehashed.put(m.uri(), m.normalHash());
                    uri = m.uri();
                } else if (m
                        != null) { // the file changed since: the id may now be another entry's, so it applies to none
                    unmapped.merge(uri, e.getValue(), Counts::plus);
                    continue;
                }
                items.merge(uri, e.getValue(), Counts::plus);
                continue;
            }
            String target = uri.split("/")[3];
            String last = lastFeedback(uri);
            double fileTime = files == null ? Double.MAX_VALUE : HermesFiles.mtime(files.memoryFile(target));
            String stable = now.get(uri);
            if (stable != null && last != null && fileTime <= epochSeconds(last))
                items.merge(stable, e.getValue(), Counts::plus);
            else unmapped.merge(uri, e.getValue(), Counts::plus);
        }
        List<Entry> entries = new ArrayList<>();
        for (Entry en : state.entries())
            entries.add(
                    renamed.containsKey(en.uri())
                            ? new Entry(
                                    en.decision_id(),
                                    renamed.get(en.uri()),
                                    en.outcome(),
                                    en.at(),
                                    en.lane(),
                                    en.forgotten())
                            : en);
        Map<String, Counts> injected = new TreeMap<>();
        for (var e : state.injected().entrySet())
            injected.merge(renamed.getOrDefault(e.getKey(), e.getKey()), e.getValue(), Counts::plus);
        Map<String, Long> texts = new TreeMap<>();
        for (var e : state.harmful_texts().entrySet()) {
            String uri = renamed.getOrDefault(e.getKey(), e.getKey());
            texts.put(uri, rehashed.getOrDefault(uri, e.getValue()));
        }
        state = new State(
                items, entries, state.calibration(), unmapped, VERSION, state.calibration_reset_at(), injected, texts);
        if (Files.exists(file)) write(state);
    }

    /** The time of the newest feedback on this URI, or null. */
    private String lastFeedback(String uri) {
        String last = null;
        for (Entry en : state.entries())
            if (uri.equals(en.uri()) && (last == null || en.at().compareTo(last) > 0)) last = en.at();
        return last;
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
     * Records one outcome for each URI; returns how each was recorded. With a lane (the outcome of an injection
     * decision), each item's outcome also counts towards that lane's calibration for the item's source. With a decision
     * id, an item holds one outcome of that decision: the same again is a no-op, another replaces it. {@code texts}:
     * the normalised hash of each URI's text where known (a harmful one is gated wherever that text lives).
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public synchronized Map<String, Recorded> record(
            String decisionId, String lane, List<String> uris, String outcome, Map<String, Long> texts, Clock clock) {
        if (!OUTCOMES.contains(outcome)) throw new StewardError("recall_feedback", "unknown outcome '" + outcome + "'");
        try (Flock ignored = lock()) {
            return record(fresh(), decisionId, lane, uris, outcome, texts, clock);
        } catch (IOException e) {
            throw new StewardError("recall_feedback", "cannot lock " + lockFile() + ": " + e.getMessage());
        }
    }

    /** {@link #record(String, String, List, String, Map, Clock)} without texts; the counts per URI. */
    public Map<String, Counts> record(String decisionId, String lane, List<String> uris, String outcome, Clock clock) {
        Map<String, Counts> out = new LinkedHashMap<>();
        for (var e : record(decisionId, lane, uris, outcome, Map.of(), clock).entrySet())
            out.put(e.getKey(), e.getValue().counts());
        return out;
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

    private Map<String, Recorded> record(
            State s,
            String decisionId,
            String lane,
            List<String> uris,
            String outcome,
            Map<String, Long> texts,
            Clock clock) {
        Map<String, Counts> items = new LinkedHashMap<>(s.items());
        Map<String, Counts> cal = new TreeMap<>(s.calibration());
        Map<String, Counts> injected = new TreeMap<>(s.injected());
        Map<String, Long> harmfulTexts = new TreeMap<>(s.harmful_texts());
        List<Entry> entries = new ArrayList<>(s.entries());
        Map<String, Recorded> out = new LinkedHashMap<>();
        String at = Instant.now(clock).toString();
        boolean changed = false;
        for (String uri : uris) {
            Entry earlier = null;
            if (decisionId != null)
                for (Entry e : entries) if (decisionId.equals(e.decision_id()) && uri.equals(e.uri())) earlier = e;
            if (earlier != null && earlier.outcome().equals(outcome)) { // a repeat: already counted
                out.put(uri, new Recorded(items.getOrDefault(uri, Counts.NONE), true, null));
                continue;
            }
            changed = true;
            if (earlier != null) { // another outcome for the same item of the same decision: it replaces the earlier
                String was = earlier.outcome();
                entries.remove(earlier);
                // what a reset already took back is not taken again (it keeps only a harmful mark)
                if (!earlier.isForgotten() || was.equals("harmful"))
                    items.computeIfPresent(uri, (k, c) -> c.minus(was));
                if (!earlier.isForgotten()) {
                    injected.computeIfPresent(uri, (k, c) -> c.minus(was));
                    if (earlier.lane() != null)
                        cal.computeIfPresent(earlier.lane() + "/" + kind(uri), (k, c) -> c.minus(was));
                }
            }
            Counts c = items.getOrDefault(uri, Counts.NONE).plus(outcome);
            items.put(uri, c);
            if (decisionId != null) injected.merge(uri, Counts.NONE.plus(outcome), Counts::plus);
            if (c.harmful() > 0 && texts.get(uri) != null) harmfulTexts.put(uri, texts.get(uri));
            if (c.harmful() == 0) harmfulTexts.remove(uri);
            out.put(uri, new Recorded(c, false, earlier == null ? null : earlier.outcome()));
            entries.add(new Entry(decisionId, uri, outcome, at, lane));
            if (lane != null) cal.merge(lane + "/" + kind(uri), Counts.NONE.plus(outcome), Counts::plus);
        }
        if (!changed) return out;
        while (entries.size() > MAX_ENTRIES) entries.remove(0);
        write(new State(items, entries, cal, s.unmapped(), VERSION, s.calibration_reset_at(), injected, harmfulTexts));
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

    /**
     * Forgets what feedback on injections taught the gate: the calibration, and the weight (used, ignored, corrected)
     * those outcomes gave each item. Harmful marks stay, and so do outcomes given on URIs alone. Returns the
     * calibration dropped.
     */
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
        Map<String, Counts> items = new LinkedHashMap<>(s.items());
        for (var e : s.injected().entrySet()) items.computeIfPresent(e.getKey(), (k, c) -> c.lessWeights(e.getValue()));
        items.values().removeIf(c -> c.judged() == 0);
        List<Entry> entries = new ArrayList<>();
        for (Entry e : s.entries())
            entries.add(
                    e.decision_id() == null || e.isForgotten()
                            ? e
                            : new Entry(e.decision_id(), e.uri(), e.outcome(), e.at(), e.lane(), true));
        write(new State(
                items,
                entries,
                new TreeMap<>(),
                s.unmapped(),
                VERSION,
                Instant.now(clock).toString(),
                new TreeMap<>(),
                s.harmful_texts()));
        return dropped;
    }

    private void write(State next) {
        try {
            AtomicFiles.write(file, Json.MAPPER.writeValueAsBytes(next));
            state = next;
            loadedStamp = AtomicFiles.stamp(file);
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
