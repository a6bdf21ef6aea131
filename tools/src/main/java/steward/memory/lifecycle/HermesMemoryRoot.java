package steward.memory.lifecycle;

import java.nio.file.Path;
import steward.StewardError;
import steward.config.HermesConfig;
import steward.config.StewardPaths;

/** Hermes' memory root: {@code <hermes home>/memories}, capped by {@code memory.memory_char_limit}. */
public record HermesMemoryRoot(StewardPaths paths, HermesConfig config) implements MemoryRoot {
    /**
     * Refuses a call about Hermes' memory when there is no Hermes home: Steward never creates one (a Claude Code-only
     * user has none), and an absent memory is not an empty one.
     */
    public static void requireHome(MemoryRoot root, StewardPaths paths, String context) {
        if (root instanceof HermesMemoryRoot) requireHome(paths, context);
    }

    /** {@link #requireHome(MemoryRoot, StewardPaths, String)} for Hermes' memory. */
    public static void requireHome(StewardPaths paths, String context) {
        if (!paths.hermesPresent()) {
            throw new StewardError(
                    context,
                    "no Hermes home at " + paths.hermesHome() + " (set --hermes-home or HERMES_HOME); "
                            + "Claude Code's memory is not served by it");
        }
    }

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
        return paths.hermesHome()
                .relativize(file.toAbsolutePath().normalize())
                .toString()
                .replace('\\', '/');
    }
}
