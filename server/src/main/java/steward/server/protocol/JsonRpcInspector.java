package steward.server.protocol;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every transport does with an incoming JSON-RPC message before the SDK sees it:
 * {@code notifications/cancelled} marks its request cancelled (the SDK ignores it as shipped), and a
 * {@code tools/call} gets its JSON-RPC id in {@code _meta} ({@link Cancellations#REQUEST_ID_META}) so the
 * running call can find its cancellation flag. Batches (arrays) are inspected element by element.
 */
public final class JsonRpcInspector {
    private JsonRpcInspector() {}

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
