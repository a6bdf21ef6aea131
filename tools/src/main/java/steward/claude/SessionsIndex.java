package steward.claude;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A project's {@code sessions-index.json} (kept by some Claude Code versions: {@code {"version", "originalPath",
 * "entries": [{"sessionId", "fullPath", "fileMtime", "firstPrompt", "messageCount", "created", "modified", "gitBranch",
 * "projectPath", "isSidechain"}]}}). Steward only ever removes or re-inserts whole entries, and writes the rest back
 * in the file's own layout (JavaScript's {@code JSON.stringify} with the indentation it finds). A file it cannot
 * parse, or whose shape it does not know, is reported and never written.
 */
public final class SessionsIndex {
    private SessionsIndex() {}

    public static final String FILE = "sessions-index.json";

    /** Numbers keep their exact text (no float rounding when the file is written back). */
    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    /** An index as read: {@code root} null when absent or not understood ({@code error} says why). */
    public record Read(Path file, boolean exists, byte[] bytes, ObjectNode root, String error) {
        public boolean usable() {
            return root != null;
        }

        public Set<String> sessionIds() {
            Set<String> ids = new LinkedHashSet<>();
            if (root == null) return ids;
            for (JsonNode e : root.get("entries")) {
                JsonNode id = e.get("sessionId");
                if (id != null && id.isString()) ids.add(id.asString());
            }
            return ids;
        }
    }

    public static Read read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new Read(file, false, null, null, null);
        } catch (IOException e) {
            return new Read(file, true, null, null, "cannot read: " + e.getMessage());
        }
        return parse(file, bytes);
    }

    public static Read parse(Path file, byte[] bytes) {
        JsonNode n;
        try {
            n = MAPPER.readTree(bytes);
        } catch (RuntimeException e) {
            String m = e.getMessage() == null
                    ? e.getClass().getSimpleName()
                    : e.getMessage().lines().findFirst().orElse("");
            return new Read(file, true, bytes, null, "not valid JSON (" + m + ")");
        }
        if (n == null || !n.isObject()) return new Read(file, true, bytes, null, "not a JSON object");
        JsonNode entries = n.get("entries");
        if (entries == null || !entries.isArray()) return new Read(file, true, bytes, null, "no \"entries\" array");
        for (JsonNode e : entries)
            if (!e.isObject()) return new Read(file, true, bytes, null, "an entry is not an object");
        return new Read(file, true, bytes, (ObjectNode) n, null);
    }

    /** A removed entry and where it stood. */
    public record Removed(int position, JsonNode entry) {}

    /** The entries of {@code ids}, with their positions, in file order. */
    public static List<Removed> entriesOf(Read r, Set<String> ids) {
        List<Removed> out = new ArrayList<>();
        ArrayNode entries = (ArrayNode) r.root().get("entries");
        for (int i = 0; i < entries.size(); i++) {
            JsonNode id = entries.get(i).get("sessionId");
            if (id != null && id.isString() && ids.contains(id.asString())) out.add(new Removed(i, entries.get(i)));
        }
        return out;
    }

    /** The file's bytes without the entries of {@code ids}, in the file's layout. */
    public static byte[] without(Read r, Set<String> ids) {
        ObjectNode copy = r.root().deepCopy();
        ArrayNode entries = (ArrayNode) copy.get("entries");
        for (int i = entries.size() - 1; i >= 0; i--) {
            JsonNode id = entries.get(i).get("sessionId");
            if (id != null && id.isString() && ids.contains(id.asString())) entries.remove(i);
        }
        return render(copy, r.bytes());
    }

    /** The file's bytes with {@code add} put back at their old positions (entries already present are left alone). */
    public static byte[] with(Read r, List<Removed> add) {
        ObjectNode copy = r.root().deepCopy();
        ArrayNode entries = (ArrayNode) copy.get("entries");
        Set<String> have = r.sessionIds();
        for (Removed x : add.stream()
                .sorted((a, b) -> Integer.compare(a.position(), b.position()))
                .toList()) {
            JsonNode id = x.entry().get("sessionId");
            if (id != null && id.isString() && have.contains(id.asString())) continue;
            entries.insert(Math.min(x.position(), entries.size()), x.entry());
        }
        return render(copy, r.bytes());
    }

    /** Renders like {@code JSON.stringify(root, null, indent)} with the indentation and final newline of {@code like}. */
    static byte[] render(JsonNode root, byte[] like) {
        int indent = 0;
        int nl = indexOf(like, (byte) '\n');
        if (nl >= 0 && nl < like.length - 1) {
            int k = nl + 1;
            while (k < like.length && like[k] == ' ') k++;
            indent = k - nl - 1;
        }
        boolean tabs = nl >= 0 && nl + 1 < like.length && like[nl + 1] == '\t';
        StringBuilder sb = new StringBuilder();
        write(sb, root, tabs ? "\t" : " ".repeat(indent), 0);
        if (like.length > 0 && like[like.length - 1] == '\n') sb.append('\n');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code JSON.stringify(root, null, indent)}. */
    public static String stringify(JsonNode root, int indent) {
        StringBuilder sb = new StringBuilder();
        write(sb, root, " ".repeat(indent), 0);
        return sb.toString();
    }

    private static int indexOf(byte[] b, byte c) {
        for (int i = 0; i < b.length; i++) if (b[i] == c) return i;
        return -1;
    }

    private static void write(StringBuilder sb, JsonNode n, String unit, int depth) {
        boolean pretty = !unit.isEmpty();
        if (n.isObject()) {
            if (n.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                if (!first) sb.append(',');
                first = false;
                if (pretty) sb.append('\n').append(unit.repeat(depth + 1));
                string(sb, e.getKey());
                sb.append(pretty ? ": " : ":");
                write(sb, e.getValue(), unit, depth + 1);
            }
            if (pretty) sb.append('\n').append(unit.repeat(depth));
            sb.append('}');
        } else if (n.isArray()) {
            if (n.isEmpty()) {
                sb.append("[]");
                return;
            }
            sb.append('[');
            boolean first = true;
            for (JsonNode v : n) {
                if (!first) sb.append(',');
                first = false;
                if (pretty) sb.append('\n').append(unit.repeat(depth + 1));
                write(sb, v, unit, depth + 1);
            }
            if (pretty) sb.append('\n').append(unit.repeat(depth));
            sb.append(']');
        } else if (n.isString()) {
            string(sb, n.asString());
        } else if (n.isNull()) {
            sb.append("null");
        } else if (n.isBoolean()) {
            sb.append(n.asBoolean());
        } else if (n.isNumber()) {
            if (n.isBigDecimal()) {
                BigDecimal d = n.decimalValue();
                sb.append(d.scale() > 0 ? d.toString() : d.toPlainString());
            } else {
                sb.append(n.asString());
            }
        } else {
            sb.append(n.toString());
        }
    }

    /** A JSON string as JavaScript writes it: quotes, backslash and control characters escaped, everything else raw. */
    static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || (Character.isSurrogate(c) && !paired(s, i)))
                        sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }

    private static boolean paired(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
