package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.memory.Flock;
import steward.memory.history.History;
import steward.state.AtomicFiles;
import steward.state.FileTrees;
import steward.state.IoErrors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes a change of several files all-or-nothing across a crash. Every new content is staged in
 * {@code <state dir>/journal/<id>/} and every file that will be overwritten is backed up first; then one atomic write of the
 * manifest marks the change committed; then the operations run, each idempotent. A crash before the commit mark
 * leaves the old state untouched (the next call discards the journal); a crash after it is rolled forward by the
 * next call, so what anyone finds after the next call is the old state or the new one, never a mix.
 */
public final class Journal {
    /** Test hook: after this many operations the process stops and waits to be killed (-1: before the commit mark). */
    static final String CRASH_PROPERTY = "steward.journal.crashAt";

    private Journal() {}

    static final String ABSENT = "absent";

    /** One operation: write {@code bytes} to {@code target}, or move {@code source} to {@code target} (bytes identical). */
    public record Op(String kind, Path target, byte[] bytes, Path source, String sha) {
        public static Op put(Path target, byte[] bytes) {
            return new Op("put", target, bytes, null, Journal.sha(bytes));
        }

        public static Op move(Path source, Path target, String sha) {
            return new Op("move", target, null, source, sha);
        }
    }

    public static Path dir(StewardPaths paths) {
        return paths.stateDir().resolve("journal");
    }

    /** Runs {@code ops} as one all-or-nothing change; {@code backupDir} receives a copy of every file it replaces or moves. */
    public static void run(StewardPaths paths, String id, List<Op> ops, Path backupDir) {
        Path j = dir(paths).resolve(id);
        try {
            if (Files.exists(j)) FileTrees.delete(j);
            Path staged = j.resolve("staged");
            AtomicFiles.ensurePrivateDir(staged);
            ArrayNode list = Json.MAPPER.createArrayNode();
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                ObjectNode n = list.addObject()
                        .put("kind", op.kind())
                        .put("target", op.target().toString())
                        .put("sha", op.sha());
                if (op.kind().equals("put")) {
                    AtomicFiles.write(staged.resolve(String.valueOf(i)), op.bytes());
                    n.put("staged", String.valueOf(i));
                    // what the target holds now: a roll-forward overwrites only these bytes (or the plan's own)
                    byte[] before = read(op.target());
                    n.put("before", before == null ? ABSENT : sha(before));
                } else {
                    n.put("source", op.source().toString());
                }
                // a move keeps its bytes (the journal can always finish it): only files a put replaces are backed up
                if (backupDir != null && op.kind().equals("put") && Files.isRegularFile(op.target())) {
                    Path b = backupDir.resolve(
                            String.format("%03d-", i) + op.target().getFileName());
                    AtomicFiles.write(b, Files.readAllBytes(op.target()));
                }
            }
            ObjectNode m = Json.MAPPER.createObjectNode().put("id", id).put("committed", false);
            m.set("ops", list);
            AtomicFiles.write(j.resolve("manifest.json"), Json.MAPPER.writeValueAsBytes(m));
            crashPoint(-1);
            m.put("committed", true);
            AtomicFiles.write(j.resolve("manifest.json"), Json.MAPPER.writeValueAsBytes(m));
            execute(j, m, false);
        } catch (IOException e) {
            throw new StewardError(
                    "memory_consolidate",
                    "cannot apply the change (" + e.getMessage() + "); the next call completes or discards it");
        }
    }

    /**
     * Completes every committed journal and discards every uncommitted one, holding {@code lock} (the lock every
     * change through the journal holds, so a change still running in another process is never touched). Returns the
     * ids it completed. Never call it while holding {@code lock}.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public static List<String> recover(StewardPaths paths, Path lock) {
        List<String> done = new ArrayList<>();
        Path d = dir(paths);
        if (!Files.isDirectory(d)) return done;
        try (Stream<Path> s = Files.list(d)) {
            if (s.findAny().isEmpty()) return done;
        } catch (IOException e) {
            throw new StewardError("memory", "cannot read the journal in " + d + ": " + IoErrors.describe(e));
        }
        try (Flock l = Flock.exclusive(lock);
                Stream<Path> s = Files.list(d)) {
            for (Path j : s.filter(Files::isDirectory).sorted().toList()) {
                if (j.getFileName().toString().endsWith(UNREADABLE)) continue; // set aside, reported by steward_status
                Path mf = j.resolve("manifest.json");
                JsonNode m = null;
                boolean unreadable = false;
                try {
                    m = Json.MAPPER.readTree(Files.readAllBytes(mf));
                    unreadable = m == null
                            || !m.path("committed").isBoolean()
                            || !m.path("ops").isArray();
                } catch (NoSuchFileException e) {
                    // never got as far as a manifest: nothing was touched
                } catch (IOException | RuntimeException e) {
                    unreadable = true;
                }
                if (unreadable) {
                    // it may have been committed: neither completed on a guess nor discarded with its staged bytes
                    setAside(j);
                    continue;
                }
                if (m != null && m.path("committed").asBoolean(false)) {
                    Map<Path, byte[]> touched = new LinkedHashMap<>();
                    for (JsonNode n : m.path("ops")) {
                        if (n.has("source"))
                            touched.put(Path.of(n.path("source").asString()), null);
                        touched.put(Path.of(n.path("target").asString()), null);
                    }
                    execute(j, m, true);
                    done.add(j.getFileName().toString());
                    // the change is a version like any other (the interrupted apply never got to record it)
                    History.recordQuietly(
                            paths,
                            Clock.systemUTC(),
                            "memory_consolidate " + j.getFileName() + " (completed after an interruption)",
                            touched);
                } else {
                    FileTrees.delete(j);
                }
            }
        } catch (IOException e) {
            throw new StewardError("memory", "cannot recover the journal in " + d + ": " + IoErrors.describe(e));
        }
        return done;
    }

    /** The suffix of a journal whose manifest cannot be read: kept as it is, never completed or discarded. */
    public static final String UNREADABLE = ".unreadable";

    private static void setAside(Path j) throws IOException {
        Path to = j.resolveSibling(j.getFileName() + UNREADABLE);
        for (int i = 2; Files.exists(to); i++) to = j.resolveSibling(j.getFileName() + "-" + i + UNREADABLE);
        Files.move(j, to, StandardCopyOption.ATOMIC_MOVE);
        AtomicFiles.fsyncDir(j.getParent());
        System.err.println("steward: journal " + j.getFileName() + ": its manifest cannot be read; set aside as " + to
                + " (neither completed nor discarded: see steward_status)");
    }

    /** Journals set aside by {@link #recover} because their manifest could not be read (steward_status lists them). */
    public static List<Path> unreadable(StewardPaths paths) {
        Path d = dir(paths);
        if (!Files.isDirectory(d)) return List.of();
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> p.getFileName().toString().endsWith(UNREADABLE) && Files.isDirectory(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Runs the operations. {@code recovering}: completing a change an interrupted process committed, holding only the
     * journal's lock: a memory file is then written under the lock Hermes takes for it, and a file whose bytes are
     * neither the change's nor the ones it replaced was changed by someone else since the interruption (Hermes' own
     * memory tool, an editor) and is left as it is, never overwritten.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    private static void execute(Path j, JsonNode m, boolean recovering) throws IOException {
        int i = 0;
        for (JsonNode n : m.path("ops")) {
            Path target = Path.of(n.path("target").asString());
            String sha = n.path("sha").asString();
            if (n.path("kind").asString().equals("put")) {
                byte[] staged = Files.readAllBytes(
                        j.resolve("staged").resolve(n.path("staged").asString()));
                if (recovering && hermesLocked(target)) {
                    try (Flock l = Flock.exclusive(target.resolveSibling(target.getFileName() + ".lock"))) {
                        put(target, sha, n.path("before").asString(null), staged, j);
                    }
                } else {
                    put(target, sha, n.path("before").asString(null), staged, j);
                }
            } else {
                move(Path.of(n.path("source").asString()), target, sha);
            }
            crashPoint(++i);
        }
        FileTrees.delete(j);
        AtomicFiles.fsyncDir(j.getParent());
    }

    private static boolean hermesLocked(Path target) {
        String name = target.getFileName().toString();
        return name.equals("MEMORY.md") || name.equals("USER.md");
    }

    /** Writes {@code staged} unless the target already holds it, or holds what nobody expected ({@code before}: null in an older manifest). */
    private static void put(Path target, String sha, String before, byte[] staged, Path j) throws IOException {
        byte[] cur = read(target);
        String now = cur == null ? ABSENT : sha(cur);
        if (now.equals(sha)) return;
        if (before != null && !now.equals(before)) {
            System.err.println(
                    "steward: journal " + j.getFileName() + ": " + target
                            + " changed since the interrupted change; left as it is (its bytes are backed up in the state dir)");
            return;
        }
        AtomicFiles.write(AtomicFiles.throughLinks(target), staged); // a symlinked file keeps its link
    }

    /** Moves {@code src} to {@code dst} keeping the bytes; idempotent (a finished or half-finished move is completed). */
    static void move(Path src, Path dst, String sha) throws IOException {
        byte[] d = read(dst);
        boolean srcThere = Files.exists(src);
        if (d != null && sha(d).equals(sha)) {
            if (srcThere) {
                byte[] s = read(src);
                if (s != null && Arrays.equals(s, d)) Files.delete(src);
            }
            return;
        }
        if (!srcThere) return; // moved away by someone else: nothing of ours to finish
        if (d != null) throw new IOException(dst + " exists with other content; refusing to overwrite it");
        AtomicFiles.ensurePrivateDir(dst.toAbsolutePath().getParent());
        try {
            Files.move(src, dst, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            byte[] s = Files.readAllBytes(src);
            AtomicFiles.write(dst, s);
            if (!Arrays.equals(Files.readAllBytes(dst), s))
                throw new IOException("copy of " + src + " to " + dst + " differs");
            Files.delete(src);
        }
        AtomicFiles.fsyncDir(dst.toAbsolutePath().getParent());
        AtomicFiles.fsyncDir(src.toAbsolutePath().getParent());
    }

    static byte[] read(Path p) throws IOException {
        try {
            return Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static void crashPoint(int k) {
        String at = System.getProperty(CRASH_PROPERTY);
        if (at == null || Integer.parseInt(at) != k) return;
        System.err.println("CRASH-POINT " + k);
        System.err.flush();
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static String sha(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
