package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;
import steward.state.IoErrors;
import tools.jackson.core.type.TypeReference;

/**
 * Evidence of every entry, keyed by {@link EntryKey}, in {@code <state dir>/memory/evidence.json} (written only by
 * a consolidation's apply, atomically), plus {@code references.log}: one line per memory entry that recall
 * returned ({@code date<TAB>key}), appended by recall without a lock (each line is one small write).
 */
public final class EvidenceStore {
    private final Path dir;

    public EvidenceStore(Path stateDir) {
        this.dir = stateDir.resolve("memory");
    }

    public Path file() {
        return dir.resolve("evidence.json");
    }

    public Path referencesLog() {
        return dir.resolve("references.log");
    }

    public record Doc(int version, Map<String, Evidence> entries) {}

    /** The evidence of every entry; a file that cannot be read, or holds a record that is not whole, is refused as it is. */
    public Map<String, Evidence> read() {
        String why;
        try {
            byte[] b = Files.readAllBytes(file());
            Doc d = Json.MAPPER.readValue(b, new TypeReference<Doc>() {});
            why = d == null
                    ? "empty"
                    : d.version() > 1
                            ? "written by a newer Steward (version " + d.version() + "); it is left as it is"
                            : damage(d.entries());
            if (why == null) return d.entries() == null ? new TreeMap<>() : new TreeMap<>(d.entries());
        } catch (NoSuchFileException e) {
            return new TreeMap<>();
        } catch (IOException e) {
            why = steward.state.IoErrors.describe(e);
        } catch (RuntimeException e) {
            why = Json.problem(e);
        }
        throw new StewardError(
                "memory", "cannot read " + file() + " (" + why + "); move it aside to start the evidence afresh");
    }

    /** Why {@code entries} are not whole evidence (a null record, a date that is none, a count below zero), or null. */
    static String damage(Map<String, Evidence> entries) {
        if (entries == null) return null;
        for (Map.Entry<String, Evidence> e : entries.entrySet()) {
            Evidence x = e.getValue();
            if (x == null) return "entry " + e.getKey() + " is empty";
            if (x.mentions() < 0 || !Double.isFinite(x.level()))
                return "entry " + e.getKey() + " has " + x.mentions() + " mentions at level " + x.level();
            for (String d : new String[] {x.first_seen(), x.last_seen(), x.last_referenced(), x.level_changed()}) {
                if (d == null) continue;
                try {
                    LocalDate.parse(d);
                } catch (RuntimeException bad) {
                    return "entry " + e.getKey() + " has '" + d + "' where a date belongs";
                }
            }
        }
        return null;
    }

    public static byte[] bytes(Map<String, Evidence> entries) {
        return (Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(new Doc(1, new TreeMap<>(entries)))
                        + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The latest reference date per key. */
    public Map<String, LocalDate> references() {
        Map<String, LocalDate> out = new HashMap<>();
        try {
            for (String l : Files.readAllLines(referencesLog(), StandardCharsets.UTF_8)) {
                int t = l.indexOf('\t');
                if (t <= 0) continue;
                try {
                    LocalDate d = LocalDate.parse(l.substring(0, t));
                    out.merge(l.substring(t + 1).strip(), d, (a, b) -> a.isAfter(b) ? a : b);
                } catch (RuntimeException e) {
                    // a torn or foreign line: skip it
                }
            }
        } catch (NoSuchFileException e) {
            return out;
        } catch (IOException e) {
            throw new StewardError("memory", "cannot read " + referencesLog() + ": " + IoErrors.describe(e));
        }
        return out;
    }

    /** Appends one reference line per entry text (recall calls this for the memory entries it returned). */
    public void referenced(Collection<String> entryTexts, LocalDate on) {
        if (entryTexts.isEmpty()) return;
        StringBuilder sb = new StringBuilder();
        for (String t : entryTexts)
            sb.append(on).append('\t').append(EntryKey.of(t)).append('\n');
        try {
            AtomicFiles.ensurePrivateDir(dir);
            boolean fresh = !Files.exists(referencesLog());
            Files.write(
                    referencesLog(),
                    sb.toString().getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE);
            if (fresh) AtomicFiles.setMode(referencesLog(), AtomicFiles.FILE_MODE);
        } catch (IOException e) {
            System.err.println(
                    "steward: cannot record memory references in " + referencesLog() + ": " + IoErrors.describe(e));
        }
    }
}
