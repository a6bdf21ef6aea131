package steward.sessions.audit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;
import steward.state.IoErrors;

/**
 * Plans in {@code <state dir>/plans/}. A plan is claimed for execution by an atomic rename into
 * {@code plans/used/}, so two processes can never apply the same plan; a failed apply releases it.
 */
public final class PlanStore {
    public static final double VALIDITY_SECONDS = 24 * 3600.0;
    private static final Pattern ID = Pattern.compile("p_[0-9a-f]{16}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;
    /** Plans hold three times per item: the shortest round-trip double writer (exact, like the default) is faster. */
    private static final tools.jackson.databind.json.JsonMapper WRITER = Json.MAPPER
            .rebuild()
            .enable(tools.jackson.core.StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .build();

    public PlanStore(Path stateDir) {
        this.dir = stateDir.resolve("plans");
    }

    public static boolean isPlanId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    public static String newId() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return "p_" + HexFormat.of().formatHex(b);
    }

    public Path file(String id) {
        return dir.resolve(id + ".json");
    }

    private Path usedFile(String id) {
        return dir.resolve("used").resolve(id + ".json");
    }

    public void save(Plan plan) {
        save(plan, null);
    }

    /** A plan's items being serialised on another thread while the audit renders its report. */
    public static final class Items {
        private final List<Plan.PlanItem> items;
        private final CompletableFuture<Chunks> json;

        private Items(List<Plan.PlanItem> items) {
            this.items = items;
            this.json = CompletableFuture.supplyAsync(() -> {
                Chunks out = new Chunks();
                WRITER.writeValue(out, items);
                return out;
            });
        }
    }

    /**
     * The items' JSON in chunks of 1 MiB as the writer produced it: written to the file as they are, never grown and
     * copied into one array (a 55,000-session plan is 12 MB).
     */
    static final class Chunks extends OutputStream {
        private static final int SIZE = 1 << 20;
        private final List<byte[]> full = new ArrayList<>();
        private byte[] cur = new byte[SIZE];
        private int pos;

        @Override
        public void write(int b) {
            if (pos == cur.length) next();
            cur[pos++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                if (pos == cur.length) next();
                int n = Math.min(len, cur.length - pos);
                System.arraycopy(b, off, cur, pos, n);
                pos += n;
                off += n;
                len -= n;
            }
        }

        private void next() {
            full.add(cur);
            cur = new byte[SIZE];
            pos = 0;
        }

        /** The bytes written, in order (views, no copies). */
        List<ByteBuffer> buffers() {
            List<ByteBuffer> out = new ArrayList<>(full.size() + 1);
            for (byte[] b : full) out.add(ByteBuffer.wrap(b));
            out.add(ByteBuffer.wrap(cur, 0, pos));
            return out;
        }
    }

    /** Starts serialising {@code items} (the list must not change afterwards); pass the result to {@link #save(Plan, Items)}. */
    public static Items serialiseAhead(List<Plan.PlanItem> items) {
        return new Items(items);
    }

    private static final byte[] EMPTY_ITEMS_TAIL = "[]}".getBytes(StandardCharsets.UTF_8);

    /**
     * Saves the plan; with {@code ahead} (serialised from the same item list) the items are spliced in after the other
     * fields: {@code items} is the last property, so the plan without items ends in {@code []}} and the items'
     * JSON array takes the place of {@code []}.
     */
    public void save(Plan plan, Items ahead) {
        try {
            prune(plan.created_at_epoch());
            AtomicFiles.write(file(plan.plan_id()), parts(plan, ahead).toArray(new ByteBuffer[0]));
        } catch (IOException | RuntimeException e) {
            throw new StewardError("session_audit", "cannot save the plan in " + dir + ": " + e.getMessage(), e);
        }
    }

    static byte[] bytes(Plan plan, Items ahead) {
        List<ByteBuffer> parts = parts(plan, ahead);
        int n = 0;
        for (ByteBuffer b : parts) n += b.remaining();
        byte[] out = new byte[n];
        int at = 0;
        for (ByteBuffer b : parts) {
            int len = b.remaining();
            b.duplicate().get(out, at, len);
            at += len;
        }
        return out;
    }

    /** The plan file's bytes in parts: the plan without items, the items serialised ahead spliced in, and its end. */
    private static List<ByteBuffer> parts(Plan plan, Items ahead) {
        if (ahead == null || ahead.items != plan.items() && !ahead.items.equals(plan.items()))
            return List.of(ByteBuffer.wrap(WRITER.writeValueAsBytes(plan)));
        byte[] head = WRITER.writeValueAsBytes(plan.withItems(List.of()));
        int cut = head.length - EMPTY_ITEMS_TAIL.length;
        if (cut < 0 || !Arrays.equals(head, cut, head.length, EMPTY_ITEMS_TAIL, 0, EMPTY_ITEMS_TAIL.length)) {
            // not the expected shape: no splice
            return List.of(ByteBuffer.wrap(WRITER.writeValueAsBytes(plan)));
        }
        List<ByteBuffer> out = new ArrayList<>();
        out.add(ByteBuffer.wrap(head, 0, cut));
        out.addAll(ahead.json.join().buffers());
        out.add(ByteBuffer.wrap(new byte[] {'}'}));
        return out;
    }

    /** Loads a plan that exists, is unused, unexpired and bound to {@code databaseKey}; anything else is refused. */
    public Plan load(String id, double nowEpoch, String databaseKey) {
        return load(id, nowEpoch, (store, location) -> databaseKey);
    }

    /** The key a store has now (null when it is not there), for {@link #load(String, double, KeyOf)}. */
    public interface KeyOf {
        String key(String store, String location);
    }

    /** Loads a plan that exists, is unused, unexpired, and whose every store has the key it had at audit time. */
    public Plan load(String id, double nowEpoch, KeyOf keys) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new StewardError(
                    "session_apply",
                    "unknown plan id '" + id + "' (expected p_ and 16 hex digits, as returned by session_audit)");
        }
        Path f = file(id);
        if (!Files.isRegularFile(f)) {
            if (Files.isRegularFile(usedFile(id)))
                throw new StewardError("session_apply", "plan " + id + " was already used; run session_audit again");
            throw new StewardError("session_apply", "unknown plan id " + id + "; run session_audit first");
        }
        Plan p;
        String damage;
        try {
            p = Json.MAPPER.readValue(Files.readAllBytes(f), Plan.class);
            damage = damage(p, id);
        } catch (IOException e) {
            throw new StewardError(
                    "session_apply",
                    "plan " + id + " cannot be read (" + IoErrors.describe(e) + "); run session_audit again",
                    e);
        } catch (RuntimeException e) {
            p = null;
            damage = Json.problem(e);
        }
        if (damage != null) {
            // never applied in part or guessed at: a damaged or foreign plan is refused whole and left where it is
            throw new StewardError(
                    "session_apply",
                    "plan " + id + " is unreadable: damaged (" + damage + "), or written by another Steward version; "
                            + "nothing was applied; run session_audit again");
        }
        if (nowEpoch > p.expires_at_epoch()) {
            throw new StewardError(
                    "session_apply",
                    "plan " + id + " expired at " + Times.iso(p.expires_at_epoch()) + "; run session_audit again");
        }
        for (Plan.StoreRef r : p.storeRefs()) {
            if (!r.key().equals(keys.key(r.store(), r.location()))) {
                throw new StewardError(
                        "session_apply",
                        "plan " + id + " was made for another "
                                + (r.store().equals("claude") ? "Claude Code home (" : "database (") + r.location()
                                + ")");
            }
        }
        return p;
    }

    private static final java.util.Set<String> ACTIONS =
            java.util.Set.of("delete", "mark_ended", "name_or_delete", "review", "retain", "rename");
    private static final java.util.Set<String> CONFIDENCES = java.util.Set.of("HIGH", "MEDIUM", "LOW");

    /** What makes {@code p} (read from {@code <id>.json}) no plan session_apply may act on, or null when it is whole. */
    static String damage(Plan p, String id) {
        if (p == null) return "empty";
        if (!id.equals(p.plan_id())) return "it holds plan " + p.plan_id();
        if (p.items() == null) return "no items";
        if (p.stores() != null) {
            if (p.stores().isEmpty()) return "no stores";
            for (Plan.StoreRef r : p.stores())
                if (r == null || r.store() == null || r.key() == null) return "a store without its name or key";
        } else if (p.database_key() == null) return "no database";
        int n = 0;
        for (Plan.PlanItem i : p.items()) {
            n++;
            if (i == null) return "item " + n + " is empty";
            if (i.item_id() == null || i.session_id() == null || i.rule() == null || i.fingerprint() == null)
                return "item " + n + " lacks its id, session, rule or fingerprint";
            if (!ACTIONS.contains(i.action()) || !CONFIDENCES.contains(i.confidence()))
                return "item " + n + " has action " + i.action() + " and confidence " + i.confidence();
            if (i.executable() && (i.action().equals("review") || i.action().equals("retain")))
                return "item " + n + " would run a " + i.action();
        }
        return null;
    }

    /** Removes plans (used or not) older than their validity: they can never be applied again. */
    private void prune(double nowEpoch) {
        for (Path d : List.of(dir, dir.resolve("used"))) {
            if (!Files.isDirectory(d)) continue;
            try (var s = Files.list(d)) {
                for (Path p : s.toList()) {
                    String n = p.getFileName().toString();
                    if (!n.endsWith(".json")
                            || !ID.matcher(n.substring(0, n.length() - 5)).matches()) continue;
                    if (Files.getLastModifiedTime(p).toMillis() / 1000.0 < nowEpoch - VALIDITY_SECONDS)
                        Files.deleteIfExists(p);
                }
            } catch (IOException ignored) {
                // pruning is housekeeping of our own; a failure here must not stop the audit
            }
        }
    }

    /** Marks the plan used (atomic rename); fails if another process claimed it first. */
    public void claim(String id) {
        try {
            AtomicFiles.ensurePrivateDir(dir.resolve("used"));
            Files.move(file(id), usedFile(id), StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            throw new StewardError("session_apply", "plan " + id + " was already used by another call");
        } catch (AtomicMoveNotSupportedException e) {
            throw new StewardError(
                    "session_apply", "cannot claim plan " + id + ": atomic rename unsupported in " + dir);
        } catch (IOException e) {
            throw new StewardError("session_apply", "cannot claim plan " + id + ": " + e.getMessage(), e);
        }
    }

    /** Puts a claimed plan back (after a failure that changed nothing). */
    public void release(String id) {
        try {
            Files.move(usedFile(id), file(id), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ignored) {
            // best effort: the plan stays used, the user audits again
        }
    }

    /** Puts a plan claimed by an interrupted apply back; false when it is not in used/ (or an unused copy exists). */
    public boolean releaseIfUsed(String id) {
        if (id == null || !ID.matcher(id).matches() || !Files.isRegularFile(usedFile(id)) || Files.exists(file(id)))
            return false;
        try {
            Files.move(usedFile(id), file(id), StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The newest stored (unused) plan, for "the latest audit report". */
    public Plan latest() {
        if (!Files.isDirectory(dir)) return null;
        try (var s = Files.list(dir)) {
            Path newest = s.filter(p -> ID.matcher(p.getFileName().toString().replace(".json", ""))
                            .matches())
                    .max((a, b) -> {
                        try {
                            return Files.getLastModifiedTime(a).compareTo(Files.getLastModifiedTime(b));
                        } catch (IOException e) {
                            return 0;
                        }
                    })
                    .orElse(null);
            return newest == null ? null : Json.MAPPER.readValue(Files.readAllBytes(newest), Plan.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Identity of a database file: its real path and file key (inode), so a copy elsewhere is another database. */
    public static String databaseKey(Path db) {
        try {
            Path real = db.toRealPath();
            Object key = Files.readAttributes(real, BasicFileAttributes.class).fileKey();
            return real + (key == null ? "" : "#" + key);
        } catch (IOException e) {
            return db.toAbsolutePath().normalize().toString();
        }
    }
}
