package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import steward.json.Json;
import steward.memory.MemoryRules;
import steward.text.CodePoints;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code memory-index.json} in the memory root: rebuilt in full by every consolidation from the memory files'
 * sections (an entry's section is its tag — {@code [env]}, {@code [ops]}, … — or a leading {@code ## } heading, else
 * its recorded kind), with each entry's size and confidence; it carries the per-scope watermarks of processed log
 * lines and the {@code audit_history} of runs (newest {@value #MAX_AUDIT} kept).
 */
public final class MemoryIndex {
    public static final int MAX_AUDIT = 200;
    static final Pattern TAG = Pattern.compile("^\\[([A-Za-z][A-Za-z-]{0,11})\\]");
    static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+)");

    private MemoryIndex() {}

    public record Watermark(String date, int line) {}

    /** The index as read (an absent or unreadable file reads as empty; a rebuild replaces it). */
    public static ObjectNode read(MemoryRoot root) {
        try {
            JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(root.indexFile()));
            if (n instanceof ObjectNode o) return o;
        } catch (NoSuchFileException e) {
            // none yet
        } catch (IOException | RuntimeException e) {
            // unreadable: rebuilt from the files by the next consolidation
        }
        return Json.MAPPER.createObjectNode();
    }

    public static Map<String, Watermark> watermarks(ObjectNode index) {
        Map<String, Watermark> out = new LinkedHashMap<>();
        index.path("watermarks")
                .properties()
                .forEach(e -> out.put(
                        e.getKey(),
                        new Watermark(
                                e.getValue().path("date").asString(""),
                                e.getValue().path("line").asInt(0))));
        return out;
    }

    public static String section(String entry, String kind) {
        String body = Confidence.parse(entry).body();
        Matcher m = TAG.matcher(body);
        if (m.find()) return m.group(1).toLowerCase(Locale.ROOT);
        Matcher h = HEADING.matcher(body.lines().findFirst().orElse(""));
        if (h.find()) return h.group(1).strip();
        return kind == null || kind.isBlank() ? "general" : kind;
    }

    /** One scope as the index shows it. */
    public record ScopeEntries(Scope scope, String file, List<String> entries, Map<String, Evidence> evidence) {}

    public static byte[] build(
            List<ScopeEntries> scopes, Map<String, Watermark> watermarks, ArrayNode audit, String generatedAt) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("version", 1);
        root.put("generated_at", generatedAt);
        root.put("generated_by", "steward memory_consolidate");
        ArrayNode arr = root.putArray("scopes");
        for (ScopeEntries s : scopes) {
            ObjectNode o = arr.addObject();
            o.put("scope", s.scope().id());
            if (s.scope().workspacePath() != null)
                o.put("workspace_path", s.scope().workspacePath());
            o.put("file", s.file());
            o.put("chars", MemoryRules.chars(s.entries()));
            o.put("limit", s.scope().limit());
            o.put("entries", s.entries().size());
            Map<String, List<Integer>> bySection = new LinkedHashMap<>();
            for (int i = 0; i < s.entries().size(); i++) {
                Evidence ev = s.evidence().get(EntryKey.of(s.entries().get(i)));
                bySection
                        .computeIfAbsent(
                                section(s.entries().get(i), ev == null ? null : ev.kind()), k -> new ArrayList<>())
                        .add(i);
            }
            ArrayNode secs = o.putArray("sections");
            for (var e : bySection.entrySet()) {
                ObjectNode so = secs.addObject();
                so.put("name", e.getKey());
                List<String> es = e.getValue().stream().map(s.entries()::get).toList();
                so.put("chars", MemoryRules.chars(es));
                ArrayNode items = so.putArray("entries");
                for (int i : e.getValue()) {
                    String t = s.entries().get(i);
                    Confidence.Parsed p = Confidence.parse(t);
                    ObjectNode it = items.addObject();
                    it.put("n", i + 1);
                    it.put("confidence", p.level());
                    it.put("prefixed", p.prefixed());
                    it.put("chars", CodePoints.length(t));
                    it.put("key", EntryKey.of(t));
                    it.put("preview", MemoryRules.preview(p.body().replace('\n', ' ')));
                }
            }
        }
        ObjectNode wm = root.putObject("watermarks");
        watermarks.forEach((k, v) -> wm.putObject(k).put("date", v.date()).put("line", v.line()));
        ArrayNode a = root.putArray("audit_history");
        int skip = Math.max(0, audit.size() - MAX_AUDIT);
        for (int i = skip; i < audit.size(); i++) a.add(audit.get(i));
        return (Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
