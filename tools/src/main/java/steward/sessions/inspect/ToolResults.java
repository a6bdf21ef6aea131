package steward.sessions.inspect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * What a tool call and its result say, store-independently: whether the result is a failure, the duration it
 * recorded, and the files and commands in the call's arguments. Results are JSON objects for most agent tools
 * (Hermes' terminal: {@code {"output", "exit_code", "error"}}; delegate_task: {@code {"results": [...],
 * "total_duration_seconds"}}) or plain text.
 */
public final class ToolResults {
    private ToolResults() {}

    /** Results longer than this are not parsed as JSON; their first characters are scanned instead. */
    static final int PARSE_LIMIT = 200_000;

    static final int SCAN_CHARS = 4000;
    static final int MAX_COMMAND = 120;
    static final int MAX_PATH = 300;

    private static final Set<String> FAILED_EFFECTS = Set.of("error", "failed", "failure");
    private static final Set<String> FAILED_STATUS =
            Set.of("error", "failed", "failure", "timeout", "timed_out", "cancelled", "interrupted");
    private static final Pattern EXIT = Pattern.compile("\"(?:exit_code|returncode|exitCode)\"\\s*:\\s*(-?\\d+)");
    private static final Pattern ERROR = Pattern.compile("\"error\"\\s*:\\s*(\"[^\"]|\\{|true)");
    private static final Pattern SUCCESS_FALSE = Pattern.compile("\"success\"\\s*:\\s*false");

    /** Arguments as a JSON object: a JSON string is parsed (OpenAI format), an object is used as is, anything else is empty. */
    public static JsonNode arguments(JsonNode raw) {
        if (raw == null || raw.isNull()) return Json.MAPPER.createObjectNode();
        if (raw.isObject()) return raw;
        if (raw.isString()) {
            String s = raw.asString().strip();
            if (s.startsWith("{")) {
                try {
                    JsonNode n = Json.MAPPER.readTree(s);
                    if (n != null && n.isObject()) return n;
                } catch (RuntimeException e) {
                    // not JSON: no arguments
                }
            }
        }
        return Json.MAPPER.createObjectNode();
    }

    /** The result's JSON object, or null when it is not one (or too long to parse). */
    public static JsonNode json(String text) {
        if (text == null) return null;
        String s = text.strip();
        if (!s.startsWith("{") || s.length() > PARSE_LIMIT) return null;
        try {
            JsonNode n = Json.MAPPER.readTree(s);
            return n != null && n.isObject() ? n : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether a tool result reports a failure: the store's own mark (an error effect), a JSON result with a non-empty
     * {@code error}, {@code success: false}, {@code is_error: true}, a failed {@code status} or a non-zero exit code, or a
     * plain-text result that starts with "Error" or a Python traceback.
     */
    public static boolean failed(String text, JsonNode json, String effect, Boolean isError) {
        if (Boolean.TRUE.equals(isError)) return true;
        if (effect != null && FAILED_EFFECTS.contains(effect.toLowerCase(Locale.ROOT))) return true;
        if (json != null) {
            JsonNode e = json.get("error");
            if (e != null
                    && !e.isNull()
                    && !(e.isBoolean() && !e.asBoolean())
                    && !(e.isString() && e.asString().isBlank())
                    && !(e.isContainer() && e.isEmpty())) {
                return true;
            }
            if (json.path("success").isBoolean() && !json.path("success").asBoolean()) return true;
            if (json.path("is_error").isBoolean() && json.path("is_error").asBoolean()) return true;
            JsonNode st = json.get("status");
            if (st != null
                    && st.isString()
                    && FAILED_STATUS.contains(st.asString().toLowerCase(Locale.ROOT))) return true;
            for (String k : List.of("exit_code", "returncode", "exitCode")) {
                JsonNode x = json.get(k);
                if (x != null && x.isIntegralNumber() && x.asLong() != 0) return true;
            }
            return false;
        }
        if (text == null) return false;
        String head = text.length() > SCAN_CHARS ? text.substring(0, SCAN_CHARS) : text;
        String t = head.stripLeading();
        if (t.startsWith("{")) { // a JSON result too long to parse: scan its head
            Matcher m = EXIT.matcher(head);
            if (m.find() && !m.group(1).equals("0")) return true;
            return ERROR.matcher(head).find() || SUCCESS_FALSE.matcher(head).find();
        }
        String lower = t.toLowerCase(Locale.ROOT);
        return lower.startsWith("error") || lower.startsWith("traceback (most recent call last)");
    }

    /** A duration the result itself records, in seconds ({@code total_duration_seconds}, {@code duration_seconds}, {@code duration_ms}). */
    public static Double recordedSeconds(JsonNode json) {
        if (json == null) return null;
        for (String k : List.of("total_duration_seconds", "duration_seconds", "elapsed_seconds")) {
            JsonNode n = json.get(k);
            if (n != null && n.isNumber() && n.asDouble() >= 0) return n.asDouble();
        }
        JsonNode ms = json.get("duration_ms");
        if (ms != null && ms.isNumber() && ms.asDouble() >= 0) return ms.asDouble() / 1000.0;
        return null;
    }

    private static final List<String> PATH_KEYS =
            List.of("path", "file_path", "filepath", "file", "filename", "target_file", "notebook_path");
    private static final List<String> PATHS_KEYS = List.of("paths", "files", "file_paths");
    private static final Pattern WRITE_TOOL =
            Pattern.compile("write|patch|edit|create|delete|remove|move|rename|replace|append|apply");
    private static final Pattern COMMAND_TOOL = Pattern.compile("terminal|shell|bash|exec|run|command|process|sh$");

    /** A file named in a call: its path and whether the call writes it. */
    public record FileUse(String path, boolean write) {}

    public static List<FileUse> files(MessageEvent.ToolCall call) {
        List<FileUse> out = new ArrayList<>();
        JsonNode a = call.arguments();
        if (a == null || !a.isObject()) return out;
        boolean write = WRITE_TOOL.matcher(call.name().toLowerCase(Locale.ROOT)).find();
        for (String k : PATH_KEYS) {
            JsonNode v = a.get(k);
            if (v != null && v.isString()) add(out, v.asString(), write);
        }
        for (String k : PATHS_KEYS) {
            JsonNode v = a.get(k);
            if (v != null && v.isArray()) for (JsonNode p : v) if (p.isString()) add(out, p.asString(), write);
        }
        return out;
    }

    private static void add(List<FileUse> out, String p, boolean write) {
        String s = p.strip();
        if (s.isEmpty() || s.indexOf('\n') >= 0) return;
        if (s.length() > MAX_PATH) s = s.substring(0, MAX_PATH);
        for (FileUse f : out) if (f.path().equals(s)) return;
        out.add(new FileUse(s, write));
    }

    /** The command line a call runs (whitespace collapsed, cut to 120 characters), or null. */
    public static String command(MessageEvent.ToolCall call) {
        JsonNode a = call.arguments();
        if (a == null || !a.isObject()) return null;
        JsonNode v = a.get("command");
        if (v == null || !v.isString()) {
            if (!COMMAND_TOOL.matcher(call.name().toLowerCase(Locale.ROOT)).find()) return null;
            v = a.has("cmd") ? a.get("cmd") : a.get("script");
        }
        if (v == null) return null;
        String s;
        if (v.isString()) s = v.asString();
        else if (v.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode p : v)
                sb.append(sb.length() > 0 ? " " : "").append(p.isString() ? p.asString() : p.toString());
            s = sb.toString();
        } else return null;
        s = s.strip().replaceAll("\\s+", " ");
        if (s.isEmpty()) return null;
        return s.codePointCount(0, s.length()) > MAX_COMMAND
                ? s.substring(0, s.offsetByCodePoints(0, MAX_COMMAND - 1)) + "…"
                : s;
    }
}
