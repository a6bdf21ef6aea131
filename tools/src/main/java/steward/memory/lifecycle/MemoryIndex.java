package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
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
 * its recorded kind), with each entry's size and confidence; it carries each scope's position in the logs (per log file, the last
 * line processed) and the {@code audit_history} of runs (newest {@value #MAX_AUDIT} kept).
 */
public final class MemoryIndex {
    public static final int MAX_AUDIT = 200;
    static final Pattern TAG = Pattern.compile("^\\[([A-Za-z][A-Za-z-]{0,11})\\]");
    static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+)");

    private MemoryIndex() {}

    /** The one date and line per scope an index written before per-file positions held: the last line processed. */
    public record Watermark(String date, int line) {}

    /**
     * A scope's processed log lines: per log file (named by its date) the last line processed, so a note added to an
     * earlier-dated log (a move to a time zone behind, an edit by hand) is never skipped. {@code legacy}: the one
     * {@link Watermark} an earlier Steward wrote, read as it meant (files dated before it processed in full, its own file
     * through its line) until a plan carries it over into per-file positions ({@link #carriedOver}).
     */
    public record Position(Map<String, Integer> files, Watermark legacy) {
        public static final Position NONE = new Position(Map.of(), null);

        public Position {
            files = Collections.unmodifiableMap(new TreeMap<>(files));
        }

        public boolean processed(String date, int line) {
            Integer n = files.get(date);
            if (n != null && line <= n) return true;
            if (legacy == null) return false;
            int c = date.compareTo(legacy.date());
            return c < 0 || c == 0 && line <= legacy.line();
        }

        /** This position with {@code date} processed through {@code line} (never moved back). */
        public Position through(String date, int line) {
            Map<String, Integer> m = new TreeMap<>(files);
            m.merge(date, line, Math::max);
            return new Position(m, legacy);
        }

        /**
         * Per-file positions only: the legacy watermark becomes, for each log file in {@code logs} it covers, the last
         * line it covers now; positions of files no longer in {@code logs} (archived) are dropped.
         */
        public Position carriedOver(Map<LocalDate, Path> logs) {
            Map<String, Integer> m = new TreeMap<>();
            for (var f : logs.entrySet()) {
                String d = f.getKey().toString();
                int n = files.getOrDefault(d, 0);
                if (legacy != null && d.compareTo(legacy.date()) <= 0) {
                    int covered = d.equals(legacy.date()) ? legacy.line() : lastLine(f.getValue(), f.getKey());
                    n = Math.max(n, covered);
                }
                if (n > 0) m.put(d, n);
            }
            return new Position(m, null);
        }

        private static int lastLine(Path file, LocalDate date) {
            List<DailyLog.Line> ls = DailyLog.read(file, date).lines();
            return ls.isEmpty() ? 0 : ls.get(ls.size() - 1).number();
        }

        /** As gather shows it: {@code date#line} per file, or the legacy watermark. */
        public String describe() {
            List<String> out = new ArrayList<>();
            if (legacy != null) out.add("≤ " + legacy.date() + "#" + legacy.line());
            files.forEach((d, n) -> out.add(d + "#" + n));
            return out.isEmpty() ? null : String.join(",", out);
        }

        ObjectNode json() {
            ObjectNode o = Json.MAPPER.createObjectNode();
            ObjectNode f = o.putObject("files");
            files.forEach(f::put);
            if (legacy != null) o.put("date", legacy.date()).put("line", legacy.line());
            return o;
        }

        static Position of(JsonNode n) {
            Map<String, Integer> m = new TreeMap<>();
            n.path("files").properties().forEach(e -> {
                if (e.getValue().canConvertToInt())
                    m.put(e.getKey(), e.getValue().asInt());
            });
            String d = n.path("date").asString("");
            Watermark legacy =
                    d.isEmpty() ? null : new Watermark(d, n.path("line").asInt(0));
            return new Position(m, legacy);
        }
    }

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

    /** Each scope's position in the logs, as {@code index} (or a plan) holds them; either format. */
    public static Map<String, Position> positions(JsonNode watermarks) {
        Map<String, Position> out = new LinkedHashMap<>();
        watermarks.properties().forEach(e -> out.put(e.getKey(), Position.of(e.getValue())));
        return out;
    }

    public static Map<String, Position> positions(ObjectNode index) {
        return positions(index.path("watermarks"));
    }

    public static ObjectNode json(Map<String, Position> positions) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        positions.forEach((k, v) -> o.set(k, v.json()));
        return o;
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
            List<ScopeEntries> scopes, Map<String, Position> watermarks, ArrayNode audit, String generatedAt) {
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
        root.set("watermarks", json(watermarks));
        ArrayNode a = root.putArray("audit_history");
        int skip = Math.max(0, audit.size() - MAX_AUDIT);
        for (int i = skip; i < audit.size(); i++) a.add(audit.get(i));
        return (Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
