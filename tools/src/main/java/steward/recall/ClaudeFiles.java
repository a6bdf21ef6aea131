package steward.recall;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import steward.claude.ClaudeHome;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * What the Claude Code recall source reads, kept as a model of file stats so that "did anything change?" costs a few
 * thousand {@code stat}s at 20,000 sessions instead of one per file: the directories (the Claude home, {@code projects/},
 * the memory and rules dirs, and the project dirs changed in the last {@link #HOT_MS}: a file created or removed moves
 * its directory's mtime), every memory file, the transcripts modified in the last {@link #HOT_MS} ("hot": they are the
 * ones being appended to), and rotating slices of the others ({@link #COLD_DIRS} project dirs, {@link #COLD_SLICE}
 * transcripts), so a new session in an old project or an old session appended to again is seen within a few dozen
 * polls at 20,000 sessions (within one on a home of a few hundred). A refresh that finds a moved directory re-lists it. The token is an order-free sum of every tracked file's size and mtime,
 * kept up to date as stats change.
 * <p>Files: main transcripts {@code projects/<project>/<uuid>.jsonl} (not subagents, not links); auto memory
 * {@code projects/<project>/memory/*.md}, the {@code autoMemoryDirectory} of settings.json, {@code memory/personal/*.md};
 * CLAUDE.md files: {@code CLAUDE.md} and {@code rules/*.md} of the Claude home, and {@code CLAUDE.md},
 * {@code .claude/CLAUDE.md}, {@code CLAUDE.local.md}, {@code .claude/rules/*.md} of each project's working directory
 * (the {@code cwd} its first transcript names).
 */
final class ClaudeFiles {
    /** Transcripts modified this recently are stat'ed on every refresh. */
    static final long HOT_MS = 24 * 3600_000L;
    /** Other transcripts stat'ed per refresh, in rotation. */
    static final int COLD_SLICE = 256;
    /** Project directories not changed for {@link #HOT_MS} stat'ed per refresh, in rotation. */
    static final int COLD_DIRS = 128;

    private static final Pattern CWD = Pattern.compile("\"cwd\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** A file the source reads. {@code key}: "t:&lt;project&gt;/&lt;uuid&gt;" or "m:&lt;place&gt;/&lt;relative path&gt;". */
    static final class Tracked {
        final String key;
        final Path file;
        final String project, uuid; // transcripts only
        long size = -1, mtime = -1;
        long sig;

        Tracked(String key, Path file, String project, String uuid) {
            this.key = key;
            this.file = file;
            this.project = project;
            this.uuid = uuid;
        }

        boolean transcript() {
            return uuid != null;
        }

        String stat() {
            return size + ":" + mtime;
        }
    }

    private final Path home;
    private final Map<Path, Long> dirs = new HashMap<>();
    private final Map<String, Tracked> files = new TreeMap<>();
    private final Map<String, Path> cwds = new HashMap<>();
    private final Map<String, Tracked> byUuid = new HashMap<>();
    private final Map<Path, Tracked> byPath = new HashMap<>();
    /** Directory watches while the long-lived server's background indexer runs ({@link #startWatching}); else null. */
    private Watch watch;
    /** Refreshes that fell back to a full listing because the watch queue overflowed (tests, the bench). */
    int overflows;

    private long sum;
    private boolean listed;
    private Iterator<Tracked> cold;
    private int coldDir;
    int statsLastRefresh;

    ClaudeFiles(Path home) {
        this.home = home.toAbsolutePath().normalize();
    }

    Path home() {
        return home;
    }

    Path projects() {
        return home.resolve("projects");
    }

    Map<String, Tracked> files() {
        return files;
    }

    Tracked session(String uuid) {
        return byUuid.get(uuid);
    }

    /** The working directory of a project (from its transcripts), or null. */
    Path cwd(String project) {
        return cwds.get(project);
    }

    String token() {
        return Long.toHexString(sum) + ":" + files.size();
    }

    /** Brings the model up to date: cheaply, or (full) re-listing and re-stat'ing everything. */
    void refresh(boolean full, long nowMillis) {
        statsLastRefresh = 0;
        if (!full && listed && watch != null) {
            if (watched()) return;
            overflows++;
            full = true; // events were lost: the stat scan, in full
        }
        if (full || !listed) {
            if (watch != null) drain(); // the listing sees what the queue held
            dirs.clear();
            for (Tracked t : files.values()) t.size = -2; // "not seen": dropped below unless listed again
            listAll();
            for (Iterator<Tracked> it = files.values().iterator(); it.hasNext(); ) {
                Tracked t = it.next();
                if (t.size == -2) {
                    drop(t);
                    it.remove();
                } else {
                    stat(t);
                }
            }
            listed = true;
            cold = null;
            return;
        }
        Path projects = projects();
        List<Path> coldDirs = new ArrayList<>();
        for (Map.Entry<Path, Long> d : new ArrayList<>(dirs.entrySet())) {
            boolean project = projects.equals(d.getKey().getParent());
            if (project && nowMillis - d.getValue() >= HOT_MS) {
                coldDirs.add(d.getKey());
                continue;
            }
            long m = mtime(d.getKey());
            if (m != d.getValue()) relist(d.getKey(), m);
        }
        // project dirs not changed for a day: a slice of them per refresh, in rotation
        if (coldDir >= coldDirs.size()) coldDir = 0;
        coldDirs.sort(null);
        for (int n = 0; n < COLD_DIRS && coldDir < coldDirs.size(); n++, coldDir++) {
            Path d = coldDirs.get(coldDir);
            Long was = dirs.get(d);
            long m = mtime(d);
            if (was != null && m != was) relist(d, m);
        }
        int coldLeft = COLD_SLICE;
        for (Tracked t : files.values()) {
            if (!t.transcript() || nowMillis - t.mtime < HOT_MS) stat(t);
        }
        if (cold == null || !cold.hasNext()) cold = new ArrayList<>(files.values()).iterator();
        while (coldLeft > 0 && cold.hasNext()) {
            Tracked t = cold.next();
            if (t.transcript() && nowMillis - t.mtime >= HOT_MS && files.get(t.key) == t) {
                stat(t);
                coldLeft--;
            }
        }
    }

    private void listAll() {
        watch(home);
        Path projects = projects();
        watch(projects);
        for (Path p : children(projects)) if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) listProject(p);
        listHome();
    }

    /** A directory moved: list it again (a project dir, a memory dir, a rules dir, the home, projects/). */
    private void relist(Path dir, long mtime) {
        dirs.put(dir, mtime);
        if (dir.equals(home)
                || dir.equals(home.resolve("rules"))
                || dir.equals(home.resolve("memory").resolve("personal"))) {
            listHome();
            removeGone(home, false);
        } else if (dir.equals(projects())) {
            Set<String> now = new HashSet<>();
            for (Path p : children(dir)) {
                if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) continue;
                now.add(p.getFileName().toString());
                if (!dirs.containsKey(p)) listProject(p);
            }
            for (Iterator<Tracked> it = files.values().iterator(); it.hasNext(); ) { // projects removed whole
                Tracked t = it.next();
                String place = place(t.key);
                if (!place.equals("user") && !place.equals("auto") && !now.contains(place)) {
                    drop(t);
                    it.remove();
                }
            }
            dirs.keySet()
                    .removeIf(d -> d.getParent() != null
                            && d.getParent().equals(dir)
                            && !now.contains(d.getFileName().toString()));
        } else if (dir.getParent() != null && dir.getParent().equals(projects())) {
            listProject(dir);
            removeGone(dir, true);
        } else if (dir.getFileName() != null
                && dir.getFileName().toString().equals("memory")
                && dir.getParent().getParent() != null
                && dir.getParent().getParent().equals(projects())) {
            listProject(dir.getParent());
            removeGone(dir.getParent(), true);
        } else {
            listHome(); // the configured auto-memory dir, a project's .claude/rules
            for (String project : new ArrayList<>(cwds.keySet())) listInstructions(project);
            removeGone(dir, true);
        }
    }

    /** The place of a key: the project, "user" or "auto". */
    static String place(String key) {
        int slash = key.indexOf('/');
        return key.substring(2, slash < 0 ? key.length() : slash);
    }

    /** Drops the tracked files under {@code dir} (its own children only unless {@code deep}) that are gone. */
    private void removeGone(Path dir, boolean deep) {
        for (Iterator<Tracked> it = files.values().iterator(); it.hasNext(); ) {
            Tracked t = it.next();
            boolean under = deep
                    ? t.file.startsWith(dir)
                    : dir.equals(t.file.getParent())
                            || t.file.getParent().startsWith(dir) && t.key.startsWith("m:user/");
            if (under && !Files.exists(t.file, LinkOption.NOFOLLOW_LINKS)) {
                drop(t);
                it.remove();
            }
        }
        if (deep)
            dirs.keySet()
                    .removeIf(d ->
                            d.startsWith(dir) && !d.equals(dir) && !Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS));
    }

    private void listProject(Path dir) {
        watch(dir);
        String project = dir.getFileName().toString();
        Path firstTranscript = null;
        for (Path p : children(dir)) {
            String n = p.getFileName().toString();
            if (ClaudeHome.isSessionFile(n)) {
                if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) continue; // links are not followed
                String uuid = n.substring(0, n.length() - ".jsonl".length());
                track("t:" + project + "/" + uuid, p, project, uuid);
                if (firstTranscript == null) firstTranscript = p;
            }
        }
        Path mem = dir.resolve("memory");
        if (Files.isDirectory(mem, LinkOption.NOFOLLOW_LINKS)) {
            watch(mem);
            for (Path f : mdFiles(mem)) track("m:" + project + "/memory/" + f.getFileName(), f, null, null);
        }
        if (!cwds.containsKey(project) && firstTranscript != null) {
            String cwd = cwdOf(firstTranscript);
            if (cwd != null) cwds.put(project, Path.of(cwd));
        }
        listInstructions(project);
    }

    /** The CLAUDE.md files of a project's working directory. */
    private void listInstructions(String project) {
        Path cwd = cwds.get(project);
        if (cwd == null || !cwd.isAbsolute() || !Files.isDirectory(cwd)) return;
        for (String rel : List.of("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")) {
            Path f = cwd.resolve(rel);
            if (Files.isRegularFile(f)) track("m:" + project + "/" + rel, f, null, null);
        }
        Path rules = cwd.resolve(".claude").resolve("rules");
        if (Files.isDirectory(rules)) {
            watch(rules);
            for (Path f : mdFiles(rules)) track("m:" + project + "/.claude/rules/" + f.getFileName(), f, null, null);
        }
    }

    private void listHome() {
        Path claudeMd = home.resolve("CLAUDE.md");
        if (Files.isRegularFile(claudeMd)) track("m:user/CLAUDE.md", claudeMd, null, null);
        Path rules = home.resolve("rules");
        if (Files.isDirectory(rules)) {
            watch(rules);
            for (Path f : mdFiles(rules)) track("m:user/rules/" + f.getFileName(), f, null, null);
        }
        Path personal = home.resolve("memory").resolve("personal");
        if (Files.isDirectory(personal)) {
            watch(personal);
            for (Path f : mdFiles(personal)) track("m:user/memory/personal/" + f.getFileName(), f, null, null);
        }
        Path auto = autoMemoryDir();
        if (auto != null && Files.isDirectory(auto)) {
            watch(auto);
            for (Path f : mdFiles(auto)) track("m:auto/" + f.getFileName(), f, null, null);
        }
    }

    /** {@code autoMemoryDirectory} of the Claude home's settings.json, or null. */
    Path autoMemoryDir() {
        try {
            JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(home.resolve("settings.json")));
            JsonNode d = n == null ? null : n.get("autoMemoryDirectory");
            if (d == null || !d.isString() || d.asString().isBlank()) return null;
            String v = d.asString();
            Path p = Path.of(v.startsWith("~/") ? System.getProperty("user.home") + v.substring(1) : v);
            return (p.isAbsolute() ? p : home.resolve(p)).normalize();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private void track(String key, Path file, String project, String uuid) {
        Tracked t = files.get(key);
        if (t == null) {
            t = new Tracked(key, file, project, uuid);
            files.put(key, t);
            if (uuid != null) byUuid.put(uuid, t);
            byPath.put(file, t);
            stat(t);
        } else if (t.size == -2) {
            t.size = -1; // seen again in a full listing
        }
    }

    private void drop(Tracked t) {
        sum -= t.sig;
        if (t.uuid != null && byUuid.get(t.uuid) == t) byUuid.remove(t.uuid);
        if (byPath.get(t.file) == t) byPath.remove(t.file);
    }

    private void stat(Tracked t) {
        statsLastRefresh++;
        long size, mtime;
        try {
            BasicFileAttributes a = Files.readAttributes(t.file, BasicFileAttributes.class);
            size = a.size();
            mtime = a.lastModifiedTime().toMillis();
        } catch (IOException e) {
            size = -1;
            mtime = -1;
        }
        if (size == t.size && mtime == t.mtime) return;
        t.size = size;
        t.mtime = mtime;
        sum -= t.sig;
        t.sig = Identity.fnv(t.key + "|" + size + "|" + mtime);
        sum += t.sig;
    }

    private void watch(Path dir) {
        dirs.put(dir, mtime(dir));
        if (watch != null && !watch.register(dir)) stopWatching(); // e.g. the system's limit of watches: stat as before
    }

    /**
     * Starts watching the directories of the model (inotify on Linux) instead of stat'ing files on each refresh: from the
     * next refresh on (a full listing, which registers every directory), a refresh costs a look at the queue of changed
     * paths. False when the platform gives no watch service (then nothing changes).
     */
    boolean startWatching() {
        if (watch != null) return true;
        try {
            watch = new Watch(home.getFileSystem().newWatchService());
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
        listed = false;
        return true;
    }

    boolean watching() {
        return watch != null;
    }

    void stopWatching() {
        Watch w = watch;
        watch = null;
        if (w != null) w.close();
    }

    /**
     * Applies the queued changes of the watched directories (a created or removed entry re-lists its directory, a
     * modified tracked file is stat'ed) and stats the few tracked files outside them (a project's CLAUDE.md files in its
     * working directory). False when the queue overflowed: the caller then lists and stats everything.
     */
    private boolean watched() {
        Map<Path, Boolean> moved = new LinkedHashMap<>(); // directory -> an entry was created or removed
        List<Path> modified = new ArrayList<>();
        for (WatchKey k = watch.service.poll(); k != null; k = watch.service.poll()) {
            Path dir = watch.keys.get(k);
            for (WatchEvent<?> ev : k.pollEvents()) {
                if (ev.kind() == StandardWatchEventKinds.OVERFLOW || dir == null) {
                    k.reset();
                    drain();
                    return false;
                }
                Path p = dir.resolve((Path) ev.context());
                if (ev.kind() == StandardWatchEventKinds.ENTRY_MODIFY) modified.add(p);
                else moved.put(dir, true);
            }
            if (!k.reset()) { // the directory is gone or unreadable: its parent's listing says what remains
                watch.keys.remove(k);
                watch.dirs.remove(dir, k);
                if (dir.getParent() != null) moved.put(dir.getParent(), true);
            }
        }
        for (Path d : moved.keySet()) if (dirs.containsKey(d)) relist(d, mtime(d));
        for (Path p : modified) {
            Tracked t = byPath.get(p);
            if (t != null) stat(t);
            else if (p.equals(home.resolve("settings.json")) && dirs.containsKey(home)) relist(home, mtime(home));
        }
        for (Tracked t : files.values()) {
            if (!t.transcript() && !watch.dirs.containsKey(t.file.getParent())) stat(t);
        }
        return true;
    }

    /** Empties the queue (after an overflow: the full listing that follows sees everything). */
    private void drain() {
        for (WatchKey k = watch.service.poll(); k != null; k = watch.service.poll()) {
            k.pollEvents();
            if (!k.reset()) {
                Path d = watch.keys.remove(k);
                if (d != null) watch.dirs.remove(d, k);
            }
        }
    }

    /** A watch service and the directories registered with it. */
    private static final class Watch {
        final WatchService service;
        final Map<WatchKey, Path> keys = new HashMap<>();
        final Map<Path, WatchKey> dirs = new HashMap<>();

        Watch(WatchService service) {
            this.service = service;
        }

        boolean register(Path dir) {
            WatchKey had = dirs.get(dir);
            if (had != null && had.isValid()) return true;
            try {
                WatchKey k = dir.register(
                        service,
                        StandardWatchEventKinds.ENTRY_CREATE,
                        StandardWatchEventKinds.ENTRY_DELETE,
                        StandardWatchEventKinds.ENTRY_MODIFY);
                keys.put(k, dir);
                dirs.put(dir, k);
                return true;
            } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException e) {
                return true; // nothing to watch; its parent's listing sees it appear
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }

        void close() {
            try {
                service.close();
            } catch (IOException e) {
                // closing a watch service only releases it
            }
        }
    }

    private long mtime(Path p) {
        statsLastRefresh++;
        try {
            return Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis();
        } catch (IOException e) {
            return -1;
        }
    }

    private static List<Path> children(Path dir) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) out.add(p);
        } catch (IOException e) {
            // absent or unreadable: nothing listed
        }
        out.sort(null);
        return out;
    }

    private static List<Path> mdFiles(Path dir) {
        List<Path> out = new ArrayList<>();
        for (Path p : children(dir)) {
            if (p.getFileName().toString().endsWith(".md") && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                out.add(p);
        }
        return out;
    }

    /** The {@code cwd} the first 64 KB of a transcript name, or null. */
    static String cwdOf(Path transcript) {
        try (InputStream in = Files.newInputStream(transcript)) {
            String head = new String(in.readNBytes(1 << 16), StandardCharsets.UTF_8);
            Matcher m = CWD.matcher(head);
            if (!m.find()) return null;
            return Json.MAPPER.readValue("\"" + m.group(1) + "\"", String.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Projects → working directory, as found (for the status and tests). */
    Map<String, Path> cwds() {
        return new LinkedHashMap<>(cwds);
    }
}
