package steward.memory;

import java.util.ArrayList;
import java.util.List;

import steward.StewardError;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * One {@code memory_write} call, as Hermes' {@code memory} tool takes it: either a single {@code action}
 * ({@code add} / {@code replace} / {@code remove}) or a batch of {@code operations}; plus Steward's
 * {@code confirm_whole_file} for the USER.md single-entry trap.
 */
public record MemoryRequest(String target, String action, String content, String old_text, List<Op> operations,
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

    /**
     * The request from tool arguments. {@code operations} may be an array or a string holding a JSON array (some
     * clients send it encoded); anything else is a clear error.
     */
    public static MemoryRequest fromJson(JsonNode a) {
        String tool = "memory_write";
        List<Op> ops = null;
        JsonNode o = a.get("operations");
        if (o != null && !o.isNull()) {
            if (o.isString()) {
                try {
                    o = Json.MAPPER.readTree(o.asString());
                } catch (RuntimeException e) {
                    throw new StewardError(tool, "operations is not valid JSON (" + firstLine(e.getMessage())
                            + "); pass an array of {action, content, old_text} objects");
                }
            }
            if (!o.isArray()) throw new StewardError(tool, "operations must be an array of {action, content, old_text} objects");
            ops = new ArrayList<>();
            int i = 0;
            for (JsonNode op : o) {
                i++;
                if (!op.isObject()) throw new StewardError(tool, "operations[" + i + "] must be an object with action, content, old_text");
                ops.add(new Op(text(op, "action", tool), text(op, "content", tool), text(op, "old_text", tool)));
            }
        }
        return new MemoryRequest(text(a, "target", tool), text(a, "action", tool), text(a, "content", tool),
                text(a, "old_text", tool), ops, a.path("confirm_whole_file").asBoolean(false));
    }

    private static String text(JsonNode n, String field, String tool) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isString()) throw new StewardError(tool, field + " must be a string");
        return v.asString();
    }

    private static String firstLine(String s) {
        return s == null ? "parse error" : s.lines().findFirst().orElse(s);
    }

    /** Hermes' rule: a non-empty {@code operations} wins; an empty one is an error only when there is no action either. */
    public boolean isBatch() {
        return operations != null && (!operations.isEmpty() || action == null);
    }
}
