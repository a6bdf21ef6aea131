package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import steward.config.StewardPaths;
import steward.memory.MemoryWriter;

/** A private Hermes home for lifecycle tests: memory files, logs and a clock the test moves. */
final class LifecycleHomes {
    private LifecycleHomes() {}

    static final ZoneId ZONE = ZoneOffset.UTC;

    static StewardPaths home(Path tmp, String memory) throws IOException {
        Path home = tmp.resolve("home");
        Files.createDirectories(home.resolve("memories"));
        Files.createDirectories(home.resolve("skills/ops/deploy"));
        Files.writeString(
                home.resolve("skills/ops/deploy/SKILL.md"),
                "---\nname: deploy\ndescription: deploying the app\n---\n# Deploy\n\nrun make build then restart the service\n");
        if (memory != null) Files.writeString(home.resolve("memories/MEMORY.md"), memory);
        return StewardPaths.of(home);
    }

    static void log(StewardPaths p, String date, String body) throws IOException {
        Path f = p.memoriesDir().resolve("logs").resolve(date + ".md");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "# " + date + "\n\n" + body);
    }

    static Clock at(String iso) {
        return Clock.fixed(Instant.parse(iso), ZoneOffset.UTC);
    }

    static Consolidation consolidation(StewardPaths p, Clock c) {
        return new Consolidation(p, new HermesMemoryRoot(p, new MemoryWriter(p, c).config()), c, ZONE);
    }

    /** Every regular file under {@code dir} (relative path → bytes as text), lock files left out. */
    static Map<String, String> tree(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                String n = f.getFileName().toString();
                if (n.endsWith(".lock")) continue;
                out.put(dir.relativize(f).toString(), new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }
}
