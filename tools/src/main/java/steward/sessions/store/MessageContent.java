package steward.sessions.store;

import steward.json.Json;
import tools.jackson.databind.JsonNode;

/** Hermes stores list or dict message content as {@code "\u0000json:" + JSON}. */
public final class MessageContent {
    private MessageContent() {}

    public static final String JSON_PREFIX = "\u0000json:";

    public static boolean isEncodedJson(String raw) {
        return raw != null && raw.startsWith(JSON_PREFIX);
    }

    /** The decoded JSON value, or a text node for plain content; null stays null. */
    public static JsonNode decode(String raw) {
        if (raw == null) return null;
        if (isEncodedJson(raw)) {
            try {
                return Json.MAPPER.readTree(raw.substring(JSON_PREFIX.length()));
            } catch (RuntimeException e) {
                return Json.MAPPER.getNodeFactory().stringNode(raw.substring(JSON_PREFIX.length()));
            }
        }
        return Json.MAPPER.getNodeFactory().stringNode(raw);
    }

    /**
     * The readable text of a message: plain content as is; for encoded content the concatenated
     * {@code text} parts (OpenAI/Anthropic content-part lists) or, failing that, the JSON text.
     */
    public static String text(String raw) {
        if (raw == null) return "";
        if (!isEncodedJson(raw)) return raw;
        JsonNode node = decode(raw);
        StringBuilder sb = new StringBuilder();
        collectText(node, sb);
        return sb.length() > 0 ? sb.toString() : node.toString();
    }

    private static void collectText(JsonNode node, StringBuilder sb) {
        if (node == null) return;
        if (node.isString()) {
            append(sb, node.asString());
        } else if (node.isArray()) {
            for (JsonNode n : node) collectText(n, sb);
        } else if (node.isObject()) {
            JsonNode t = node.get("text");
            if (t != null && t.isString()) append(sb, t.asString());
            else if (node.get("content") != null) collectText(node.get("content"), sb);
        }
    }

    private static void append(StringBuilder sb, String s) {
        if (s.isEmpty()) return;
        if (sb.length() > 0) sb.append('\n');
        sb.append(s);
    }
}
