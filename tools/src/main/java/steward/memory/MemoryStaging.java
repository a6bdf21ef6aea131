package steward.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.state.AtomicFiles;
import steward.state.IoErrors;

/**
 * Write approval: with {@code memory.write_approval: true} in config.yaml (or {@code memory.write_approval} in
 * Steward's {@code settings.json}) a write is staged as {@code <home>/pending/memory/<8 hex>.json} instead of
 * applied. {@code memory_pending} lists, approves (applies exactly the staged request, re-checking limit,
 * matches and drift under the lock) or rejects them.
 */
public final class MemoryStaging {
    private static final Pattern ID = Pattern.compile("[0-9a-f]{8}");
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One staged write as stored on disk. {@code removes}: the entries it would remove or replace when it was staged
     * (empty when it would remove none or would fail then; null in a write staged before Steward recorded it). An
     * approval never removes another entry than these.
     */
    public record Pending(
            String pending_id,
            String created_at,
            long created_at_epoch,
            String target,
            String summary,
            MemoryRequest request,
            List<String> removes) {}

    private final StewardPaths paths;
    private final Clock clock;

    public MemoryStaging(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
    }

    public Path dir() {
        return paths.hermesHome().resolve("pending").resolve("memory");
    }

    MemoryResult stage(MemoryRequest r, MemoryTarget t, int limit, MemoryDocument doc, String why) {
        Instant now = clock.instant();
        String id;
        Path file;
        try {
            AtomicFiles.ensurePrivateDir(dir());
            do {
                byte[] b = new byte[4];
                RANDOM.nextBytes(b);
                id = HexFormat.of().formatHex(b);
                file = dir().resolve(id + ".json");
            } while (Files.exists(file));
            MemoryRequest normalised = new MemoryRequest(
                    t.id, r.action(), r.content(), r.old_text(), r.operations(), r.confirm_whole_file());
            Pending p = new Pending(
                    id,
                    now.toString(),
                    now.getEpochSecond(),
                    t.id,
                    summary(normalised),
                    normalised,
                    removes(MemoryWriter.compute(r, t, limit, doc), doc));
            AtomicFiles.write(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(p));
        } catch (IOException e) {
            throw new StewardError(
                    "memory_write", "cannot stage the write in " + dir() + ": " + IoErrors.describe(e), e);
        }
        int chars = MemoryRules.chars(doc.entries());
        MemoryWriter.Step now2 = MemoryWriter.compute(r, t, limit, doc);
        Map<String, Object> rec = MemoryWriter.ordered(
                "success",
                true,
                "staged",
                true,
                "pending_id",
                id,
                "target",
                t.id,
                "usage",
                MemoryRules.usage(chars, limit),
                "message",
                "Write staged for approval (" + why + "); nothing "
                        + "was written yet. Show the user the change and ask them to approve or reject pending write "
                        + id + ".",
                "kind",
                "staged",
                "capacity",
                MemoryWriter.capacity(t, chars, limit, doc.entries().size()));
        if (now2.record() != null && Boolean.FALSE.equals(now2.record().get("success"))
                || "drift".equals(now2.kind())) {
            rec.put(
                    "warnings",
                    List.of("If approved as things stand, this write would fail (" + now2.kind()
                            + (now2.record() == null ? "" : ": " + now2.record().get("error"))
                            + "); approval re-checks everything under the lock."));
        }
        return new MemoryResult("staged", true, rec);
    }

    /** The entries of {@code doc} that {@code step} would remove or replace (none when it would not write). */
    static List<String> removes(MemoryWriter.Step step, MemoryDocument doc) {
        if (step.newEntries() == null) return List.of();
        List<String> out = new ArrayList<>(doc.entries());
        out.removeAll(step.newEntries());
        return out;
    }

    static String summary(MemoryRequest r) {
        if (r.isBatch()) {
            List<String> parts = new ArrayList<>();
            for (MemoryRequest.Op op : r.operations()) parts.add(describe(op.action(), op.content(), op.old_text()));
            return r.target() + ": batch of " + r.operations().size() + " — " + String.join("; ", parts);
        }
        return r.target() + ": " + describe(r.action(), r.content(), r.old_text());
    }

    private static String describe(String action, String content, String old) {
        return switch (action == null ? "" : action) {
            case "add" -> "add \"" + MemoryRules.preview(MemoryRules.clean(content)) + "\"";
            case "replace" ->
                "replace \"" + MemoryRules.preview(MemoryRules.clean(old)) + "\" → \""
                        + MemoryRules.preview(MemoryRules.clean(content)) + "\"";
            case "remove" -> "remove \"" + MemoryRules.preview(MemoryRules.clean(old)) + "\"";
            default -> String.valueOf(action);
        };
    }

    /**
     * The staged writes Steward can apply (each under its file's id, oldest first) and the staged files it cannot use:
     * not JSON, or without a request or a time (damaged, or another writer's format). Those are left as they are, for
     * a person to look at, and named rather than hidden.
     */
    public record Listing(List<Pending> pending, List<Path> unreadable) {}

    public List<Pending> list() {
        return listing().pending();
    }

    public Listing listing() {
        List<Pending> out = new ArrayList<>();
        List<Path> unreadable = new ArrayList<>();
        if (!Files.isDirectory(dir())) return new Listing(out, unreadable);
        try (Stream<Path> s = Files.list(dir())) {
            for (Path p : s.filter(f -> ID.matcher(f.getFileName().toString().replace(".json", ""))
                                    .matches()
                            && f.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .toList()) {
                try {
                    out.add(read(p));
                } catch (IOException | RuntimeException e) {
                    unreadable.add(p);
                }
            }
        } catch (IOException e) {
            throw new StewardError("memory_pending", "cannot list " + dir() + ": " + IoErrors.describe(e), e);
        }
        out.sort(Comparator.comparing(Pending::created_at).thenComparing(Pending::pending_id));
        return new Listing(out, unreadable);
    }

    /** A staged file as Steward staged it, under the id its name says; refused when it is not one Steward can apply. */
    private static Pending read(Path f) throws IOException {
        Pending p = Json.MAPPER.readValue(Files.readAllBytes(f), Pending.class);
        if (p == null || p.request() == null || p.created_at() == null)
            throw new IOException("not a write staged by Steward (no request or no time)");
        String id = f.getFileName().toString().replace(".json", "");
        return new Pending(id, p.created_at(), p.created_at_epoch(), p.target(), p.summary(), p.request(), p.removes());
    }

    public Pending get(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new StewardError(
                    "memory_pending", "pending_id must be 8 lower-case hex characters, got '" + id + "'");
        }
        Path f = dir().resolve(id + ".json");
        try {
            return read(f);
        } catch (NoSuchFileException e) {
            throw new StewardError("memory_pending", "no pending write " + id + " (already approved or rejected?)");
        } catch (IOException | RuntimeException e) {
            throw new StewardError(
                    "memory_pending",
                    "pending write " + id + " is unreadable (" + Json.problem(e) + "); it is left as it is: " + f);
        }
    }

    /** Applies the staged write; the staged file is removed only when the write succeeded. */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public MemoryResult approve(String id, MemoryWriter writer) {
        get(id); // an unknown or malformed id is refused before the lock (which would create the state dir) is taken
        try (Flock l = Flock.exclusive(paths.stateDir().resolve("pending-memory.lock"))) {
            Pending p = get(id);
            // checked on the file as the writer reads it under Hermes' lock (Hermes may write until then)
            MemoryTarget t = MemoryTarget.of(p.target());
            MemoryResult r = p.removes() == null || t == null
                    ? writer.writeApproved(p.request())
                    : writer.writeApproved(p.request(), (step, doc) -> unapproved(p, t, removes(step, doc)));
            if (r.success()) Files.deleteIfExists(dir().resolve(id + ".json"));
            return r;
        } catch (IOException e) {
            throw new StewardError("memory_pending", "cannot approve " + id + ": " + IoErrors.describe(e), e);
        }
    }

    /**
     * The refusal when {@code now} (what the write would now remove or replace) holds an entry the staged write did not
     * (its file changed since: old_text now names another entry, or an entry the user edited); null when it may go on.
     */
    private MemoryResult unapproved(Pending p, MemoryTarget t, List<String> now) {
        List<String> unapproved = new ArrayList<>(now);
        unapproved.removeAll(p.removes());
        if (unapproved.isEmpty()) return null;
        return new MemoryResult(
                "changed_since_staged",
                false,
                MemoryWriter.ordered(
                        "success",
                        false,
                        "error",
                        t.file(paths).getFileName() + " changed since write " + p.pending_id()
                                + " was staged: approving it now would remove or replace "
                                + String.join(
                                        ", ",
                                        unapproved.stream()
                                                .map(e -> "\"" + MemoryRules.preview(e) + "\"")
                                                .toList())
                                + ", which the staged write did not. Nothing was written; reject it and stage the "
                                + "write again against the file as it is now.",
                        "kind",
                        "changed_since_staged"));
    }

    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public Pending reject(String id) {
        get(id); // refused before anything is created
        try (Flock l = Flock.exclusive(paths.stateDir().resolve("pending-memory.lock"))) {
            Pending p = get(id);
            Files.deleteIfExists(dir().resolve(id + ".json"));
            return p;
        } catch (IOException e) {
            throw new StewardError("memory_pending", "cannot reject " + id + ": " + IoErrors.describe(e), e);
        }
    }
}
