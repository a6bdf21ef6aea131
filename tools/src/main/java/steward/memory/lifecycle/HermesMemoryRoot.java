package steward.memory.lifecycle;

import java.nio.file.Path;

import steward.config.HermesConfig;
import steward.config.StewardPaths;

/** Hermes' memory root: {@code <hermes home>/memories}, capped by {@code memory.memory_char_limit}. */
public record HermesMemoryRoot(StewardPaths paths, HermesConfig config) implements MemoryRoot {
    @Override
    public String kind() {
        return "hermes";
    }

    @Override
    public Path dir() {
        return paths.memoriesDir();
    }

    @Override
    public int rootLimit() {
        return config.memoryCharLimit();
    }

    @Override
    public String relative(Path file) {
        return paths.hermesHome().relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }
}
