package steward.memory;

import java.nio.file.Path;
import steward.config.HermesConfig;
import steward.config.StewardPaths;

/** The two Hermes memory stores: {@code memory} → {@code MEMORY.md}, {@code user} → {@code USER.md}. */
public enum MemoryTarget {
    MEMORY("memory", "MEMORY.md"),
    USER("user", "USER.md");

    public final String id;
    public final String fileName;

    MemoryTarget(String id, String fileName) {
        this.id = id;
        this.fileName = fileName;
    }

    /** The target named {@code s}, or null when it is not one of Hermes' two targets. */
    public static MemoryTarget of(String s) {
        if ("memory".equals(s)) return MEMORY;
        if ("user".equals(s)) return USER;
        return null;
    }

    public Path file(StewardPaths paths) {
        return paths.memoriesDir().resolve(fileName);
    }

    public Path lockFile(StewardPaths paths) {
        return paths.memoriesDir().resolve(fileName + ".lock");
    }

    public int limit(HermesConfig cfg) {
        return this == USER ? cfg.userCharLimit() : cfg.memoryCharLimit();
    }

    /** How Hermes names the store in messages ("Memory at …"); Steward says "User profile" for USER.md. */
    public String label() {
        return this == USER ? "User profile" : "Memory";
    }
}
