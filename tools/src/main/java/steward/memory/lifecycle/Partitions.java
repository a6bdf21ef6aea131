package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import steward.StewardError;
import steward.json.Json;
import steward.state.IoErrors;
import tools.jackson.databind.JsonNode;

/**
 * Workspace partitions: {@code <root>/workspaces/<ws>/MEMORY.md}, each bound to a project directory by
 * {@code workspace.json}. A session's {@code cwd} maps to the partition whose directory is its longest path
 * prefix, as Hermes groups sessions into projects ({@code cwd = p OR cwd LIKE p/%}); no match means the root.
 */
public final class Partitions {
    private Partitions() {}

    public static final String META = "workspace.json";

    public record Workspace(String name, String path, Path dir) {
        public Path memoryFile() {
            return dir.resolve("MEMORY.md");
        }
    }

    public static List<Workspace> list(MemoryRoot root) {
        Path ws = root.workspacesDir();
        List<Workspace> out = new ArrayList<>();
        if (!Files.isDirectory(ws)) return out;
        try (Stream<Path> s = Files.list(ws)) {
            for (Path d : s.filter(Files::isDirectory).sorted().toList()) {
                Path meta = d.resolve(META);
                if (!Files.isRegularFile(meta)) continue;
                try {
                    JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(meta));
                    String p = n.path("path").asString("");
                    if (!p.isBlank()) out.add(new Workspace(d.getFileName().toString(), normalise(p), d));
                } catch (IOException | RuntimeException e) {
                    // an unreadable workspace.json: the directory is not a partition (health lists it)
                }
            }
        } catch (IOException e) {
            throw new StewardError("memory", "cannot list " + ws + ": " + IoErrors.describe(e));
        }
        return out;
    }

    /** The names of the partitions that exist. */
    public static Set<String> names(MemoryRoot root) {
        Set<String> out = new HashSet<>();
        for (Workspace w : list(root)) out.add(w.name());
        return out;
    }

    /** The partition whose directory is the longest prefix of {@code cwd}, or null for the root. */
    public static Workspace resolve(List<Workspace> all, String cwd) {
        if (cwd == null || cwd.isBlank()) return null;
        String c = normalise(cwd);
        return all.stream()
                .filter(w -> c.equals(w.path()) || c.startsWith(w.path().equals("/") ? "/" : w.path() + "/"))
                .max(Comparator.comparingInt(w -> w.path().length()))
                .orElse(null);
    }

    public static Workspace byName(List<Workspace> all, String name) {
        return all.stream().filter(w -> w.name().equals(name)).findFirst().orElse(null);
    }

    /** A new partition's name: the directory's base name as a slug, made unique among {@code taken}. */
    public static String slug(String path, List<Workspace> taken) {
        String base = Path.of(normalise(path)).getFileName() == null
                ? "root"
                : Path.of(normalise(path)).getFileName().toString();
        String s =
                base.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[-.]+|-+$", "");
        if (s.isEmpty()) s = "ws";
        String out = s;
        // "root" names the root scope (memory_consolidate's workspace "root"): never a partition
        for (int i = 2; byName(taken, out) != null || out.equals("root"); i++) out = s + "-" + i;
        return out;
    }

    public static String normalise(String p) {
        String s = p.strip().replace('\\', '/');
        while (s.length() > 1 && s.endsWith("/")) s = s.substring(0, s.length() - 1);
        return s;
    }

    public static byte[] meta(String path) {
        return (Json.MAPPER.createObjectNode().put("path", normalise(path)).toString() + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
