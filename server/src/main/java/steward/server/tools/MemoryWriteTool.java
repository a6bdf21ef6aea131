package steward.server.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import steward.StewardError;
import steward.json.Json;
import steward.memory.MemoryRequest;
import steward.memory.MemoryResult;
import steward.memory.MemoryWriter;
import steward.memory.claude.ClaudeMemoryWriter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code memory_write}: Hermes' memory tool, checked, locked, atomic and backed up. */
public final class MemoryWriteTool extends StewardTool<MemoryWriteTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "memory_write",
                    "Write long-term memory (MEMORY.md / USER.md)",
                    "Adds, replaces or removes a long-term memory entry like Hermes' memory tool. target: memory (MEMORY.md, "
                            + "your notes), user (USER.md), claude (Claude Code auto memory), claude_md (CLAUDE.md: diff first, writes "
                            + "only with confirm). old_text: a unique substring; replace's content is the whole entry. Refuses injection, "
                            + "secrets, overflow, outside edits. With write approval on, writes are staged.")
            .destructive();

    /**
     * schemas/memory_write.input.json, Hermes' memory tool arguments. {@code operations} is an array or a string
     * holding the JSON array (some clients send it encoded), so it is read by {@link #request}.
     */
    public record Args(
            String target,
            String action,
            String content,
            String old_text,
            JsonNode operations,
            Boolean confirm_whole_file,
            String name,
            String description,
            String type,
            String project,
            String confirm) {}

    public MemoryWriteTool() {
        super(SPEC, Args.class);
    }

    /**
     * Hermes' memory tool takes a null target, action, content, old_text or operations, and an operation's null fields,
     * as left out: strict function-calling clients send null for every optional field.
     */
    @Override
    public ObjectNode arguments(ObjectNode given) {
        ObjectNode a = given.deepCopy();
        dropNulls(a);
        if (a.get("operations") instanceof ArrayNode ops)
            for (JsonNode op : ops) if (op instanceof ObjectNode o) dropNulls(o);
        return a;
    }

    private static void dropNulls(ObjectNode o) {
        List<String> nulls = new ArrayList<>();
        for (var e : o.properties()) if (e.getValue().isNull()) nulls.add(e.getKey());
        o.remove(nulls);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        if (a.target() != null && ClaudeMemoryWriter.TARGETS.contains(a.target())) return claude(a, ctx);
        if (a.name() != null
                || a.description() != null
                || a.type() != null
                || a.project() != null
                || a.confirm() != null) {
            throw new StewardError(
                    SPEC.name(),
                    "name, description, type, project and confirm are for the Claude Code targets ('claude', 'claude_md')");
        }
        MemoryResult r = new MemoryWriter(ctx.paths(), ctx.clock()).write(request(a));
        String text = MemoryTexts.render(r);
        if (r.success()) return ToolResult.ok(r.record(), text);
        return ToolResult.error(r.record(), "memory_write: " + r.record().get("error") + "\n\n" + text);
    }

    private static ToolResult claude(Args a, ToolContext ctx) {
        if (a.operations() != null && !a.operations().isNull())
            throw new StewardError(SPEC.name(), "operations is for the Hermes targets; pass one action");
        if (a.confirm() != null && !a.target().equals("claude_md"))
            throw new StewardError(SPEC.name(), "confirm is for target 'claude_md'");
        MemoryResult r = new ClaudeMemoryWriter(
                        ClaudeMemoryTargets.home(ctx, SPEC.name()), ctx.paths().stateDir(), ctx.clock())
                .write(
                        ClaudeMemoryTargets.project(a.project(), SPEC.name()),
                        new ClaudeMemoryWriter.Request(
                                a.target(),
                                a.action(),
                                a.content(),
                                a.old_text(),
                                a.name(),
                                a.description(),
                                a.type(),
                                a.confirm()));
        StringBuilder text = new StringBuilder();
        Object msg = r.record().get(r.success() ? "message" : "error");
        text.append(msg == null ? r.record().get("message") : msg);
        if (r.record().get("usage") != null)
            text.append("\nMEMORY.md: ").append(r.record().get("usage")).append(" (Claude Code loads the first 200)");
        if (r.record().get("matches") instanceof List<?> m)
            for (Object x : m) text.append("\n  match: ").append(x);
        if (r.record().get("claude") instanceof Map<?, ?> c && c.get("diff") != null)
            text.append('\n').append(c.get("diff"));
        if (r.record().get("backup") != null)
            text.append("\nbackup: ").append(r.record().get("backup"));
        if (r.success() || "needs_confirm".equals(r.kind()))
            return ToolResult.ok(r.record(), text.toString().stripTrailing());
        return ToolResult.error(r.record(), "memory_write: " + text.toString().stripTrailing());
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
                    throw new StewardError(
                            SPEC.name(),
                            "operations is not valid JSON (" + firstLine(e.getMessage())
                                    + "); pass an array of {action, content, old_text} objects");
                }
            }
            if (!o.isArray())
                throw new StewardError(
                        SPEC.name(), "operations must be an array of {action, content, old_text} objects");
            ops = new ArrayList<>();
            int i = 0;
            for (JsonNode op : o) {
                i++;
                if (!op.isObject())
                    throw new StewardError(
                            SPEC.name(), "operations[" + i + "] must be an object with action, content, old_text");
                ops.add(new MemoryRequest.Op(text(op, "action"), text(op, "content"), text(op, "old_text")));
            }
        }
        return new MemoryRequest(
                a.target(), a.action(), a.content(), a.old_text(), ops, Boolean.TRUE.equals(a.confirm_whole_file()));
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
