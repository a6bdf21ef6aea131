package steward.memory.history;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.memory.Flock;
import steward.memory.MemoryBackups;
import steward.memory.MemoryDocument;
import steward.memory.lifecycle.Confidence;
import steward.state.AtomicFiles;
import steward.state.IoErrors;

/**
 * {@code memory_history}: versions of the files under {@code memories/} and {@code skills/} (list, diff, roll back),
 * and the hook every Steward writer calls after it changed such a file. A rollback is itself a new version: it
 * backs up the current bytes, writes the old bytes atomically under the lock Hermes takes for that file, and
 * records the result; when it cannot be recorded, the bytes before it are put back (all or nothing). Changes made
 * outside Steward are recorded only when the user opts in ({@code history.record_external: true} in
 * {@code <state dir>/settings.json}): before Steward's next write of the file, and for {@code MEMORY.md} /
 * {@code USER.md} as the server's watcher sees them and at server startup ({@link #recordExternalChanges}).
 */
public final class History {
    public static final int DEFAULT_LIMIT = 20;
    private static final DateTimeFormatter TS =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);

    private final StewardPaths paths;
    private final Clock clock;
    private final VersionStore store;

    public History(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
        this.store = new VersionStore(paths.stateDir());
    }

    public VersionStore store() {
        return store;
    }

    public static boolean recordExternal(Path stateDir) {
        Path settings = stateDir.resolve("settings.json");
        if (!Files.isRegularFile(settings)) return false;
        try {
            var n = Json.MAPPER
                    .readTree(Files.readAllBytes(settings))
                    .path("history")
                    .path("record_external");
            return n.isBoolean() && n.asBoolean();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Records the current bytes of {@code files} as one version ({@code before}: their bytes before the change,
     * null = absent). A failure never undoes the change it records: it is reported on stderr and returned as null.
     */
    public static String recordQuietly(StewardPaths paths, Clock clock, String message, Map<Path, byte[]> before) {
        try {
            return new History(paths, clock).record(message, before);
        } catch (RuntimeException e) {
            System.err.println("steward: history: " + e.getMessage());
            return null;
        }
    }

    public String record(String message, Map<Path, byte[]> before) {
        Map<String, byte[]> b = new LinkedHashMap<>();
        Map<String, byte[]> a = new LinkedHashMap<>();
        for (var e : before.entrySet()) {
            String rel = relative(e.getKey());
            if (rel == null) continue;
            b.put(rel, e.getValue());
            a.put(rel, VersionStore.readFile(e.getKey()));
        }
        if (a.isEmpty()) return null;
        return store.record(message, "steward", clock.instant(), b, a, recordExternal(paths.stateDir()));
    }

    /**
     * Records the changes made outside Steward to Hermes' {@code MEMORY.md} and {@code USER.md} since their last
     * version, each as a version by "external" ({@code how} says who noticed: the watcher, startup). Only when the user
     * opted in ({@code history.record_external}); nothing happens when the memories dir does not exist (it is never
     * created). Each file is read under the lock Hermes and Steward's writers hold while they write and record, so a
     * write of Steward's that is not recorded yet is never taken for an external change. Returns the versions made.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public List<String> recordExternalChanges(String how) {
        List<String> out = new ArrayList<>();
        if (!recordExternal(paths.stateDir()) || !Files.isDirectory(paths.memoriesDir())) return out;
        for (String name : List.of("MEMORY.md", "USER.md")) {
            Path p = paths.memoriesDir().resolve(name);
            String rel = relative(p);
            if (rel == null) continue;
            try (Flock lock = Flock.exclusive(lockFor(p))) {
                byte[] now = VersionStore.readFile(p);
                String v =
                        store.recordExternal(rel, now, "external change to " + rel + " (" + how + ")", clock.instant());
                if (v != null) out.add(v);
            } catch (IOException e) {
                throw new StewardError("memory_history", "cannot lock " + p + ": " + IoErrors.describe(e), e);
            }
        }
        return out;
    }

    /** {@code file} relative to the Hermes home when it lies under memories/ or skills/; else null. */
    public String relative(Path file) {
        Path home = paths.hermesHome();
        Path f = file.toAbsolutePath().normalize();
        if (!f.startsWith(home)) return null;
        String rel = home.relativize(f).toString().replace('\\', '/');
        return rel.startsWith("memories/") || rel.startsWith("skills/") ? rel : null;
    }

    /** Validates a file argument ("memories/MEMORY.md", "skills/x/SKILL.md") and returns its path. */
    public Path file(String rel) {
        return paths.hermesHome().resolve(name(rel));
    }

    /**
     * A file argument as the history names it: relative to the Hermes home, "/" between names, no "." or empty names
     * and no trailing "/" ("memories/./MEMORY.md/" is "memories/MEMORY.md"); refused outside memories/ and skills/ and
     * for a directory.
     */
    public String name(String rel) {
        if (rel == null || rel.isBlank())
            throw new StewardError("memory_history", "file is required (e.g. memories/MEMORY.md)");
        String r = rel.strip().replace('\\', '/');
        List<String> parts = new ArrayList<>();
        for (String part : r.split("/")) if (!part.isEmpty() && !part.equals(".")) parts.add(part);
        String n = String.join("/", parts);
        if (r.startsWith("/")
                || parts.contains("..")
                || parts.size() < 2
                || !(parts.get(0).equals("memories") || parts.get(0).equals("skills"))) {
            throw new StewardError(
                    "memory_history",
                    "file must be a path under memories/ or skills/ relative to the Hermes home, got '" + rel + "'");
        }
        if (Files.isDirectory(paths.hermesHome().resolve(n)))
            throw new StewardError("memory_history", n + " is a directory; name one file in it");
        return n;
    }

    public record ListResult(
            String file, List<VersionStore.Version> versions, int total, int left_out, boolean record_external) {}

    public ListResult list(String rel, Integer limit) {
        String r = name(rel);
        int n = limit == null ? DEFAULT_LIMIT : limit;
        if (n < 1 || n > 200) throw new StewardError("memory_history", "limit must be 1–200");
        List<VersionStore.Version> all = store.list(r, Integer.MAX_VALUE);
        return new ListResult(
                r,
                all.subList(0, Math.min(n, all.size())),
                all.size(),
                Math.max(0, all.size() - n),
                recordExternal(paths.stateDir()));
    }

    public record DiffResult(
            String file, String from, String to, String diff, int added, int removed, boolean identical) {}

    /** The diff from version {@code from} to version {@code to} ({@code to} absent: the file on disk now). */
    public DiffResult diff(String rel, String from, String to) {
        String r = name(rel);
        Path p = file(r);
        if (from == null) throw new StewardError("memory_history", "diff needs 'from' (a version id from list)");
        byte[] a = store.read(r, from);
        byte[] b = to == null ? VersionStore.readFile(p) : store.read(r, to);
        String d = Diffs.unified(r, a, b);
        int[] c = Diffs.counts(d);
        return new DiffResult(
                r,
                store.fullId(from).substring(0, 12),
                to == null ? "current" : store.fullId(to).substring(0, 12),
                d,
                c[0],
                c[1],
                d.isEmpty());
    }

    /** At most this many entries are listed in {@code would_remove}, {@code would_restore}, {@code removed_entries}. */
    public static final int MAX_LISTED = 20;

    /**
     * {@code needs_confirm}: nothing was changed because the rollback would remove entries the file has now (listed in
     * {@code would_remove}, with {@code would_restore} the entries it would bring back); {@code removed_entries}: the
     * entries an applied rollback removed. Entry lists are for Hermes memory files (MEMORY.md, USER.md), null else.
     */
    public record RollbackResult(
            String file,
            String restored_version,
            String version,
            String backup,
            int bytes,
            String sha256,
            boolean changed,
            boolean needs_confirm,
            List<String> would_remove,
            Integer would_remove_left_out,
            List<String> would_restore,
            Integer would_restore_left_out,
            List<String> removed_entries,
            Integer removed_entries_left_out,
            List<String> warnings) {
        /** The file already holds the version's bytes. */
        static RollbackResult unchanged(String file, String version, int bytes, String sha256) {
            return new RollbackResult(
                    file, version, null, null, bytes, sha256, false, false, null, null, null, null, null, null,
                    List.of());
        }

        /** Not rolled back: it would remove {@code gone}, and bring back {@code back}; waits for confirm. */
        static RollbackResult asked(
                String file,
                String version,
                int bytes,
                String sha256,
                List<String> gone,
                List<String> back,
                List<String> warnings) {
            return new RollbackResult(
                    file,
                    version,
                    null,
                    null,
                    bytes,
                    sha256,
                    false,
                    true,
                    listed(gone),
                    leftOut(gone),
                    listed(back),
                    leftOut(back),
                    null,
                    null,
                    warnings);
        }

        /** Rolled back, recorded as {@code recorded}; {@code removed}: the entries it removed (null: not a memory file). */
        static RollbackResult done(
                String file,
                String version,
                String recorded,
                String backup,
                int bytes,
                String sha256,
                List<String> removed,
                List<String> warnings) {
            return new RollbackResult(
                    file,
                    version,
                    recorded,
                    backup,
                    bytes,
                    sha256,
                    true,
                    false,
                    null,
                    null,
                    null,
                    null,
                    removed == null ? null : listed(removed),
                    removed == null ? null : leftOut(removed),
                    warnings);
        }
    }

    /**
     * Restores {@code rel} to the bytes of {@code version}; the rollback is recorded as a new version. One that would
     * remove entries of a Hermes memory file present now changes nothing without {@code confirm} and lists them.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public RollbackResult rollback(String rel, String version, boolean confirm) {
        String r = name(rel);
        Path p = file(r);
        byte[] old = store.read(r, version);
        String full = store.fullId(version).substring(0, 12);
        if (old == null) {
            throw new StewardError(
                    "memory_history",
                    r + " did not exist in version " + full
                            + "; nothing to restore (Steward never deletes a file by rollback)");
        }
        Path lockFile = lockFor(p);
        try (Flock lock = Flock.exclusive(lockFile)) {
            byte[] cur = VersionStore.readFile(p);
            if (cur != null && Arrays.equals(cur, old)) {
                return RollbackResult.unchanged(r, full, old.length, sha(old));
            }
            boolean entries = holdsEntries(p);
            List<String> gone = entries ? missing(cur, old) : List.of();
            List<String> warnings = consolidationWarnings(r, full);
            if (!gone.isEmpty() && !confirm) {
                // silence is never approval: entries written since (by Steward or by Hermes' own memory tool) are named
                // and the rollback waits for confirm: true
                List<String> back = missing(old, cur);
                return RollbackResult.asked(r, full, old.length, sha(old), gone, back, warnings);
            }
            String backup = null;
            Instant now = clock.instant();
            if (cur != null) {
                String n = p.getFileName().toString();
                if ((n.equals("MEMORY.md") || n.equals("USER.md"))
                        && p.getParent().equals(paths.memoriesDir())) {
                    backup = MemoryBackups.snapshot(paths.stateDir(), n, cur, now)
                            .toString();
                } else {
                    Path b = paths.stateDir()
                            .resolve("backups")
                            .resolve("history")
                            .resolve(r.replace('/', '_') + "." + TS.format(now));
                    AtomicFiles.write(b, cur);
                    backup = b.toString();
                }
            }
            Path target = AtomicFiles.throughLinks(p); // a symlinked file keeps its link
            AtomicFiles.write(target, old);
            Map<String, byte[]> before = new LinkedHashMap<>();
            before.put(r, cur);
            String v;
            try {
                // the bytes a rollback replaces are always a version first when they differ from the last one (a
                // change made outside Steward, recorded whether or not the user opted in to recording those): the file
                // is about to lose them, and the rotating backup alone would keep them only until the next writes
                v = store.record("rollback " + r + " to " + full, "steward", now, before, Map.of(r, old), true);
            } catch (RuntimeException e) {
                // all or nothing: a rollback that is no version could not be undone, so the bytes before it go back
                // (still under Hermes' lock)
                String why = e.getMessage() != null && e.getMessage().startsWith("memory_history: ")
                        ? e.getMessage().substring("memory_history: ".length())
                        : String.valueOf(e.getMessage());
                try {
                    if (cur == null) Files.deleteIfExists(target);
                    else AtomicFiles.write(target, cur);
                } catch (IOException | RuntimeException restore) {
                    throw new StewardError(
                            "memory_history",
                            "the rollback of " + r + " to " + full + " could not be recorded (" + why
                                    + ") and putting back the bytes before it failed: " + restore.getMessage()
                                    + (backup == null ? "" : "; they are in " + backup),
                            e);
                }
                throw new StewardError(
                        "memory_history",
                        "rollback of " + r + " to " + full + " not applied (" + r
                                + " is as it was): it could not be recorded as a version: " + why,
                        e);
            }
            return RollbackResult.done(
                    r,
                    full,
                    v == null ? null : v.substring(0, 12),
                    backup,
                    old.length,
                    sha(old),
                    entries ? gone : null,
                    warnings);
        } catch (IOException e) {
            throw new StewardError("memory_history", "cannot restore " + p + ": " + IoErrors.describe(e), e);
        }
    }

    /** A Hermes memory file ({@code MEMORY.md}, {@code USER.md}, a partition's {@code MEMORY.md}): "§" entries. */
    boolean holdsEntries(Path p) {
        String n = p.getFileName().toString();
        return (n.equals("MEMORY.md") || n.equals("USER.md")) && p.startsWith(paths.memoriesDir());
    }

    /** The entries of {@code from} (split on Hermes' delimiter, stripped) that {@code to} does not have, in order. */
    /**
     * The entries of {@code from} that {@code to} does not hold. An entry held with another confidence prefix only
     * ({@code [0.5] x} and {@code x}: memory_consolidate adds and rewrites them) is the same fact, not removed.
     */
    static List<String> missing(byte[] from, byte[] to) {
        if (from == null) return List.of();
        Set<String> target = new HashSet<>();
        if (to != null) for (String e : entries(to)) target.add(fact(e));
        List<String> out = new ArrayList<>();
        for (String e : entries(from)) if (!target.contains(fact(e))) out.add(e);
        return out;
    }

    /** An entry without its confidence prefix. */
    private static String fact(String entry) {
        return Confidence.parse(entry).body();
    }

    private static List<String> entries(byte[] b) {
        return MemoryDocument.parse(new String(b, StandardCharsets.UTF_8)).entries();
    }

    private static List<String> listed(List<String> all) {
        return List.copyOf(all.subList(0, Math.min(MAX_LISTED, all.size())));
    }

    private static Integer leftOut(List<String> all) {
        return Math.max(0, all.size() - MAX_LISTED);
    }

    /**
     * One warning, naming them, when memory_consolidate applies wrote {@code rel} after {@code version}: they also marked
     * their log lines processed, so the facts they took from them leave the file and gather does not show them again.
     */
    private List<String> consolidationWarnings(String rel, String version) {
        List<String> ids = store.after(rel, version).stream()
                .filter(v -> v.message().startsWith("memory_consolidate "))
                .map(VersionStore.Version::id)
                .toList();
        if (ids.isEmpty()) return List.of();
        return List.of("this goes back before memory_consolidate (version " + String.join(", ", ids)
                + "), which also marked its log lines processed: facts it took from them leave " + rel
                + " and gather will not show them again; they stay in the daily logs under memories/logs/ (older ones"
                + " in memories/archive/logs/)");
    }

    /** The lock Hermes takes for memory files ({@code <file>.lock}); Steward's own lock for everything else. */
    Path lockFor(Path p) {
        String n = p.getFileName().toString();
        if (n.equals("MEMORY.md") || n.equals("USER.md")) return p.resolveSibling(n + ".lock");
        if (p.startsWith(paths.memoriesDir())) return paths.memoriesDir().resolve(".steward.lock");
        return paths.stateDir().resolve("history").resolve("skills.lock");
    }

    static String sha(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
