package steward.memory;

import java.util.List;

/**
 * One {@code memory_write} call, as Hermes' {@code memory} tool takes it: either a single {@code action}
 * ({@code add} / {@code replace} / {@code remove}) or a batch of {@code operations}; plus Steward's
 * {@code confirm_whole_file} for the USER.md single-entry trap. The tool's arguments are read into it by the server's
 * {@code memory_write} adapter.
 */
public record MemoryRequest(
        String target,
        String action,
        String content,
        String old_text,
        List<Op> operations,
        boolean confirm_whole_file) {

    public record Op(String action, String content, String old_text) {}

    public static MemoryRequest add(String target, String content) {
        return new MemoryRequest(target, "add", content, null, null, false);
    }

    public static MemoryRequest replace(String target, String oldText, String content) {
        return new MemoryRequest(target, "replace", content, oldText, null, false);
    }

    public static MemoryRequest remove(String target, String oldText) {
        return new MemoryRequest(target, "remove", null, oldText, null, false);
    }

    public static MemoryRequest batch(String target, List<Op> ops) {
        return new MemoryRequest(target, null, null, null, ops, false);
    }

    /** Hermes' rule ({@code if operations:}): a non-empty {@code operations} wins; an empty one is no batch. */
    public boolean isBatch() {
        return operations != null && !operations.isEmpty();
    }
}
