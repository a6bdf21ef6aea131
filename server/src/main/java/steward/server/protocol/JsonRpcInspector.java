package steward.server.protocol;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every transport does with an incoming JSON-RPC message before the SDK sees it:
 * {@code notifications/cancelled} marks its request cancelled (the SDK ignores it as shipped), and a
 * {@code tools/call} gets its JSON-RPC id in {@code _meta} ({@link Cancellations#REQUEST_ID_META}) so the
 * running call can find its cancellation flag. Batches (arrays) are inspected element by element.
 * <p>A {@code tools/call} naming a tool no server of this process has is sent to a tool that exists with the
 * name asked for in {@link #UNKNOWN_TOOL_META}: its handler answers the JSON-RPC error naming that tool (the SDK's
 * own error always reads "Unknown tool: invalid_tool_name"), through the SDK, so every transport frames it as usual.
 */
public final class JsonRpcInspector {
    /** Where the name of a tool nobody has travels (see the class comment). */
    public static final String UNKNOWN_TOOL_META = "dev.steward/unknown-tool";
    /** The tools the servers of this process have, filled as they are built; empty = no rewriting. */
    private static final Set<String> KNOWN_TOOLS = ConcurrentHashMap.newKeySet();
    private static volatile String anyKnownTool;

    private JsonRpcInspector() {}

    /** Called for every tool a server registers. */
    public static void knownTool(String name) {
        KNOWN_TOOLS.add(name);
        if (anyKnownTool == null) anyKnownTool = name;
    }

    /** Inspects (and possibly rewrites in place) {@code tree}; returns whether it was rewritten. */
    public static boolean inspect(JsonNode tree, String session, Cancellations cancellations) {
        boolean changed = false;
        if (tree != null && tree.isArray()) {
            for (JsonNode n : tree) changed |= inspectMessage(n, session, cancellations);
        } else if (tree != null) {
            changed = inspectMessage(tree, session, cancellations);
        }
        return changed;
    }

    private static boolean inspectMessage(JsonNode msg, String session, Cancellations cancellations) {
        if (!(msg instanceof ObjectNode o)) return false;
        JsonNode method = o.get("method");
        if (method == null || !method.isString()) return false;
        switch (method.asString()) {
            case "notifications/cancelled" -> {
                JsonNode params = o.get("params");
                String rid = params == null ? null : idText(params.get("requestId"));
                if (rid != null) cancellations.cancel(session, rid);
                return false;
            }
            case "tools/call" -> {
                String rid = idText(o.get("id"));
                if (rid == null) return false;
                JsonNode p = o.get("params");
                if (p != null && !p.isObject()) return false;
                ObjectNode params = p == null ? o.putObject("params") : (ObjectNode) p;
                JsonNode m = params.get("_meta");
                if (m != null && !m.isObject()) return false;
                ObjectNode meta = m == null ? params.putObject("_meta") : (ObjectNode) m;
                meta.put(Cancellations.REQUEST_ID_META, rid);
                meta.remove(UNKNOWN_TOOL_META);
                JsonNode name = params.get("name");
                String stand = anyKnownTool;
                if (name != null && name.isString() && stand != null && !KNOWN_TOOLS.contains(name.asString())) {
                    meta.put(UNKNOWN_TOOL_META, name.asString());
                    params.put("name", stand);
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** A JSON-RPC id as text (strings as is, integers in decimal); null if absent or of another type. */
    public static String idText(JsonNode id) {
        if (id == null) return null;
        if (id.isString()) return id.asString();
        if (id.isIntegralNumber()) return id.bigIntegerValue().toString();
        if (id.isNumber()) return id.toString();
        return null;
    }
}
