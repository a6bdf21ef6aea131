package steward.claude;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * The layout of a Claude Code home ({@code ~/.claude}, {@code $CLAUDE_CONFIG_DIR}): {@code projects/<encoded cwd>/}
 * with one {@code <session uuid>.jsonl} per session, the session's {@code <uuid>/} directory ({@code subagents/},
 * {@code tool-results/}), older project-level {@code agent-<id>.jsonl} files and a {@code sessions-index.json} in
 * some versions; {@code sessions/<pid>.json} registers running sessions. Listing reads directory entries and file
 * attributes, and scans a transcript only when the {@link ScanCache} has no entry for its size and mtime.
 */
public final class ClaudeHome {
    private final Path home;

    public ClaudeHome(Path home) {
        this.home = home.toAbsolutePath().normalize();
    }

    public Path home() {
        return home;
    }

    /** Claude Code's default {@code cleanupPeriodDays}. */
    public static final int DEFAULT_CLEANUP_DAYS = 30;

    /**
     * Claude Code's {@code cleanupPeriodDays} from {@code settings.json} (it deletes transcripts whose mtime is older at
     * its start): {@code origin} config_file or default; {@code error} when the file exists but cannot be read (the
     * default is used then).
     */
    public record Cleanup(int days, String origin, String error) {}

    public static Cleanup cleanup(Path home) {
        try {
            JsonNode s = Json.MAPPER.readTree(Files.readAllBytes(home.resolve("settings.json")));
            JsonNode d = s == null ? null : s.get("cleanupPeriodDays");
            if (d != null && d.isIntegralNumber()) return new Cleanup(d.asInt(), "config_file", null);
        } catch (NoSuchFileException e) {
            // Claude Code's default
        } catch (IOException | RuntimeException e) {
            return new Cleanup(DEFAULT_CLEANUP_DAYS, "default", e.getMessage());
        }
        return new Cleanup(DEFAULT_CLEANUP_DAYS, "default", null);
    }

    public Path projectsDir() {
        return home.resolve("projects");
    }

    public Path projectDir(String project) {
        return projectsDir().resolve(project);
    }

    /** Claude Code's directory name for a working directory: every character that is not an ASCII letter or digit becomes '-'. */
    public static String encodeCwd(String cwd) {
        StringBuilder sb = new StringBuilder(cwd.length());
        for (int i = 0; i < cwd.length(); i++) {
            char c = cwd.charAt(i);
            sb.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '-');
        }
        return sb.toString();
    }

    private static final Pattern SESSION_FILE =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\.jsonl");

    /** Whether a file name is a session's transcript, {@code <session uuid>.jsonl} (the only ones Claude Code lists). */
    public static boolean isSessionFile(String name) {
        return SESSION_FILE.matcher(name).matches();
    }

    /** A project as listed: its sessions, its index and what could not be read. */
    public record Project(
            String name,
            Path dir,
            boolean escapes,
            SessionsIndex.Read index,
            int staleIndexEntries,
            List<String> orphanDirs,
            List<String> problems) {}

    /** Everything listed, in a stable order (projects by name, sessions by id). */
    public record Listing(
            List<ClaudeSessionFile> sessions,
            List<Project> projects,
            Set<String> liveRegistered,
            List<String> warnings,
            int scanned,
            int cached) {}

    /** Lists every session of every project; {@code parallel} spreads projects over the common pool. */
    public Listing list(ScanCache cache, boolean parallel) {
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        Path projects = projectsDir();
        List<Path> dirs = new ArrayList<>();
        if (Files.isDirectory(projects)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(projects)) {
                for (Path p : ds) if (Files.isDirectory(p)) dirs.add(p);
            } catch (IOException e) {
                warnings.add("claude: cannot list " + projects + ": " + e.getMessage());
            }
        }
        dirs.sort(null);
        Path realHome = realOrSelf(home);
        int[] counts = new int[2];
        List<ProjectResult> results = (parallel && dirs.size() > 1 ? dirs.parallelStream() : dirs.stream())
                .map(d -> listProject(d, realHome, cache))
                .toList();
        List<ClaudeSessionFile> sessions = new ArrayList<>();
        List<Project> ps = new ArrayList<>();
        for (ProjectResult r : results) {
            sessions.addAll(r.sessions);
            ps.add(r.project);
            counts[0] += r.scanned;
            counts[1] += r.cached;
            for (String p : r.project.problems()) warnings.add("claude: " + p);
        }
        return new Listing(
                List.copyOf(sessions), List.copyOf(ps), liveRegistered(), List.copyOf(warnings), counts[0], counts[1]);
    }

    private record ProjectResult(Project project, List<ClaudeSessionFile> sessions, int scanned, int cached) {}

    private ProjectResult listProject(Path dir, Path realHome, ScanCache cache) {
        String name = dir.getFileName().toString();
        List<String> problems = new ArrayList<>();
        boolean escapes = !inside(dir, realHome);
        Map<String, Path> mains = new LinkedHashMap<>();
        List<Path> flats = new ArrayList<>();
        Map<String, Path> subdirs = new HashMap<>();
        Path indexFile = null;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (n.endsWith(".jsonl")) {
                    if (n.startsWith("agent-")) flats.add(p);
                    else if (isSessionFile(n)) mains.put(n.substring(0, n.length() - 6), p);
                    // any other .jsonl (a user's copy, another tool's export) is no session: Claude Code lists none
                } else if (n.equals(SessionsIndex.FILE)) {
                    indexFile = p;
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && !n.equals("memory")) {
                    subdirs.put(n, p);
                }
            }
        } catch (IOException e) {
            problems.add("cannot list " + dir + ": " + e.getMessage());
        }
        SessionsIndex.Read index = indexFile == null
                ? new SessionsIndex.Read(dir.resolve(SessionsIndex.FILE), false, null, null, null)
                : SessionsIndex.read(indexFile);
        if (index.exists() && !index.usable())
            problems.add(name + "/" + SessionsIndex.FILE + ": " + index.error() + "; left as it is");
        Set<String> indexed = index.sessionIds();
        List<ClaudeSessionFile> out = new ArrayList<>();
        int[] sc = new int[2];
        for (Map.Entry<String, Path> m : mains.entrySet()) {
            String uuid = m.getKey();
            Path file = m.getValue();
            Path sdir = subdirs.remove(uuid);
            Stat st = stat(file, problems);
            if (st == null) continue;
            boolean esc = escapes || st.link && !inside(file, realHome);
            long newest = st.mtimeMillis;
            List<ClaudeSessionFile> subs = new ArrayList<>();
            if (sdir != null) {
                boolean[] dirEscapes = {false};
                for (Found a : subagentFiles(sdir, realHome, dirEscapes, problems)) {
                    TranscriptFacts f = facts(a.path, a.stat, false, cache, sc, problems);
                    if (f == null) continue;
                    String an = a.path.getFileName().toString();
                    String agent = an.substring("agent-".length(), an.length() - ".jsonl".length());
                    String id = uuid + "/agent-" + agent;
                    subs.add(new ClaudeSessionFile(
                            id,
                            ClaudeSessionFile.Kind.SUBAGENT,
                            name,
                            a.path,
                            null,
                            a.meta,
                            uuid,
                            a.stat.size,
                            a.stat.mtimeNanos,
                            a.stat.mtimeMillis,
                            f,
                            esc,
                            false));
                    newest = Math.max(newest, a.stat.mtimeMillis);
                }
                if (dirEscapes[0]) esc = true;
            }
            TranscriptFacts f = facts(file, st, true, cache, sc, problems);
            if (f == null) continue;
            out.add(new ClaudeSessionFile(
                    uuid,
                    ClaudeSessionFile.Kind.MAIN,
                    name,
                    file,
                    sdir,
                    null,
                    null,
                    st.size,
                    st.mtimeNanos,
                    newest,
                    f,
                    esc,
                    indexed.contains(uuid)));
            out.addAll(subs);
        }
        for (Path a : flats) {
            Stat as = stat(a, problems);
            if (as == null) continue;
            TranscriptFacts f = facts(a, as, false, cache, sc, problems);
            if (f == null) continue;
            String an = a.getFileName().toString();
            String agent = an.substring("agent-".length(), an.length() - ".jsonl".length());
            String parent = f.sessionId() != null && mains.containsKey(f.sessionId()) ? f.sessionId() : null;
            out.add(new ClaudeSessionFile(
                    (parent != null ? parent : name) + "/agent-" + agent,
                    ClaudeSessionFile.Kind.FLAT_SUBAGENT,
                    name,
                    a,
                    null,
                    null,
                    parent,
                    as.size,
                    as.mtimeNanos,
                    as.mtimeMillis,
                    f,
                    escapes || as.link && !inside(a, realHome),
                    indexed.contains(f.sessionId() == null ? "" : f.sessionId()) && parent == null));
        }
        List<String> orphans = new ArrayList<>(subdirs.keySet());
        orphans.sort(null);
        int stale = 0;
        for (String id : indexed) if (!mains.containsKey(id)) stale++;
        out.sort((a, b) -> a.id().compareTo(b.id()));
        return new ProjectResult(
                new Project(name, dir, escapes, index, stale, List.copyOf(orphans), List.copyOf(problems)),
                out,
                sc[0],
                sc[1]);
    }

    private record Stat(long size, long mtimeNanos, long mtimeMillis, boolean link) {}

    private static Stat stat(Path p, List<String> problems) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) {
                BasicFileAttributes t = Files.readAttributes(p, BasicFileAttributes.class);
                if (!t.isRegularFile()) return null;
                return new Stat(
                        t.size(),
                        t.lastModifiedTime().to(TimeUnit.NANOSECONDS),
                        t.lastModifiedTime().toMillis(),
                        true);
            }
            if (!a.isRegularFile()) return null;
            return new Stat(
                    a.size(),
                    a.lastModifiedTime().to(TimeUnit.NANOSECONDS),
                    a.lastModifiedTime().toMillis(),
                    false);
        } catch (NoSuchFileException e) {
            return null; // removed while listing
        } catch (IOException e) {
            problems.add("cannot read " + p + ": " + e.getMessage());
            return null;
        }
    }

    private TranscriptFacts facts(Path file, Stat st, boolean main, ScanCache cache, int[] sc, List<String> problems) {
        String key = home.relativize(file).toString();
        TranscriptFacts f = cache.get(key, st.size, st.mtimeNanos);
        if (f != null) {
            sc[1]++;
            return f;
        }
        try {
            f = TranscriptScanner.scan(file, main);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            problems.add("cannot read " + file + ": " + e.getMessage());
            return null;
        }
        sc[0]++;
        cache.put(key, st.size, st.mtimeNanos, f);
        return f;
    }

    /** A subagent transcript found: its path, attributes and {@code .meta.json} (or null). */
    private record Found(Path path, Stat stat, Path meta) {}

    /**
     * {@code agent-*.jsonl} under {@code <dir>/subagents/} at any depth, one {@code lstat} per entry, links not followed
     * (a link leading out of the Claude home marks the session as escaping).
     */
    private static List<Found> subagentFiles(Path sessionDir, Path realHome, boolean[] escapes, List<String> problems) {
        Path sub = sessionDir.resolve("subagents");
        List<Found> out = new ArrayList<>();
        BasicFileAttributes sa = lstat(sub);
        if (sa == null) return out;
        if (sa.isSymbolicLink()) {
            if (!inside(sub, realHome)) escapes[0] = true;
            return out;
        }
        if (!sa.isDirectory()) return out;
        List<Path> stack = new ArrayList<>(List.of(sub));
        while (!stack.isEmpty()) {
            Path d = stack.remove(stack.size() - 1);
            Map<String, Path> metas = new HashMap<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(d)) {
                for (Path p : ds) {
                    String n = p.getFileName().toString();
                    BasicFileAttributes a = lstat(p);
                    if (a == null) continue;
                    if (a.isSymbolicLink()) {
                        if (!inside(p, realHome)) escapes[0] = true;
                        continue;
                    }
                    if (a.isDirectory()) stack.add(p);
                    else if (n.startsWith("agent-") && n.endsWith(".meta.json"))
                        metas.put(n.substring(0, n.length() - ".meta.json".length()), p);
                    else if (n.startsWith("agent-") && n.endsWith(".jsonl") && a.isRegularFile()) {
                        out.add(new Found(
                                p,
                                new Stat(
                                        a.size(),
                                        a.lastModifiedTime().to(TimeUnit.NANOSECONDS),
                                        a.lastModifiedTime().toMillis(),
                                        false),
                                null));
                    }
                }
            } catch (IOException e) {
                problems.add("cannot list " + d + ": " + e.getMessage());
            }
            for (int i = 0; i < out.size(); i++) {
                Found f = out.get(i);
                if (f.meta != null || !f.path.getParent().equals(d)) continue;
                String n = f.path.getFileName().toString();
                Path meta = metas.get(n.substring(0, n.length() - ".jsonl".length()));
                if (meta != null) out.set(i, new Found(f.path, f.stat, meta));
            }
        }
        out.sort((x, y) -> x.path.compareTo(y.path));
        return out;
    }

    private static BasicFileAttributes lstat(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return null;
        }
    }

    /** A subagent's description from its {@code .meta.json} ({@code agentType}: {@code description}), or null. */
    public static String description(Path meta) {
        if (meta == null || !Files.isRegularFile(meta, LinkOption.NOFOLLOW_LINKS)) return null;
        try {
            JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(meta));
            String d = n.path("description").isString() ? n.get("description").asString() : null;
            String t = n.path("agentType").isString() ? n.get("agentType").asString() : null;
            if (d == null) return t;
            return t == null ? d : t + ": " + d;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether {@code p}, links resolved, lies inside the (real) Claude home. A path that cannot be resolved is outside. */
    public static boolean inside(Path p, Path realHome) {
        try {
            return p.toRealPath().startsWith(realHome);
        } catch (IOException e) {
            return false;
        }
    }

    static Path realOrSelf(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    /** Session ids registered in {@code sessions/<pid>.json} by a process that is still running. */
    public Set<String> liveRegistered() {
        Set<String> out = new TreeSet<>();
        Path dir = home.resolve("sessions");
        if (!Files.isDirectory(dir)) return out;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
            for (Path p : ds) {
                try {
                    JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(p));
                    JsonNode sid = n.get("sessionId");
                    long pid = n.path("pid").asLong(-1);
                    if (sid == null || !sid.isString() || pid <= 0) continue;
                    if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) out.add(sid.asString());
                } catch (IOException | RuntimeException e) {
                    // a registry file being written or foreign: not a live signal
                }
            }
        } catch (IOException e) {
            // no registry
        }
        return out;
    }
}
