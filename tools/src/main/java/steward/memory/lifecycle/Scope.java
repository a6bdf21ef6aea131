package steward.memory.lifecycle;

import java.nio.file.Path;

/**
 * What one consolidation works on: the root memory file ({@code id = "root"}) or one workspace partition
 * ({@code id = "ws:<name>"}). Log notes carry their partition ({@code @name:}); a scope sees only its own.
 */
public record Scope(String id, String workspace, String workspacePath, Path file, int limit, boolean hermesCap) {
    /** The seed's size at which a memory file is healthy (≤), trimmed at the next run (>), or consolidated now (> 6000). */
    public static final int HEALTHY_CHARS = 4000;

    public static final int URGENT_CHARS = 6000;

    public static Scope root(MemoryRoot root) {
        return new Scope("root", null, null, root.memoryFile(), root.rootLimit(), true);
    }

    public static Scope of(Partitions.Workspace w) {
        return new Scope("ws:" + w.name(), w.name(), w.path(), w.memoryFile(), HEALTHY_CHARS, false);
    }

    public boolean isRoot() {
        return workspace == null;
    }

    /** The size a consolidation keeps this scope under: Hermes' cap for the root, the seed's 4000 for a partition. */
    public int target() {
        return hermesCap ? Math.min(limit, HEALTHY_CHARS) : HEALTHY_CHARS;
    }
}
