package steward.server.tools;

import java.util.ArrayList;
import java.util.List;

import steward.StewardError;
import steward.json.Json;
import steward.memory.MemoryRequest;
import steward.memory.MemoryResult;
import steward.memory.MemoryWriter;
import tools.jackson.databind.JsonNode;

/** {@code memory_write}: Hermes' memory tool, checked, locked, atomic and backed up. */
public final class MemoryWriteTool extends StewardTool<MemoryWriteTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of("memory_write", "Write long-term memory (MEMORY.md / USER.md)",
            "Adds, replaces or removes a long-term memory entry like Hermes' memory tool (target memory = MEMORY.md, "
                + "your notes; user = USER.md, about the user). old_text: a unique substring of the entry; replace's content "
                + "is the COMPLETE entry. Refuses injection, secrets, unmatched old_text, overflow (says what to compress), "
                + "files edited outside. With write approval on, writes are staged for memory_pending.")
            .destructive();

    /**
     * schemas/memory_write.input.json, Hermes' memory tool arguments. {@code operations} is an array or a string
     * holding the JSON array (some clients send it encoded), so it is read by {@link #request}.
     */
    public record Args(String target, String action, String content, String old_text, JsonNode operations, Boolean confirm_whole_file) {}

    public MemoryWriteTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        MemoryResult r = new MemoryWriter(ctx.paths(), ctx.clock()).write(request(a));
        String text = MemoryTexts.render(r);
        if (r.success()) return ToolResult.ok(r.record(), text);
        return ToolResult.error(r.record(), "memory_write: " + r.record().get("error") + "\n\n" + text);
    }

    /** The engine's request; a string {@code operations} is parsed here, and anything but an array of objects is a clear error. */
    static MemoryRequest request(Args a) {
        List<MemoryRequest.Op> ops = null;
        JsonNode o = a.operations();
        if (o != null && !o.isNull()) {
            if (o.isString()) {
                try {
                    o = Json.MAPPER.readTree(o.asString());
                } catch (RuntimeException e) {
                    throw new StewardError(SPEC.name(), "operations is not valid JSON (" + firstLine(e.getMessage())
                            + "); pass an array of {action, content, old_text} objects");
                }
            }
            if (!o.isArray()) throw new StewardError(SPEC.name(), "operations must be an array of {action, content, old_text} objects");
            ops = new ArrayList<>();
            int i = 0;
            for (JsonNode op : o) {
                i++;
                if (!op.isObject()) throw new StewardError(SPEC.name(), "operations[" + i + "] must be an object with action, content, old_text");
                ops.add(new MemoryRequest.Op(text(op, "action"), text(op, "content"), text(op, "old_text")));
            }
        }
        return new MemoryRequest(a.target(), a.action(), a.content(), a.old_text(), ops, Boolean.TRUE.equals(a.confirm_whole_file()));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isString()) throw new StewardError(SPEC.name(), field + " must be a string");
        return v.asString();
    }

    private static String firstLine(String s) {
        return s == null ? "parse error" : s.lines().findFirst().orElse(s);
    }
}
