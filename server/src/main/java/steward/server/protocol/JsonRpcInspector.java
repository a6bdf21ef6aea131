package steward.server.protocol;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import steward.json.Json;
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

    /** {@code _meta} key set when a {@code tools/call}'s arguments were not an object (its value: what they were). */
    public static final String BAD_ARGUMENTS_META = "dev.steward/bad-arguments";

    /**
     * Why a request cannot be handed to the SDK (which would answer with its own class names), in plain words for a
     * -32602 answer under its id; null when it can. Requests only (messages with a method and an id).
     */
    public static String invalidParams(JsonNode msg) {
        if (!(msg instanceof ObjectNode o) || o.get("id") == null) return null;
        JsonNode m = o.get("method");
        if (m == null || !m.isString()) return null;
        JsonNode p = o.get("params");
        if (p == null || p.isNull()) return null;
        if (!p.isObject()) return "Invalid params: params must be a JSON object, not " + kind(p);
        JsonNode meta = p.get("_meta");
        if (meta != null && !meta.isNull() && !meta.isObject())
            return "Invalid params: _meta must be a JSON object, not " + kind(meta);
        if (m.asString().equals("tools/call")) {
            JsonNode name = p.get("name");
            if (name == null || !name.isString()) return "Invalid params: tools/call needs the tool's name as a string";
        }
        return null;
    }

    /** A JSON value's kind in plain words ("a string", "an array", ...). */
    public static String kind(JsonNode n) {
        if (n.isString()) return "a string";
        if (n.isArray()) return "an array";
        if (n.isNumber()) return "a number";
        if (n.isBoolean()) return "a boolean";
        if (n.isNull()) return "null";
        return "an object";
    }

    /** A JSON-RPC error response under {@code id} (null unless a string or a number), as every transport writes it. */
    public static ObjectNode errorResponse(JsonNode id, int code, String message) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("jsonrpc", "2.0");
        if (id == null || !(id.isString() || id.isNumber())) node.putNull("id");
        else node.set("id", id);
        ObjectNode err = node.putObject("error");
        err.put("code", code);
        err.put("message", message);
        return node;
    }

    /** The id a line that failed to parse still shows to a plain scan (null: none or unreadable, answered with id null). */
    public static JsonNode salvagedId(String text) {
        String raw = rawId(text);
        if (raw == null) return null;
        try {
            return Json.MAPPER.readTree(raw);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /** The plain-words -32700 message for a JSON text the parser refused with {@code e}. */
    public static String parseErrorMessage(RuntimeException e) {
        return e.getMessage() != null && e.getMessage().contains("nesting depth")
                ? "Parse error: nested too deeply (more levels than the JSON parser accepts)"
                : "Parse error: not a JSON text";
    }

    /**
     * The {@code id} member of a top-level JSON object found by a plain scan of the text, for a line the JSON parser
     * refused (too deeply nested, malformed after the id): the raw id token (a number, a string with its quotes,
     * or null) or null when there is none at depth 1. Never recursive, so any nesting depth is scanned.
     */
    public static String rawId(String text) {
        int depth = 0;
        boolean expectKey = false;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char ch = text.charAt(i);
            if (ch == '"') {
                int end = stringEnd(text, i);
                if (end < 0) return null;
                if (depth == 1 && expectKey && text.substring(i, end + 1).equals("\"id\"")) {
                    int j = skipSpace(text, end + 1);
                    if (j >= n || text.charAt(j) != ':') return null;
                    j = skipSpace(text, j + 1);
                    if (j >= n) return null;
                    if (text.charAt(j) == '"') {
                        int e = stringEnd(text, j);
                        return e < 0 ? null : text.substring(j, e + 1);
                    }
                    int e = j;
                    while (e < n && "-+.0123456789eE".indexOf(text.charAt(e)) >= 0) e++;
                    return e == j ? null : text.substring(j, e);
                }
                expectKey = false;
                i = end;
            } else if (ch == '{') {
                depth++;
                expectKey = depth == 1;
            } else if (ch == '[') {
                depth++;
                expectKey = false;
            } else if (ch == '}' || ch == ']') {
                depth--;
                expectKey = false;
            } else if (ch == ',') {
                expectKey = depth == 1;
            }
        }
        return null;
    }

    private static int stringEnd(String s, int open) {
        for (int i = open + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') i++;
            else if (c == '"') return i;
        }
        return -1;
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        return i;
    }

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
                JsonNode a = params.get("arguments");
                if (a != null && !a.isNull() && !a.isObject()) {
                    // the SDK would fail to bind it and answer with its own class names: the tool answers in plain
                    // words
                    params.putObject("arguments");
                    meta.put(BAD_ARGUMENTS_META, kind(a));
                }
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
