package steward.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import steward.state.AtomicFiles;

/**
 * Pre-write snapshots of MEMORY.md / USER.md in Steward's state dir ({@code backups/memory/<file>.<ts>}),
 * newest {@value #KEEP} kept per file. Hermes writes no pre-write snapshot of its own (only the drift
 * {@code .bak.<ts>} next to the file), so Steward keeps these out of Hermes' directory.
 */
public final class MemoryBackups {
    public static final int KEEP = 2;
    private static final DateTimeFormatter TS =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);

    private MemoryBackups() {}

    public static Path dir(Path stateDir) {
        return stateDir.resolve("backups").resolve("memory");
    }

    /** Saves {@code bytes} as the newest snapshot of {@code fileName} and prunes older ones; returns the snapshot. */
    public static Path snapshot(Path stateDir, String fileName, byte[] bytes, Instant now) throws IOException {
        Path dir = dir(stateDir);
        AtomicFiles.ensurePrivateDir(dir);
        AtomicFiles.removeStaleTemps(dir, 1); // a snapshot a killed write left half-made
        String base = fileName + "." + TS.format(now);
        Path target = dir.resolve(base);
        for (int i = 1; Files.exists(target); i++) target = dir.resolve(base + "-" + i);
        AtomicFiles.write(target, bytes);
        prune(dir, fileName);
        return target;
    }

    public static List<Path> list(Path stateDir, String fileName) throws IOException {
        Path dir = dir(stateDir);
        if (!Files.isDirectory(dir)) return List.of();
        String prefix = fileName + ".";
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith(prefix)
                                && n.length() > prefix.length()
                                && Character.isDigit(n.charAt(prefix.length()));
                    })
                    .forEach(out::add);
        }
        out.sort((a, b) -> key(a).compareTo(key(b)));
        return out;
    }

    private static String key(Path p) {
        String n = p.getFileName().toString();
        int dash = n.lastIndexOf('-');
        if (dash > n.lastIndexOf('Z')) {
            return n.substring(0, dash) + String.format("%06d", Integer.parseInt(n.substring(dash + 1)));
        }
        return n + "000000";
    }

    private static void prune(Path dir, String fileName) throws IOException {
        List<Path> all = list(dir.getParent().getParent(), fileName);
        for (int i = 0; i < all.size() - KEEP; i++) Files.deleteIfExists(all.get(i));
    }
}
