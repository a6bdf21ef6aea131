package steward.memory.history;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilter;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import steward.StewardError;
import steward.memory.Flock;
import steward.state.AtomicFiles;
import steward.state.IoErrors;

/**
 * Versions of the files under {@code memories/} and {@code skills/}, kept in a bare git repository in Steward's
 * state dir ({@code history/repo.git}, JGit), never inside the user's files and never pushed anywhere. A commit
 * holds the previous version's tree with the changed paths replaced, so each version is exactly one change and
 * the bytes of every file are kept as they were. Writers serialise on {@code history/.lock} (flock).
 */
public final class VersionStore {
    public static final String BRANCH = "refs/heads/main";

    static {
        // Steward's repository reads no user, system or JGit config (JGit would otherwise run `git config --system`
        // to find it) and needs no host name lookup.
        org.eclipse.jgit.util.SystemReader.setInstance(new Isolated(org.eclipse.jgit.util.SystemReader.getInstance()));
    }

    private static final class Isolated extends org.eclipse.jgit.util.SystemReader.Delegate {
        Isolated(org.eclipse.jgit.util.SystemReader d) {
            super(d);
        }

        @Override
        public String getHostname() {
            return "localhost";
        }

        /**
         * Also answers JGit's question about the file system's timestamp resolution (which it would otherwise
         * measure for seconds on first use and store in the user's config) with a conservative 10 ms.
         */
        @Override
        public org.eclipse.jgit.storage.file.FileBasedConfig openUserConfig(
                org.eclipse.jgit.lib.Config parent, org.eclipse.jgit.util.FS fs) {
            return new org.eclipse.jgit.storage.file.FileBasedConfig(parent, null, fs) {
                @Override
                public void load() {
                    // nothing to read
                }

                @Override
                public boolean isOutdated() {
                    return false;
                }

                @Override
                public long getTimeUnit(
                        String section, String subsection, String name, long defaultValue, TimeUnit unit) {
                    if ("filesystem".equals(section)
                            && ("timestampResolution".equals(name) || "minRacyThreshold".equals(name))) {
                        return unit.convert(10, TimeUnit.MILLISECONDS);
                    }
                    return super.getTimeUnit(section, subsection, name, defaultValue, unit);
                }
            };
        }

        @Override
        public org.eclipse.jgit.storage.file.FileBasedConfig openSystemConfig(
                org.eclipse.jgit.lib.Config parent, org.eclipse.jgit.util.FS fs) {
            return empty(parent, fs);
        }

        @Override
        public org.eclipse.jgit.storage.file.FileBasedConfig openJGitConfig(
                org.eclipse.jgit.lib.Config parent, org.eclipse.jgit.util.FS fs) {
            return empty(parent, fs);
        }

        private static org.eclipse.jgit.storage.file.FileBasedConfig empty(
                org.eclipse.jgit.lib.Config parent, org.eclipse.jgit.util.FS fs) {
            return new org.eclipse.jgit.storage.file.FileBasedConfig(parent, null, fs) {
                @Override
                public void load() {
                    // nothing to read
                }

                @Override
                public boolean isOutdated() {
                    return false;
                }
            };
        }
    }

    private final Path dir;

    public VersionStore(Path stateDir) {
        this.dir = stateDir.resolve("history");
    }

    public Path repoDir() {
        return dir.resolve("repo.git");
    }

    /** One version of a file. {@code deleted}: the file did not exist in this version. */
    public record Version(
            String id, String time, long epoch, String message, String client, Integer bytes, boolean deleted) {}

    /**
     * The repository for a writer that holds {@code history/.lock}. Every writer does, so a git lock file found now
     * ({@code refs/heads/main.lock}, {@code HEAD.lock}, {@code packed-refs.lock}, {@code config.lock}) was left by a
     * writer that was killed: it is removed, else every later version would fail with LOCK_FAILURE (crash bench).
     */
    private Repository openForWrite() throws IOException {
        Path git = repoDir();
        if (Files.isDirectory(git)) {
            for (String f : List.of("HEAD.lock", "packed-refs.lock", "config.lock"))
                Files.deleteIfExists(git.resolve(f));
            Path refs = git.resolve("refs");
            if (Files.isDirectory(refs))
                try (var s = Files.walk(refs)) {
                    for (Path p : s.filter(x -> x.getFileName().toString().endsWith(".lock") && Files.isRegularFile(x))
                            .toList()) Files.deleteIfExists(p);
                }
        }
        return open(true);
    }

    private Repository open(boolean create) throws IOException {
        Path git = repoDir();
        if (!Files.isDirectory(git)) {
            if (!create) return null;
            AtomicFiles.ensurePrivateDir(dir);
            Repository r = new FileRepositoryBuilder()
                    .setGitDir(git.toFile())
                    .setBare()
                    .build();
            r.create(true);
            return r;
        }
        return new FileRepositoryBuilder()
                .setGitDir(git.toFile())
                .setBare()
                .setMustExist(true)
                .build();
    }

    /**
     * Records one change. {@code before}: the bytes of each path before the change (null = absent), used for a
     * baseline version when the path has no history yet, and, with {@code recordExternal}, for a version of an
     * edit someone else made since the last version. {@code after}: the bytes now (null = deleted). Returns the
     * new version id, or null when nothing changed.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public String record(
            String message,
            String client,
            Instant when,
            Map<String, byte[]> before,
            Map<String, byte[]> after,
            boolean recordExternal) {
        try {
            AtomicFiles.ensurePrivateDir(dir);
            try (Flock lock = Flock.exclusive(dir.resolve(".lock"));
                    Repository repo = openForWrite()) {
                ObjectId head = head(repo, true);
                Map<String, byte[]> baseline = new LinkedHashMap<>();
                Map<String, byte[]> external = new LinkedHashMap<>();
                try (ObjectReader reader = repo.newObjectReader()) {
                    for (var e : before.entrySet()) {
                        if (e.getValue() == null) continue;
                        byte[] known = head == null ? null : blob(repo, reader, head, e.getKey());
                        if (known == null && !existed(repo, head, e.getKey())) baseline.put(e.getKey(), e.getValue());
                        else if (recordExternal && !Arrays.equals(known, e.getValue()))
                            external.put(e.getKey(), e.getValue());
                    }
                }
                if (!baseline.isEmpty())
                    head = commit(repo, head, baseline, "baseline: first version Steward saw", client, when);
                if (!external.isEmpty())
                    head = commit(repo, head, external, "external change (made outside Steward)", EXTERNAL, when);
                ObjectId before2 = head;
                ObjectId next = commit(repo, head, after, message, client, when);
                return next.equals(before2) ? null : next.name();
            }
        } catch (IOException e) {
            throw new StewardError(
                    "memory_history", "cannot record a version in " + repoDir() + ": " + IoErrors.describe(e), e);
        }
    }

    /** The author and client of a version Steward did not make (Hermes' own memory tool, an editor, a script). */
    public static final String EXTERNAL = "external";

    /**
     * Records {@code now} (the bytes of {@code path} on disk, null = absent) as a version by {@link #EXTERNAL} when it
     * differs from the last recorded version. A path with no history gets a baseline instead (the first version
     * Steward saw: what came before is unknown). Returns the new version id, or null when nothing was recorded.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public String recordExternal(String path, byte[] now, String message, Instant when) {
        try {
            AtomicFiles.ensurePrivateDir(dir);
            try (Flock lock = Flock.exclusive(dir.resolve(".lock"));
                    Repository repo = openForWrite()) {
                ObjectId head = head(repo, true);
                byte[] known;
                try (ObjectReader reader = repo.newObjectReader()) {
                    known = head == null ? null : blob(repo, reader, head, path);
                }
                if (known == null && !existed(repo, head, path)) {
                    if (now == null) return null;
                    ObjectId next = commit(
                            repo, head, Map.of(path, now), "baseline: first version Steward saw", "steward", when);
                    return next.equals(head) ? null : next.name();
                }
                if (Arrays.equals(known, now)) return null;
                Map<String, byte[]> change = new LinkedHashMap<>();
                change.put(path, now);
                ObjectId next = commit(repo, head, change, message, EXTERNAL, when);
                return next.equals(head) ? null : next.name();
            }
        } catch (IOException e) {
            throw new StewardError(
                    "memory_history", "cannot record a version in " + repoDir() + ": " + IoErrors.describe(e), e);
        }
    }

    /**
     * The newest version. When the branch ref cannot be read (left empty by a crash before the file system wrote it, or
     * garbled) while versions exist, it is the newest commit no other commit follows: history is one line, so that is
     * where it ended. A writer ({@code repair}, under {@code history/.lock}) points the branch at it again, so the next
     * version continues the history instead of starting a new one that would leave every earlier version unreachable.
     */
    private static ObjectId head(Repository repo, boolean repair) throws IOException {
        ObjectId h;
        try {
            h = repo.resolve(BRANCH);
        } catch (org.eclipse.jgit.errors.RevisionSyntaxException | IOException e) {
            h = null;
        }
        if (h != null) return h;
        ObjectId tip = lostTip(repo);
        if (tip == null || !repair) return tip;
        Files.deleteIfExists(repo.getDirectory().toPath().resolve(BRANCH));
        RefUpdate u = repo.updateRef(BRANCH);
        u.setNewObjectId(tip);
        u.setExpectedOldObjectId(ObjectId.zeroId());
        u.setRefLogMessage("steward: branch recovered after its ref was damaged", false);
        RefUpdate.Result r = u.update();
        if (r != RefUpdate.Result.NEW && r != RefUpdate.Result.FORCED && r != RefUpdate.Result.NO_CHANGE)
            throw new IOException("recovering " + BRANCH + " failed: " + r);
        System.err.println("steward: history: " + BRANCH + " was unreadable; recovered at " + tip.name());
        return tip;
    }

    /** The newest commit among the repository's loose objects that no other commit names as its parent; null if none. */
    private static ObjectId lostTip(Repository repo) throws IOException {
        Path objects = repo.getDirectory().toPath().resolve("objects");
        if (!Files.isDirectory(objects)) return null;
        Set<ObjectId> parents = new HashSet<>();
        List<RevCommit> commits = new ArrayList<>();
        try (RevWalk rw = new RevWalk(repo);
                var dirs = Files.list(objects)) {
            for (Path d : dirs.filter(x -> x.getFileName().toString().matches("[0-9a-f]{2}"))
                    .toList()) {
                try (var files = Files.list(d)) {
                    for (Path f : files.toList()) {
                        String name = d.getFileName().toString() + f.getFileName();
                        if (!ObjectId.isId(name)) continue;
                        ObjectId id = ObjectId.fromString(name);
                        try {
                            if (rw.getObjectReader().open(id).getType() != Constants.OBJ_COMMIT) continue;
                            RevCommit c = rw.parseCommit(id);
                            commits.add(c);
                            for (RevCommit p : c.getParents()) parents.add(p.copy());
                        } catch (IOException | RuntimeException e) {
                            // a damaged object is not a version
                        }
                    }
                }
            }
        }
        RevCommit best = null;
        int bestDepth = 0;
        for (RevCommit c : commits) {
            if (parents.contains(c)) continue;
            int depth = depth(c);
            if (best == null
                    || c.getCommitTime() > best.getCommitTime()
                    || c.getCommitTime() == best.getCommitTime() && depth > bestDepth) {
                best = c;
                bestDepth = depth;
            }
        }
        return best == null ? null : best.copy();
    }

    /** How many versions lead to {@code c} (parents parsed by {@link #lostTip}'s walk). */
    private static int depth(RevCommit c) {
        int n = 0;
        try {
            for (RevCommit x = c; x != null && x.getParentCount() > 0; x = x.getParent(0)) n++;
        } catch (RuntimeException e) {
            // a parent that is not there (never parsed): the line ends here
        }
        return n;
    }

    private static boolean existed(Repository repo, ObjectId head, String path) throws IOException {
        if (head == null) return false;
        try (RevWalk w = new RevWalk(repo)) {
            w.markStart(w.parseCommit(head));
            w.setTreeFilter(AndTreeFilter.create(PathFilter.create(path), TreeFilter.ANY_DIFF));
            return w.next() != null;
        }
    }

    private static ObjectId commit(
            Repository repo, ObjectId parent, Map<String, byte[]> files, String message, String client, Instant when)
            throws IOException {
        DirCache index = DirCache.newInCore();
        DirCacheBuilder b = index.builder();
        try (ObjectInserter ins = repo.newObjectInserter();
                ObjectReader reader = repo.newObjectReader()) {
            boolean changed = false;
            Set<String> seen = new HashSet<>();
            if (parent != null) {
                try (RevWalk rw = new RevWalk(reader);
                        TreeWalk tw = new TreeWalk(reader)) {
                    tw.addTree(rw.parseCommit(parent).getTree());
                    tw.setRecursive(true);
                    while (tw.next()) {
                        String p = tw.getPathString();
                        seen.add(p);
                        if (files.containsKey(p)) {
                            byte[] now = files.get(p);
                            if (now == null) {
                                changed = true;
                                continue;
                            }
                            ObjectId id = ins.idFor(Constants.OBJ_BLOB, now);
                            if (!id.equals(tw.getObjectId(0))) changed = true;
                            b.add(entry(p, ins.insert(Constants.OBJ_BLOB, now)));
                        } else {
                            DirCacheEntry e = new DirCacheEntry(p);
                            e.setFileMode(tw.getFileMode(0));
                            e.setObjectId(tw.getObjectId(0));
                            b.add(e);
                        }
                    }
                }
            }
            for (var e : files.entrySet()) {
                if (seen.contains(e.getKey()) || e.getValue() == null) continue;
                b.add(entry(e.getKey(), ins.insert(Constants.OBJ_BLOB, e.getValue())));
                changed = true;
            }
            b.finish();
            if (!changed && parent != null) return parent;
            ObjectId tree = index.writeTree(ins);
            PersonIdent who = EXTERNAL.equals(client)
                    ? new PersonIdent(EXTERNAL, "external@localhost", when, ZoneOffset.UTC)
                    : new PersonIdent("Steward", "steward@localhost", when, ZoneOffset.UTC);
            CommitBuilder c = new CommitBuilder();
            c.setTreeId(tree);
            if (parent != null) c.setParentId(parent);
            c.setAuthor(who);
            c.setCommitter(who);
            c.setMessage(message + (client == null ? "" : "\n\nclient: " + client) + "\n");
            ObjectId id = ins.insert(c);
            ins.flush();
            RefUpdate u = repo.updateRef(BRANCH);
            u.setNewObjectId(id);
            u.setExpectedOldObjectId(parent == null ? ObjectId.zeroId() : parent);
            u.setRefLogMessage("steward: " + message, false);
            RefUpdate.Result r = u.update();
            if (r != RefUpdate.Result.NEW && r != RefUpdate.Result.FAST_FORWARD && r != RefUpdate.Result.FORCED) {
                throw new IOException("updating " + BRANCH + " failed: " + r);
            }
            return id;
        }
    }

    private static DirCacheEntry entry(String path, ObjectId blob) {
        DirCacheEntry e = new DirCacheEntry(path);
        e.setFileMode(FileMode.REGULAR_FILE);
        e.setObjectId(blob);
        return e;
    }

    private static byte[] blob(Repository repo, ObjectReader reader, ObjectId commit, String path) throws IOException {
        try (RevWalk rw = new RevWalk(reader)) {
            RevCommit c = rw.parseCommit(commit);
            try (TreeWalk tw = TreeWalk.forPath(reader, path, c.getTree())) {
                if (tw == null || tw.getFileMode(0).getObjectType() != Constants.OBJ_BLOB)
                    return null; // absent, or a directory
                return reader.open(tw.getObjectId(0)).getBytes();
            }
        }
    }

    /** Versions in which {@code path} changed, newest first (at most {@code limit}). */
    public List<Version> list(String path, int limit) {
        List<Version> out = new ArrayList<>();
        try (Repository repo = open(false)) {
            if (repo == null) return out;
            ObjectId head = head(repo, false);
            if (head == null) return out;
            try (RevWalk w = new RevWalk(repo);
                    ObjectReader reader = repo.newObjectReader()) {
                w.markStart(w.parseCommit(head));
                w.setTreeFilter(AndTreeFilter.create(PathFilter.create(path), TreeFilter.ANY_DIFF));
                w.setRevFilter(RevFilter.ALL);
                for (RevCommit c : w) {
                    if (out.size() >= limit) break;
                    byte[] b = blob(repo, reader, c, path);
                    out.add(version(c, b));
                }
            }
            return out;
        } catch (IOException e) {
            throw new StewardError("memory_history", "cannot read " + repoDir() + ": " + IoErrors.describe(e), e);
        }
    }

    /** Versions in which {@code path} changed after version {@code id} (not included), newest first. */
    public List<Version> after(String path, String id) {
        List<Version> out = new ArrayList<>();
        try (Repository repo = open(false)) {
            if (repo == null) return out;
            ObjectId head = head(repo, false);
            if (head == null) return out;
            ObjectId since = resolve(repo, id);
            try (RevWalk w = new RevWalk(repo);
                    ObjectReader reader = repo.newObjectReader()) {
                w.markStart(w.parseCommit(head));
                w.markUninteresting(w.parseCommit(since));
                w.setTreeFilter(AndTreeFilter.create(PathFilter.create(path), TreeFilter.ANY_DIFF));
                for (RevCommit c : w) out.add(version(c, blob(repo, reader, c, path)));
            }
            return out;
        } catch (IOException e) {
            throw new StewardError("memory_history", "cannot read " + repoDir() + ": " + IoErrors.describe(e), e);
        }
    }

    /** The number of versions recorded for {@code path}. */
    public int count(String path) {
        return list(path, Integer.MAX_VALUE).size();
    }

    private static Version version(RevCommit c, byte[] b) {
        String full = c.getFullMessage();
        String client = null;
        int i = full.indexOf("\n\nclient: ");
        if (i >= 0) client = full.substring(i + 10).strip();
        long epoch = c.getCommitTime();
        return new Version(
                c.name().substring(0, 12),
                Instant.ofEpochSecond(epoch).toString(),
                epoch,
                c.getShortMessage(),
                client,
                b == null ? null : b.length,
                b == null);
    }

    /** The bytes of {@code path} in version {@code id} (a unique prefix of at least 7 hex digits); null when absent there. */
    public byte[] read(String path, String id) {
        try (Repository repo = open(false)) {
            if (repo == null) throw new StewardError("memory_history", "no versions recorded yet");
            ObjectId c = resolve(repo, id);
            try (ObjectReader reader = repo.newObjectReader()) {
                return blob(repo, reader, c, path);
            }
        } catch (IOException e) {
            throw new StewardError("memory_history", "cannot read version " + id + ": " + IoErrors.describe(e), e);
        }
    }

    /** The full id of the version {@code id} names. */
    public String fullId(String id) {
        try (Repository repo = open(false)) {
            if (repo == null) throw new StewardError("memory_history", "no versions recorded yet");
            return resolve(repo, id).name();
        } catch (IOException e) {
            throw new StewardError("memory_history", "cannot read version " + id + ": " + IoErrors.describe(e), e);
        }
    }

    private static ObjectId resolve(Repository repo, String id) throws IOException {
        if (id == null || !id.matches("[0-9a-f]{7,40}")) {
            throw new StewardError(
                    "memory_history", "version '" + id + "' is not a version id (7–40 hex digits, as listed)");
        }
        ObjectId c;
        try {
            c = repo.resolve(id + "^{commit}");
        } catch (org.eclipse.jgit.errors.AmbiguousObjectException e) {
            throw new StewardError("memory_history", "version '" + id + "' is ambiguous: give more digits");
        } catch (RuntimeException e) {
            c = null;
        }
        if (c == null) throw new StewardError("memory_history", "unknown version '" + id + "'");
        return c;
    }

    static byte[] readFile(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new StewardError("memory_history", "cannot read " + p + ": " + IoErrors.describe(e), e);
        }
    }
}
