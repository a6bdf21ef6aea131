package steward.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import steward.StewardError;
import steward.config.HermesConfig;
import steward.config.StewardPaths;
import steward.memory.history.History;
import steward.state.AtomicFiles;
import steward.state.IoErrors;
import steward.text.CodePoints;

/**
 * The {@code memory_write} engine, byte-compatible with Hermes' {@code memory} tool: the same validation
 * order, messages, result keys and file format; the same exclusive {@code flock} on {@code <file>.lock}
 * with a re-read under it; atomic write (temp + fsync + rename, 0600); Hermes' drift guard. On top:
 * a pre-write snapshot in Steward's state dir, the USER.md single-entry guard, write-approval staging,
 * capacity warnings and the overflow decision tree (history in {@code memory-history.json}).
 */
public final class MemoryWriter {
    /** Hermes counts consolidation failures per agent turn; Steward has no turns, so a quiet gap ends one. */
    public static final Duration TURN_WINDOW = Duration.ofMinutes(10);

    static final int MAX_CONSOLIDATION_FAILURES = 3;
    static final String NOTE = "Write saved. This update is complete — do not repeat it.";
    static final Set<String> COUNTED = Set.of(
            "overflow",
            "replace_overflow",
            "no_match",
            "batch_no_match",
            "batch_error",
            "batch_multiple_match",
            "batch_overflow");
    static final Set<String> SUCCESS = Set.of("success", "duplicate", "batch_success");

    private final StewardPaths paths;
    private final Clock clock;
    private final MemoryHistory history;

    public MemoryWriter(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
        this.history = new MemoryHistory(paths.stateDir());
    }

    public StewardPaths paths() {
        return paths;
    }

    // ---------------------------------------------------------------- config (cached by mtime + size)

    private record CachedConfig(FileTime mtime, long size, HermesConfig cfg) {}

    private static final Map<Path, CachedConfig> CONFIGS = new ConcurrentHashMap<>();

    public HermesConfig config() {
        Path p = paths.configYaml();
        try {
            FileTime mt = Files.getLastModifiedTime(p);
            long size = Files.size(p);
            CachedConfig c = CONFIGS.get(p);
            if (c != null && c.mtime.equals(mt) && c.size == size) return c.cfg;
            HermesConfig cfg = HermesConfig.load(p);
            CONFIGS.put(p, new CachedConfig(mt, size, cfg));
            return cfg;
        } catch (NoSuchFileException e) {
            return HermesConfig.defaults();
        } catch (IOException e) {
            return HermesConfig.load(p);
        }
    }

    // ---------------------------------------------------------------- files

    /** The file's bytes (null when absent) and its parse. */
    public record Loaded(byte[] bytes, MemoryDocument doc) {}

    public static Loaded load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new Loaded(null, MemoryDocument.parse(null));
        } catch (IOException e) {
            throw new StewardError(
                    file.getFileName().toString(), "cannot read " + file + ": " + IoErrors.describe(e), e);
        }
        return new Loaded(bytes, MemoryDocument.parse(MemoryDocument.decodeUtf8(bytes, file)));
    }

    // ---------------------------------------------------------------- entry points

    public MemoryResult write(MemoryRequest r) {
        return write(r, false);
    }

    /** Applies a write the user approved (skips staging; everything else is checked again). */
    public MemoryResult writeApproved(MemoryRequest r) {
        return write(r, true, null);
    }

    /**
     * Applies a write the user approved, as {@link #writeApproved(MemoryRequest)}, after {@code guard} has looked at what
     * it would now do to the file as read under Hermes' lock: a non-null result from it is returned and nothing is
     * written (an approval that would now remove another entry than the one approved).
     */
    public MemoryResult writeApproved(MemoryRequest r, BiFunction<Step, MemoryDocument, MemoryResult> guard) {
        return write(r, true, guard);
    }

    private MemoryResult write(MemoryRequest r, boolean approved) {
        return write(r, approved, null);
    }

    private MemoryResult write(
            MemoryRequest r, boolean approved, BiFunction<Step, MemoryDocument, MemoryResult> guard) {
        if (!paths.hermesPresent()) {
            // never create a Hermes home: a Claude Code user's memory is not Hermes' MEMORY.md
            throw new steward.StewardError(
                    "memory_write",
                    "no Hermes home at " + paths.hermesHome() + ": memory_write writes Hermes' "
                            + "MEMORY.md and USER.md (set --hermes-home or HERMES_HOME); Claude Code's memory is not served by it");
        }
        String targetName = r.target() == null ? "memory" : r.target();
        MemoryTarget t = MemoryTarget.of(targetName);
        if (t == null) {
            return new MemoryResult(
                    "invalid_target",
                    false,
                    ordered(
                            "error",
                            "Invalid target '" + targetName + "'. Use 'memory' or 'user'.",
                            "success",
                            false,
                            "kind",
                            "invalid_target"));
        }
        HermesConfig cfg = config();
        int limit = t.limit(cfg);
        Step pre = precheckArguments(r, t, limit);
        if (pre != null) return finish(t, limit, pre, null, false);
        MemoryRules.Approval approval = approved ? null : MemoryRules.approval(cfg, paths.stateDir());
        if (approval != null && approval.on()) {
            return new MemoryStaging(paths, clock)
                    .stage(r, t, limit, load(t.file(paths)).doc(), approval.why());
        }
        return apply(r, t, limit, guard);
    }

    /** Argument checks that need no lock (Hermes runs them before it locks). Null when the call may proceed. */
    Step precheckArguments(MemoryRequest r, MemoryTarget t, int limit) {
        if (r.isBatch()) {
            for (int i = 0; i < r.operations().size(); i++) {
                MemoryRequest.Op op = r.operations().get(i);
                String act = op == null ? null : op.action();
                String c = op == null ? null : op.content();
                if (("add".equals(act) || "replace".equals(act)) && c != null && !c.isEmpty()) {
                    var threat = MemoryRules.threat(c, t);
                    if (threat.isPresent()) {
                        return fail(
                                "batch_threat",
                                ordered("success", false, "error", "Operation " + (i + 1) + ": " + threat.get()));
                    }
                }
            }
            for (int i = 0; i < r.operations().size(); i++) {
                MemoryRequest.Op op = r.operations().get(i);
                if (op != null && ("add".equals(op.action()) || "replace".equals(op.action()))) {
                    Step s = unwritable(op.content(), "Operation " + (i + 1) + ": ");
                    if (s != null) return s;
                }
            }
            return null;
        }
        String action = r.action();
        if (!"add".equals(action) && !"replace".equals(action) && !"remove".equals(action)) {
            return fail(
                    "invalid_argument",
                    ordered(
                            "error",
                            // Hermes' registry passes a missing action as ""
                            "Unknown action '" + (action == null ? "" : action) + "'. Use: add, replace, remove",
                            "success",
                            false));
        }
        if ("add".equals(action) && isEmpty(r.content())) {
            return fail(
                    "invalid_argument", ordered("error", "Content is required for 'add' action.", "success", false));
        }
        if (!"add".equals(action) && isEmpty(r.old_text())) {
            MemoryDocument doc = load(t.file(paths)).doc();
            int cur = MemoryRules.chars(doc.entries());
            return fail(
                    "missing_old_text",
                    ordered(
                            "success",
                            false,
                            "error",
                            "'" + action + "' needs old_text -- a short unique "
                                    + "substring of the entry to " + action + ". None was provided. Reissue the "
                                    + action
                                    + " with old_text set to part of one of the current_entries below.",
                            "current_entries",
                            doc.entries(),
                            "usage",
                            MemoryRules.shortUsage(cur, limit)));
        }
        if ("replace".equals(action) && isEmpty(r.content())) {
            return fail(
                    "invalid_argument",
                    ordered("error", "content is required for 'replace' action.", "success", false));
        }
        switch (action) {
            case "add" -> {
                String c = MemoryRules.clean(r.content());
                if (c.isEmpty())
                    return fail("invalid_argument", ordered("success", false, "error", "Content cannot be empty."));
                var threat = MemoryRules.threat(c, t);
                if (threat.isPresent()) return fail("threat", ordered("success", false, "error", threat.get()));
            }
            case "replace" -> {
                if (MemoryRules.clean(r.old_text()).isEmpty()) {
                    return fail("invalid_argument", ordered("success", false, "error", "old_text cannot be empty."));
                }
                String c = MemoryRules.clean(r.content());
                if (c.isEmpty()) {
                    return fail(
                            "invalid_argument",
                            ordered(
                                    "success",
                                    false,
                                    "error",
                                    "new_content cannot be empty. Use 'remove' to delete entries."));
                }
                var threat = MemoryRules.threat(c, t);
                if (threat.isPresent()) return fail("threat", ordered("success", false, "error", threat.get()));
            }
            default -> {
                if (MemoryRules.clean(r.old_text()).isEmpty()) {
                    return fail("invalid_argument", ordered("success", false, "error", "old_text cannot be empty."));
                }
            }
        }
        return "remove".equals(action) ? null : unwritable(r.content(), "");
    }

    /**
     * Content that cannot be written as UTF-8 (a lone surrogate, e.g. half of an emoji from a client that cut a UTF-16
     * string): Hermes' write raises and writes nothing; Steward refuses it before the lock (it would write "?").
     */
    static Step unwritable(String content, String prefix) {
        int s = content == null ? -1 : CodePoints.loneSurrogate(content);
        if (s < 0) return null;
        return fail(
                "invalid_argument",
                ordered("success", false, "error", prefix + CodePoints.loneSurrogateRefusal("content", s)));
    }

    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    private MemoryResult apply(
            MemoryRequest r, MemoryTarget t, int limit, BiFunction<Step, MemoryDocument, MemoryResult> guard) {
        Path file = t.file(paths);
        // a file that cannot be read as text at all is refused before its lock file is made: a refused call creates
        // nothing (once the lock file exists, the read under the lock below decides)
        if (!Files.exists(t.lockFile(paths))) load(file);
        try (Flock lock = Flock.exclusive(t.lockFile(paths))) {
            // a temp file a killed Steward left next to the memory file goes (only when its process is gone)
            if (Files.isDirectory(file.getParent())) AtomicFiles.removeStaleTemps(file.getParent());
            Loaded cur = load(file);
            Step s = compute(r, t, limit, cur.doc());
            if (guard != null && s.newEntries != null) {
                MemoryResult refused = guard.apply(s, cur.doc());
                if (refused != null) return refused;
            }
            String backup = null;
            if ("drift".equals(s.kind)) {
                s = driftError(file, cur);
            } else if (s.newEntries != null) {
                Instant now = clock.instant();
                if (cur.bytes() != null) {
                    backup = MemoryBackups.snapshot(paths.stateDir(), t.fileName, cur.bytes(), now)
                            .toString();
                }
                AtomicFiles.writeString(
                        AtomicFiles.throughLinks(file), String.join(MemoryDocument.DELIMITER, s.newEntries));
                Map<Path, byte[]> was = new HashMap<>();
                was.put(file, cur.bytes());
                History.recordQuietly(
                        paths, clock, "memory_write: " + (r.isBatch() ? "batch" : r.action()) + " " + t.fileName, was);
            }
            return finish(t, limit, s, cur.doc(), true, backup);
        } catch (IOException e) {
            throw new StewardError(t.fileName, "cannot write " + file + ": " + IoErrors.describe(e), e);
        }
    }

    // ---------------------------------------------------------------- the pure part (shared with precheck)

    /** What one call would do to {@code doc}: result kind, Hermes record, and the new entries if it writes. */
    public static final class Step {
        final String kind;
        final Map<String, Object> record;
        final List<String> newEntries;
        final int needed;
        final boolean wholeFileGuard;
        List<String> attempted = List.of();

        Step(String kind, Map<String, Object> record, List<String> newEntries, int needed, boolean wholeFileGuard) {
            this.kind = kind;
            this.record = record;
            this.newEntries = newEntries;
            this.needed = needed;
            this.wholeFileGuard = wholeFileGuard;
        }

        Step attempted(List<String> contents) {
            this.attempted = List.copyOf(contents);
            return this;
        }

        public String kind() {
            return kind;
        }

        public Map<String, Object> record() {
            return record;
        }

        public List<String> newEntries() {
            return newEntries;
        }
    }

    static Step fail(String kind, Map<String, Object> record) {
        return new Step(kind, record, null, 0, false);
    }

    /** No entry matched {@code old}: the error, with the current entries to pick the exact text from. */
    private static Step noMatch(String old, List<String> entries, String verb) {
        return fail(
                "no_match",
                ordered(
                        "success",
                        false,
                        "error",
                        "No entry matched '" + old + "'. Check current_entries "
                                + "below and retry with the exact text of the entry you want to " + verb + ".",
                        "current_entries",
                        entries));
    }

    /**
     * A single write of {@code c} that would put the store at {@code total} chars, over {@code limit}: nothing written;
     * the error with the current entries and usage ({@code current} chars) to consolidate from.
     */
    private static Step overLimit(
            String kind, String error, List<String> entries, int current, int limit, int total, String c) {
        return new Step(
                        kind,
                        ordered(
                                "success",
                                false,
                                "error",
                                error,
                                "current_entries",
                                entries,
                                "usage",
                                MemoryRules.shortUsage(current, limit)),
                        null,
                        total - limit,
                        false)
                .attempted(List.of(c));
    }

    public static Step compute(MemoryRequest r, MemoryTarget t, int limit, MemoryDocument doc) {
        List<String> entries = doc.entries();
        if (r.isBatch()) {
            if (doc.drifted(limit)) return fail("drift", null);
            return batch(r, t, limit, doc);
        }
        switch (r.action()) {
            case "add" -> {
                String c = MemoryRules.clean(r.content());
                if (entries.contains(c))
                    return success("duplicate", t, limit, entries, "Entry already exists (no duplicate added).", null);
                List<String> next = new ArrayList<>(entries);
                next.add(c);
                int total = MemoryRules.chars(next);
                if (total > limit) {
                    int current = MemoryRules.chars(entries);
                    return overLimit(
                            "overflow",
                            t.label() + " at " + MemoryRules.n(current) + "/"
                                    + MemoryRules.n(limit) + " chars. Adding this entry ("
                                    + CodePoints.length(c)
                                    + " chars) would exceed the limit. Consolidate now: use 'replace' to merge overlapping entries into shorter "
                                    + "ones or 'remove' stale or less important entries (see current_entries below), then retry this add — all in this turn.",
                            entries,
                            current,
                            limit,
                            total,
                            c);
                }
                return success("success", t, limit, next, "Entry added.", next);
            }
            case "replace" -> {
                if (doc.drifted(limit)) return fail("drift", null);
                String old = MemoryRules.clean(r.old_text());
                String c = MemoryRules.clean(r.content());
                List<Integer> m = MemoryRules.matches(entries, old);
                if (m.isEmpty()) return noMatch(old, entries, "replace");
                if (m.size() > 1 && MemoryRules.distinct(entries, m)) return multiple(old, entries, m);
                List<String> next = new ArrayList<>(entries);
                next.set(m.get(0), c);
                int total = MemoryRules.chars(next);
                if (total > limit) {
                    int current = MemoryRules.chars(entries);
                    String store = t == MemoryTarget.USER ? "the user profile" : "memory";
                    return overLimit(
                            "replace_overflow",
                            "Replacement would put " + store + " at "
                                    + MemoryRules.n(total) + "/" + MemoryRules.n(limit)
                                    + " chars. Shorten the new content, or 'remove' other stale "
                                    + "or less important entries to make room (see current_entries below), then retry — all in this turn.",
                            entries,
                            current,
                            limit,
                            total,
                            c);
                }
                return success("success", t, limit, next, "Entry replaced.", next);
            }
            default -> {
                if (doc.drifted(limit)) return fail("drift", null);
                String old = MemoryRules.clean(r.old_text());
                List<Integer> m = MemoryRules.matches(entries, old);
                if (m.isEmpty()) return noMatch(old, entries, "remove");
                if (m.size() > 1 && MemoryRules.distinct(entries, m)) return multiple(old, entries, m);
                if (MemoryRules.singleEntryUserFile(t, doc) && !r.confirm_whole_file())
                    return wholeFileGuard(t, limit, entries);
                List<String> next = new ArrayList<>(entries);
                next.remove((int) m.get(0));
                return success("success", t, limit, next, "Entry removed.", next);
            }
        }
    }

    private static Step batch(MemoryRequest r, MemoryTarget t, int limit, MemoryDocument doc) {
        List<String> entries = doc.entries();
        List<String> working = new ArrayList<>(entries);
        boolean single = MemoryRules.singleEntryUserFile(t, doc);
        List<MemoryRequest.Op> ops = r.operations();
        List<String> written = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            MemoryRequest.Op op = ops.get(i) == null ? new MemoryRequest.Op(null, null, null) : ops.get(i);
            String act = op.action();
            String content = MemoryRules.clean(op.content());
            String old = MemoryRules.clean(op.old_text());
            String pos = "Operation " + (i + 1) + " (" + (act == null || act.isEmpty() ? "unknown" : act) + ")";
            if ("add".equals(act)) {
                if (content.isEmpty())
                    return batchError("batch_error", t, limit, entries, pos + ": content is required.");
                if (!working.contains(content)) working.add(content);
                written.add(content);
            } else if ("replace".equals(act) || "remove".equals(act)) {
                if (old.isEmpty()) return batchError("batch_error", t, limit, entries, pos + ": old_text is required.");
                if ("replace".equals(act) && content.isEmpty()) {
                    return batchError(
                            "batch_error",
                            t,
                            limit,
                            entries,
                            pos + ": content is required (use action='remove' to delete).");
                }
                List<Integer> m = MemoryRules.matches(working, old);
                if (m.isEmpty())
                    return batchError("batch_no_match", t, limit, entries, pos + ": no entry matched '" + old + "'.");
                if (MemoryRules.distinct(working, m)) {
                    return batchError(
                            "batch_multiple_match",
                            t,
                            limit,
                            entries,
                            pos + ": '" + old + "' matched multiple distinct entries -- be more specific.");
                }
                if ("replace".equals(act)) {
                    working.set(m.get(0), content);
                    written.add(content);
                } else {
                    if (single && !r.confirm_whole_file() && entries.contains(working.get(m.get(0))))
                        return wholeFileGuard(t, limit, entries);
                    working.remove((int) m.get(0));
                }
            } else {
                return batchError(
                        "batch_error", t, limit, entries, pos + ": unknown action. Use add, replace, or remove.");
            }
        }
        int total = MemoryRules.chars(working);
        if (total > limit) {
            int current = MemoryRules.chars(entries);
            String store = t == MemoryTarget.USER ? "the user profile" : "memory";
            return new Step(
                            "batch_overflow",
                            ordered(
                                    "success",
                                    false,
                                    "error",
                                    "After applying all " + ops.size() + " operations, "
                                            + store + " would be at " + MemoryRules.n(total) + "/"
                                            + MemoryRules.n(limit) + " chars -- over the limit. Remove or "
                                            + "shorten more entries in the same batch (see current_entries below), then retry.",
                                    "current_entries",
                                    entries,
                                    "usage",
                                    MemoryRules.shortUsage(current, limit)),
                            null,
                            total - limit,
                            false)
                    .attempted(written);
        }
        return success("batch_success", t, limit, working, "Applied " + ops.size() + " operation(s).", working);
    }

    private static Step batchError(String kind, MemoryTarget t, int limit, List<String> entries, String message) {
        return fail(
                kind,
                ordered(
                        "success",
                        false,
                        "error",
                        message + " No operations were applied (batch is all-or-nothing).",
                        "current_entries",
                        entries,
                        "usage",
                        MemoryRules.shortUsage(MemoryRules.chars(entries), limit)));
    }

    private static Step multiple(String old, List<String> entries, List<Integer> m) {
        List<String> previews = new ArrayList<>();
        for (int i : m) previews.add(MemoryRules.preview(entries.get(i)));
        return fail(
                "multiple_match",
                ordered(
                        "success",
                        false,
                        "error",
                        "Multiple entries matched '" + old + "'. Be more specific.",
                        "matches",
                        previews));
    }

    private static Step wholeFileGuard(MemoryTarget t, int limit, List<String> entries) {
        return new Step(
                "whole_file_guard",
                ordered(
                        "success",
                        false,
                        "error",
                        "Refusing to remove: " + t.fileName
                                + " is stored as a single entry (no '§' delimiter lines), so this remove would delete the whole user profile. "
                                + "To change the profile use 'replace' with the complete new text (old_text may be any part of it); to really "
                                + "delete it, retry with confirm_whole_file: true.",
                        "current_entries",
                        entries,
                        "usage",
                        MemoryRules.shortUsage(MemoryRules.chars(entries), limit)),
                null,
                0,
                true);
    }

    private static Step success(
            String kind, MemoryTarget t, int limit, List<String> finalEntries, String message, List<String> write) {
        int current = MemoryRules.chars(finalEntries);
        return new Step(
                kind,
                ordered(
                        "success",
                        true,
                        "done",
                        true,
                        "target",
                        t.id,
                        "usage",
                        MemoryRules.usage(current, limit),
                        "entry_count",
                        finalEntries.size(),
                        "message",
                        message,
                        "note",
                        NOTE),
                write == null ? null : List.copyOf(write),
                0,
                false);
    }

    private Step driftError(Path file, Loaded cur) throws IOException {
        long ts = clock.instant().getEpochSecond();
        Path bak = file.resolveSibling(file.getFileName() + ".bak." + ts);
        String bakPath;
        try {
            AtomicFiles.write(bak, cur.bytes());
            bakPath = bak.toString();
        } catch (IOException e) {
            bakPath = bak + " (BACKUP FAILED — file unchanged on disk)";
        }
        return fail(
                "drift",
                ordered(
                        "success",
                        false,
                        "error",
                        "Refusing to write " + file.getFileName() + ": file on disk has content "
                                + "that wouldn't round-trip through the memory tool (likely added by the patch tool, a shell append, a manual edit, "
                                + "or a concurrent session). A snapshot was saved to " + bakPath
                                + ". Resolve the drift first — either rewrite the "
                                + "file as a clean §-delimited list of entries, or move the extra content out — then retry. This guard exists to "
                                + "prevent silent data loss (issue #26045).",
                        "drift_backup",
                        bakPath,
                        "remediation",
                        "Open the .bak file, integrate "
                                + "the missing entries into the memory tool one at a time via memory(action=add, content=...), then remove or rewrite "
                                + "the original file to a clean state."));
    }

    // ---------------------------------------------------------------- Steward's additions

    private MemoryResult finish(MemoryTarget t, int limit, Step s, MemoryDocument before, boolean recordHistory) {
        return finish(t, limit, s, before, recordHistory, null);
    }

    private MemoryResult finish(
            MemoryTarget t, int limit, Step s, MemoryDocument before, boolean recordHistory, String backup) {
        Map<String, Object> rec = new LinkedHashMap<>(s.record);
        if (before == null) {
            try {
                before = load(t.file(paths)).doc();
            } catch (StewardError e) {
                before = null;
            }
        }
        List<String> finalEntries = s.newEntries != null ? s.newEntries : before == null ? List.of() : before.entries();
        int chars = MemoryRules.chars(finalEntries);
        int beforeChars = before == null ? 0 : MemoryRules.chars(before.entries());
        boolean success = Boolean.TRUE.equals(rec.get("success"));

        MemoryHistory.File hist = null;
        MemoryHistory.Compression lastCompression = null;
        if (recordHistory) {
            HistoryUpdate hu = recordHistory(t, limit, s, beforeChars, chars);
            hist = hu.file();
            lastCompression = hu.compression();
        }

        if (hist != null && hist.consolidation().failures() > MAX_CONSOLIDATION_FAILURES && COUNTED.contains(s.kind)) {
            int n = hist.consolidation().failures();
            Map<String, Object> cap = ordered(
                    "success",
                    false,
                    "done",
                    true,
                    "error",
                    "Memory consolidation failed " + n
                            + " times this turn. Stop retrying memory calls — leave memory unchanged for now and continue with your reply "
                            + "to the user. The fact can be saved in a later turn.");
            cap.put("kind", "consolidation_cap");
            cap.put("capacity", capacity(t, chars, limit, finalEntries.size()));
            return new MemoryResult("consolidation_cap", false, cap);
        }

        rec.put("kind", s.kind);
        rec.put("capacity", capacity(t, chars, limit, finalEntries.size()));
        List<String> warnings = new ArrayList<>();
        if (chars > limit) {
            warnings.add(t.fileName + " is over its limit (" + MemoryRules.n(chars) + "/" + MemoryRules.n(limit)
                    + " chars): compress it before adding anything.");
        } else if (MemoryRules.nearLimit(chars, limit)) {
            warnings.add(MemoryRules.nearLimitWarning(t, chars, limit));
        }
        if (t == MemoryTarget.USER
                && before != null
                && ("success".equals(s.kind) || "batch_success".equals(s.kind))
                && s.newEntries != null
                && MemoryRules.singleEntryUserFile(t, before)
                && s.newEntries.size() > 1) {
            warnings.add("USER.md was a single entry; this write added the '§' delimiter, so it now holds "
                    + s.newEntries.size() + " entries and later replace/remove calls match entry by entry.");
        }
        if (success && s.newEntries != null) {
            // Steward's broader check warns about what Hermes' own scan lets through (docs/memory-compat.md)
            Set<String> had = before == null ? Set.of() : new HashSet<>(before.entries());
            for (String e : s.newEntries) {
                if (had.contains(e)) continue;
                SuspicionScan.warning(e).ifPresent(w -> {
                    if (!warnings.contains(w)) warnings.add(w);
                });
            }
        }
        if (!warnings.isEmpty()) rec.put("warnings", warnings);
        if (s.kind.endsWith("overflow") && before != null && hist != null) {
            OverflowAdvisor.Guidance g =
                    OverflowAdvisor.onOverflow(t, limit, before.entries(), hist.target(t.id), s.needed);
            rec.put("overflow", g);
            rec.put("expansion_recommended", g.expansion_recommended());
        }
        if (success && hist != null && lastCompression != null) {
            OverflowAdvisor.CompressionReport c =
                    OverflowAdvisor.onCompression(t, limit, chars, lastCompression, hist.target(t.id));
            rec.put("compression", c);
            rec.put("expansion_recommended", c.expansion_recommended());
        }
        if (backup != null) rec.put("backup", backup);
        return new MemoryResult(s.kind, success, rec);
    }

    private record HistoryUpdate(MemoryHistory.File file, MemoryHistory.Compression compression) {}

    /** Updates the failure counter and the overflow/compression history; returns the history after the update. */
    private HistoryUpdate recordHistory(MemoryTarget t, int limit, Step s, int beforeChars, int afterChars) {
        boolean counted = COUNTED.contains(s.kind);
        boolean succeeded = SUCCESS.contains(s.kind);
        boolean overflow = s.kind.endsWith("overflow");
        if (!counted && !succeeded) return new HistoryUpdate(history.read(), null);
        MemoryHistory.File current = history.read();
        MemoryHistory.TargetHistory th = current.target(t.id);
        int compressed = s.newEntries == null ? afterChars : compressedChars(s.newEntries, th.pending_contents());
        boolean compression = succeeded && s.newEntries != null && th.pending_overflow() && compressed < beforeChars;
        if (succeeded && !compression && current.consolidation().failures() == 0)
            return new HistoryUpdate(current, null);
        Instant now = clock.instant();
        long nowMs = now.toEpochMilli();
        final MemoryHistory.Compression[] made = new MemoryHistory.Compression[1];
        MemoryHistory.File next = history.update(h -> {
            MemoryHistory.Consolidation c = h.consolidation();
            if (counted) {
                int f = nowMs - c.last_failure_epoch_ms() > TURN_WINDOW.toMillis() ? 0 : c.failures();
                h = h.with(new MemoryHistory.Consolidation(f + 1, nowMs));
            } else {
                h = h.with(new MemoryHistory.Consolidation(0, c.last_failure_epoch_ms()));
            }
            MemoryHistory.TargetHistory x = h.target(t.id);
            if (overflow) {
                x = new MemoryHistory.TargetHistory(
                        MemoryHistory.append(
                                x.overflows(),
                                new MemoryHistory.Overflow(
                                        now.toString(), now.getEpochSecond(), s.kind, beforeChars, limit, s.needed)),
                        true,
                        s.attempted,
                        x.compressions(),
                        x.consecutive_high());
                h = h.with(t.id, x);
            } else if (succeeded
                    && x.pending_overflow()
                    && s.newEntries != null
                    && compressedChars(s.newEntries, x.pending_contents()) < beforeChars) {
                int squeezed = compressedChars(s.newEntries, x.pending_contents());
                double gain = Math.round((beforeChars - squeezed) * 1000.0 / beforeChars) / 10.0;
                boolean high = afterChars > MemoryRules.NEAR_LIMIT * limit;
                MemoryHistory.Compression comp = new MemoryHistory.Compression(
                        now.toString(),
                        now.getEpochSecond(),
                        beforeChars,
                        squeezed,
                        gain,
                        MemoryRules.percent(afterChars, limit),
                        high);
                made[0] = comp;
                x = new MemoryHistory.TargetHistory(
                        x.overflows(),
                        false,
                        List.of(),
                        MemoryHistory.append(x.compressions(), comp),
                        high ? x.consecutive_high() + 1 : 0);
                h = h.with(t.id, x);
            }
            return h;
        });
        return new HistoryUpdate(next, made[0]);
    }

    /** Size of the entries without what the overflowing call tried to add (the compression part of "compress, then add"). */
    static int compressedChars(List<String> entries, List<String> pending) {
        if (pending.isEmpty()) return MemoryRules.chars(entries);
        List<String> rest = new ArrayList<>(entries);
        rest.removeAll(pending);
        return MemoryRules.chars(rest);
    }

    static Map<String, Object> capacity(MemoryTarget t, int chars, int limit, int entries) {
        return ordered(
                "target",
                t.id,
                "file",
                t.fileName,
                "chars",
                chars,
                "limit",
                limit,
                "percent",
                MemoryRules.percent(chars, limit),
                "entry_count",
                entries,
                "near_limit",
                MemoryRules.nearLimit(chars, limit));
    }

    // ---------------------------------------------------------------- helpers

    static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }
}
