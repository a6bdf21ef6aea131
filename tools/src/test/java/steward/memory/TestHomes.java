package steward.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import steward.config.StewardPaths;

/** Helpers to lay out a Hermes home for memory tests. */
final class TestHomes {
    private TestHomes() {}

    static Path repo() {
        String r = System.getProperty("steward.repo");
        return r == null ? Path.of("..").toAbsolutePath().normalize() : Path.of(r).toAbsolutePath().normalize();
    }

    static StewardPaths home(Path dir, int memoryLimit, int userLimit) throws IOException {
        Files.createDirectories(dir.resolve("memories"));
        Files.writeString(dir.resolve("config.yaml"), "memory:\n  memory_char_limit: " + memoryLimit + "\n  user_char_limit: "
                + userLimit + "\n", StandardCharsets.UTF_8);
        return StewardPaths.of(dir);
    }

    static String read(StewardPaths p, String name) throws IOException {
        Path f = p.memoriesDir().resolve(name);
        return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : null;
    }
}
