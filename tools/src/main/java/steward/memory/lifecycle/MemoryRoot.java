package steward.memory.lifecycle;

import java.nio.file.Path;

/**
 * Where an agent's long-term memory lives, as one abstraction so that another home (Claude Code's auto-memory
 * directory) can be plugged in next to Hermes' {@code memories/}: the main memory file, the daily logs, the
 * archive, the workspace partitions, the lock files a running agent honours, and the cap the agent enforces.
 */
public interface MemoryRoot {
    /** A short name of the home kind ("hermes"). */
    String kind();

    /** The memory directory (Hermes: {@code <home>/memories}). */
    Path dir();

    /** The root memory file every session loads (Hermes: {@code MEMORY.md}). */
    default Path memoryFile() {
        return dir().resolve("MEMORY.md");
    }

    /** The agent's own character cap on the root memory file (Hermes: {@code memory.memory_char_limit}). */
    int rootLimit();

    default Path logsDir() {
        return dir().resolve("logs");
    }

    default Path archiveDir() {
        return dir().resolve("archive");
    }

    default Path workspacesDir() {
        return dir().resolve("workspaces");
    }

    default Path indexFile() {
        return dir().resolve("memory-index.json");
    }

    /**
     * The lock a running agent takes before it writes {@code file}. For memory files this is Hermes' own
     * {@code <file>.lock} (flock); Steward's other files under the root share one lock.
     */
    default Path lockFor(Path file) {
        String n = file.getFileName().toString();
        if (n.equals("MEMORY.md") || n.equals("USER.md")) return file.resolveSibling(n + ".lock");
        return dir().resolve(".steward.lock");
    }

    /** The lock for Steward's own files under the root (logs, archive, index, partitions' metadata). */
    default Path stewardLock() {
        return dir().resolve(".steward.lock");
    }

    /** The path of {@code file} relative to the home (how history and plans name it). */
    String relative(Path file);
}
