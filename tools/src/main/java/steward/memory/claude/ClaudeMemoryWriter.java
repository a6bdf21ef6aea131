package steward.memory.claude;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import steward.StewardError;
import steward.memory.MemoryBackups;
import steward.memory.MemoryResult;
import steward.memory.MemoryRules;
import steward.state.AtomicFiles;
import steward.text.CodePoints;

/**
 * {@code memory_write} for Claude Code. Target {@code claude}: auto memory as Claude Code lays it out — one topic file per
 * memory with front matter ({@code name}, {@code description}, {@code type}) and one index line
 * {@code - [name](file.md) — description} in MEMORY.md; add, replace (the topic by a unique {@code old_text}) or remove
 * (topic file and its index lines). An add that would push MEMORY.md past the 200 lines Claude Code loads is refused.
 * Target {@code claude_md}: the project's CLAUDE.md, which is the user's — a call without {@code confirm} returns the diff
 * and a token and writes nothing; the same call with {@code confirm} = that token writes it, and only if the diff is still
 * the one shown. Both: cleaned and threat-scanned like the Hermes targets, every file snapshotted into
 * {@code <state dir>/backups/memory/} before it changes, written atomically with its permissions kept, and refused when
 * the file changed while Steward computed the write (drift) or is a symlink. Nothing is written on any refusal.
 */
public final class ClaudeMemoryWriter {
    public static final Set<String> TARGETS = Set.of("claude", "claude_md");
    static final int MAX_NAME = 80;

    public record Request(
            String target,
            String action,
            String content,
            String oldText,
            String name,
            String description,
            String type,
            String confirm) {}

    private final Path claudeHome;
    private final Path stateDir;
    private final Clock clock;

    public ClaudeMemoryWriter(Path claudeHome, Path stateDir, Clock clock) {
        this.claudeHome = claudeHome;
        this.stateDir = stateDir;
        this.clock = clock;
    }

    public MemoryResult write(Path project, Request r) {
        String action = r.action() == null ? "" : r.action();
        if (!Set.of("add", "replace", "remove").contains(action)) {
            return fail(
                    r.target(), "invalid_argument", "Unknown action '" + action + "'. Use: add, replace, remove", null);
        }
        // half of a character (a lone surrogate) would match half of an emoji and be written as "?": refused, as for
        // Hermes' files
        for (String s : new String[] {r.content(), r.oldText(), r.name(), r.description()}) {
            int lone = s == null ? -1 : CodePoints.loneSurrogate(s);
            if (lone >= 0)
                return fail(r.target(), "invalid_argument", CodePoints.loneSurrogateRefusal("a text", lone), null);
        }
        String content = MemoryRules.clean(r.content());
        String old = MemoryRules.clean(r.oldText());
        if (!action.equals("remove") && content.isEmpty())
            return fail(r.target(), "invalid_argument", "Content is required for '" + action + "' action.", null);
        if (!action.equals("add") && old.isEmpty())
            return fail(r.target(), "missing_old_text", "old_text is required for '" + action + "' action.", null);
        for (String s : new String[] {content, r.name(), r.description()}) {
            var threat = s == null ? Optional.<String>empty() : MemoryRules.threat(s);
            if (threat.isPresent()) return fail(r.target(), "threat", threat.get(), null);
        }
        ClaudeMemoryFiles f = ClaudeMemoryFiles.read(claudeHome, project);
        try {
            return r.target().equals("claude_md")
                    ? claudeMd(f, action, content, old, r.confirm())
                    : autoMemory(f, action, content, old, r);
        } catch (DriftException e) {
            return fail(r.target(), "drift", e.getMessage(), null);
        } catch (IOException e) {
            throw new StewardError(
                    "memory_write",
                    "could not write Claude Code memory: " + e.getMessage()
                            + " (files are replaced atomically: nothing is torn)");
        }
    }

    // ---------------------------------------------------------------- auto memory

    private MemoryResult autoMemory(ClaudeMemoryFiles f, String action, String content, String old, Request r)
            throws IOException {
        String t = "claude";
        if (r.type() != null && !ClaudeMemoryFiles.TYPES.contains(r.type())) {
            return fail(t, "invalid_argument", "type must be one of " + ClaudeMemoryFiles.TYPES, null);
        }
        for (String s : new String[] {r.name(), r.description()}) {
            if (s != null && (s.contains("\n") || s.contains("\r")))
                return fail(t, "invalid_argument", "name and description are one line each", null);
        }
        if (r.name() != null && CodePoints.length(r.name().strip()) > MAX_NAME)
            return fail(t, "invalid_argument", "name is longer than " + MAX_NAME + " characters", null);
        Path index = f.index();
        for (Path p : List.of(index, f.memoryDir())) {
            if (Files.isSymbolicLink(p))
                return fail(
                        t, "invalid_argument", f.display(p) + " is a symlink: Steward does not write through it", null);
        }
        byte[] indexBytes = readOrNull(index);
        List<String> lines = f.indexLines();
        List<ClaudeMemoryFiles.Topic> topics = f.projectTopics();
        List<String> backups = new ArrayList<>();
        if (action.equals("add")) {
            for (var x : topics) {
                if (x.body().equals(content))
                    return result(
                            t,
                            "duplicate",
                            true,
                            "Memory already exists (" + f.display(x.file()) + "); nothing added.",
                            f,
                            lines.size(),
                            null,
                            null);
            }
            if (lines.size() + 1 > ClaudeMemoryFiles.INDEX_WINDOW) {
                return fail(
                        t,
                        "overflow",
                        "MEMORY.md has " + lines.size() + " lines; Claude Code loads only the first "
                                + ClaudeMemoryFiles.INDEX_WINDOW
                                + ": a new index line would not be loaded. Merge or remove memories first.",
                        f);
            }
            String name = r.name() == null || r.name().isBlank()
                    ? defaultName(content)
                    : r.name().strip();
            String desc = r.description() == null || r.description().isBlank()
                    ? defaultDescription(content)
                    : r.description().strip();
            String type = r.type() == null ? "project" : r.type();
            Path topic = freeName(f.memoryDir(), slug(name));
            List<String> next = new ArrayList<>(lines);
            if (next.isEmpty()) next.add("# Memory index");
            next.add(indexLine(name, topic.getFileName().toString(), desc));
            AtomicFiles.write(topic, topicText(name, desc, type, content).getBytes(StandardCharsets.UTF_8));
            try {
                backup(index, indexBytes, backups);
                replaceChecked(index, indexBytes, join(next, indexBytes));
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(topic);
                throw e;
            }
            return result(
                    t,
                    "success",
                    true,
                    "Memory added: " + f.display(topic) + " (index line " + next.size() + " of MEMORY.md).",
                    f,
                    next.size(),
                    f.display(topic),
                    backups);
        }
        List<ClaudeMemoryFiles.Topic> hit = new ArrayList<>();
        String stemOld = old.toLowerCase(Locale.ROOT);
        for (var x : topics) {
            String stem = x.file().getFileName().toString();
            if (stem.equalsIgnoreCase(old)
                    || stem.equalsIgnoreCase(old + ".md")
                    || x.name().toLowerCase(Locale.ROOT).contains(stemOld)
                    || x.body().contains(old)) hit.add(x);
        }
        if (hit.isEmpty()) return fail(t, "no_match", "No memory matched '" + old + "' (by file, name or text).", f);
        if (hit.size() > 1) {
            MemoryResult m = fail(t, "multiple_match", "Multiple memories matched '" + old + "'. Be more specific.", f);
            m.record()
                    .put(
                            "matches",
                            hit.stream()
                                    .map(x -> f.display(x.file()) + ": "
                                            + MemoryRules.preview(x.body().replace('\n', ' ')))
                                    .toList());
            return m;
        }
        var x = hit.get(0);
        if (Files.isSymbolicLink(x.file()))
            return fail(
                    t,
                    "invalid_argument",
                    f.display(x.file()) + " is a symlink: Steward does not write through it",
                    null);
        String file = x.file().getFileName().toString();
        byte[] topicBytes = Files.readAllBytes(x.file());
        List<String> next = new ArrayList<>();
        if (action.equals("remove")) {
            for (String l : lines) if (!links(l, file)) next.add(l);
            backup(x.file(), topicBytes, backups);
            if (next.size() != lines.size()) {
                backup(index, indexBytes, backups);
                replaceChecked(index, indexBytes, join(next, indexBytes));
            }
            Files.delete(x.file());
            AtomicFiles.fsyncDir(x.file().getParent());
            return result(
                    t,
                    "success",
                    true,
                    "Memory removed: " + f.display(x.file()) + " and " + (lines.size() - next.size())
                            + " index line(s).",
                    f,
                    next.size(),
                    f.display(x.file()),
                    backups);
        }
        String name =
                r.name() == null || r.name().isBlank() ? x.name() : r.name().strip();
        String desc = r.description() == null || r.description().isBlank()
                ? x.description()
                : r.description().strip();
        String type = r.type() == null ? (x.type().isEmpty() ? "project" : x.type()) : r.type();
        boolean linked = false;
        for (String l : lines) {
            if (links(l, file)) {
                if (!linked) next.add(indexLine(name, file, desc));
                linked = true;
            } else {
                next.add(l);
            }
        }
        if (!linked) {
            if (next.size() + 1 > ClaudeMemoryFiles.INDEX_WINDOW) {
                return fail(
                        t,
                        "overflow",
                        "MEMORY.md has no line for " + file + " and no room in its " + ClaudeMemoryFiles.INDEX_WINDOW
                                + " loaded lines.",
                        f);
            }
            next.add(indexLine(name, file, desc));
        }
        backup(x.file(), topicBytes, backups);
        replaceChecked(
                x.file(), topicBytes, topicText(name, desc, type, content).getBytes(StandardCharsets.UTF_8));
        if (!next.equals(lines)) {
            backup(index, indexBytes, backups);
            try {
                replaceChecked(index, indexBytes, join(next, indexBytes));
            } catch (IOException | RuntimeException e) {
                keepMode(x.file(), topicBytes);
                throw e;
            }
        }
        return result(
                t,
                "success",
                true,
                "Memory replaced: " + f.display(x.file()) + ".",
                f,
                next.size(),
                f.display(x.file()),
                backups);
    }

    static String indexLine(String name, String file, String desc) {
        return "- [" + name.replace("]", ")") + "](" + file + ") — " + desc;
    }

    static boolean links(String line, String file) {
        return line.contains("](" + file + ")") || line.contains("](./" + file + ")");
    }

    static String topicText(String name, String desc, String type, String body) {
        return "---\nname: " + yaml(name) + "\ndescription: " + yaml(desc) + "\ntype: " + type + "\n---\n\n" + body
                + "\n";
    }

    /** A plain YAML scalar when safe, else double-quoted. */
    static String yaml(String s) {
        if (s.matches("[\\p{L}\\p{N}][^:#\"'\\\\{}\\[\\],&*!|>%@`]*") && !s.endsWith(" ")) return s;
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String defaultName(String c) {
        String first = c.lines().findFirst().orElse(c).strip();
        return CodePoints.length(first) > 48 ? CodePoints.prefix(first, 48).strip() : first;
    }

    static String defaultDescription(String c) {
        String first = c.replace('\n', ' ').strip();
        return CodePoints.length(first) > 100 ? CodePoints.prefix(first, 97) + "..." : first;
    }

    /** Claude Code's topic file names: lower case words joined by '-' (non-Latin names fall back to "memory"). */
    static String slug(String name) {
        String s = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (s.length() > 50) s = s.substring(0, 50).replaceAll("-+$", "");
        return s.isEmpty() ? "memory" : s;
    }

    static Path freeName(Path dir, String stem) {
        String s = stem.equalsIgnoreCase("memory")
                ? "memory-note"
                : stem; // never MEMORY.md on a case-insensitive file system
        Path p = dir.resolve(s + ".md");
        for (int i = 2; Files.exists(p, LinkOption.NOFOLLOW_LINKS); i++) p = dir.resolve(s + "-" + i + ".md");
        return p;
    }

    // ---------------------------------------------------------------- CLAUDE.md

    private MemoryResult claudeMd(ClaudeMemoryFiles f, String action, String content, String old, String confirm)
            throws IOException {
        String t = "claude_md";
        Path project = f.project();
        if (!Files.isDirectory(project))
            return fail(t, "invalid_argument", "project " + project + " is not a directory", null);
        Path file = project.resolve("CLAUDE.md");
        Path alt = project.resolve(".claude").resolve("CLAUDE.md");
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) && Files.isRegularFile(alt, LinkOption.NOFOLLOW_LINKS))
            file = alt;
        if (Files.isSymbolicLink(file))
            return fail(
                    t, "invalid_argument", f.display(file) + " is a symlink: Steward does not write through it", null);
        byte[] before = readOrNull(file);
        List<String> lines = before == null
                ? List.of()
                : new String(before, StandardCharsets.UTF_8).lines().toList();
        List<String> next = new ArrayList<>(lines);
        int at;
        if (action.equals("add")) {
            for (String l : lines)
                if (ClaudeMemoryPrecheck.bare(l).equals(ClaudeMemoryPrecheck.bare(content))) {
                    return result(
                            t,
                            "duplicate",
                            true,
                            "CLAUDE.md already has this line; nothing changed.",
                            f,
                            -1,
                            null,
                            null);
                }
            for (String c : content.lines().toList()) next.add(c.startsWith("- ") || c.startsWith("#") ? c : "- " + c);
            at = lines.size();
        } else {
            List<Integer> hit = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(old)) hit.add(i);
            if (hit.isEmpty())
                return fail(t, "no_match", "No line of " + f.display(file) + " matched '" + old + "'.", null);
            if (hit.size() > 1) {
                MemoryResult m =
                        fail(t, "multiple_match", "Multiple lines matched '" + old + "'. Be more specific.", null);
                m.record()
                        .put(
                                "matches",
                                hit.stream()
                                        .map(i -> (i + 1) + ": " + MemoryRules.preview(lines.get(i)))
                                        .toList());
                return m;
            }
            at = hit.get(0);
            next.remove(at);
            if (action.equals("replace")) {
                String l = lines.get(at);
                String marker = l.replaceFirst("^(\\s*(?:[-*+]|\\d+[.)])\\s+).*$", "$1");
                List<String> repl = content.lines().toList();
                for (int i = repl.size() - 1; i >= 0; i--)
                    next.add(
                            at,
                            (marker.equals(l) || repl.get(i).startsWith(marker.strip()) ? "" : marker) + repl.get(i));
            }
        }
        String diff = diff(f.display(file), lines, next, at, before == null);
        String token = token(diff);
        if (confirm == null || confirm.isBlank()) {
            MemoryResult m = result(
                    t,
                    "needs_confirm",
                    false,
                    "Not written: CLAUDE.md is the user's. Show the user this diff; on approval call again with confirm: \""
                            + token + "\".",
                    f,
                    -1,
                    null,
                    null);
            m.record().put("done", false);
            claude(m).put("diff", diff);
            claude(m).put("confirm_token", token);
            claude(m).put("file", f.display(file));
            return m;
        }
        if (!confirm.equals(token)) {
            MemoryResult m = fail(
                    t,
                    "drift",
                    "confirm does not match the current diff (CLAUDE.md or the request changed since it was shown): nothing written; show the new diff.",
                    null);
            claude(m).put("diff", diff);
            claude(m).put("confirm_token", token);
            return m;
        }
        List<String> backups = new ArrayList<>();
        backup(file, before, backups);
        byte[] out = join(next, before);
        replaceChecked(file, before, out);
        MemoryResult m =
                result(t, "success", true, "CLAUDE.md updated (" + f.display(file) + ").", f, -1, null, backups);
        claude(m).put("diff", diff);
        claude(m).put("file", f.display(file));
        return m;
    }

    /** A unified diff of one change, with up to 2 lines of context. */
    static String diff(String name, List<String> a, List<String> b, int at, boolean created) {
        int tail = 0;
        while (tail < a.size() - at
                && tail < b.size() - at
                && a.get(a.size() - 1 - tail).equals(b.get(b.size() - 1 - tail))) tail++;
        int aEnd = a.size() - tail, bEnd = b.size() - tail;
        int from = Math.max(0, at - 2);
        int aTo = Math.min(a.size(), aEnd + 2), bTo = Math.min(b.size(), bEnd + 2);
        StringBuilder sb = new StringBuilder();
        sb.append("--- ")
                .append(created ? "/dev/null" : "a/" + name)
                .append("\n+++ b/")
                .append(name)
                .append('\n');
        sb.append("@@ -")
                .append(from + 1)
                .append(',')
                .append(aTo - from)
                .append(" +")
                .append(from + 1)
                .append(',')
                .append(bTo - from)
                .append(" @@\n");
        for (int i = from; i < at; i++) sb.append(' ').append(a.get(i)).append('\n');
        for (int i = at; i < aEnd; i++) sb.append('-').append(a.get(i)).append('\n');
        for (int i = at; i < bEnd; i++) sb.append('+').append(b.get(i)).append('\n');
        for (int i = aEnd; i < aTo; i++) sb.append(' ').append(a.get(i)).append('\n');
        return sb.toString();
    }

    static String token(String diff) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(diff.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- files

    private static byte[] readOrNull(Path p) throws IOException {
        try {
            return Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The lines joined with the file's own line ending, a final newline kept as the original had one (new files get one). */
    static byte[] join(List<String> lines, byte[] original) {
        String o = original == null ? "" : new String(original, StandardCharsets.UTF_8);
        String nl = o.contains("\r\n") ? "\r\n" : "\n";
        boolean finalNl = original == null || original.length == 0 || o.endsWith("\n");
        String s = String.join(nl, lines) + (finalNl && !lines.isEmpty() ? nl : "");
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private void backup(Path p, byte[] bytes, List<String> out) throws IOException {
        if (bytes == null) return;
        String label = "claude." + p.getParent().getFileName() + "." + p.getFileName();
        out.add(MemoryBackups.snapshot(stateDir, label, bytes, clock.instant()).toString());
    }

    /** Replaces {@code p} atomically unless it changed since it was read as {@code expected} (drift); keeps its permissions. */
    private static void replaceChecked(Path p, byte[] expected, byte[] bytes) throws IOException {
        byte[] now = readOrNull(p);
        if (!Arrays.equals(now, expected)) throw new DriftException(p);
        keepMode(p, bytes);
    }

    private static void keepMode(Path p, byte[] bytes) throws IOException {
        Set<PosixFilePermission> mode = null;
        try {
            mode = Files.getPosixFilePermissions(p);
        } catch (NoSuchFileException | UnsupportedOperationException e) {
            // a new file keeps AtomicFiles' private mode
        }
        AtomicFiles.write(p, bytes);
        if (mode != null) AtomicFiles.setMode(p, mode);
    }

    /** The file changed between Steward's read and its write: nothing is written. */
    static final class DriftException extends IOException {
        DriftException(Path p) {
            super(
                    p.getFileName()
                            + " changed while Steward prepared the write (Claude Code may be writing it); nothing was written, try again");
        }
    }

    // ---------------------------------------------------------------- results

    private static MemoryResult fail(String target, String kind, String error, ClaudeMemoryFiles f) {
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("success", false);
        rec.put("error", error);
        rec.put("target", target);
        rec.put("kind", kind);
        if (f != null) rec.put("usage", f.indexLines().size() + "/" + ClaudeMemoryFiles.INDEX_WINDOW + " lines");
        return new MemoryResult(kind, false, rec);
    }

    private static MemoryResult result(
            String target,
            String kind,
            boolean success,
            String message,
            ClaudeMemoryFiles f,
            int indexLines,
            String topic,
            List<String> backups) {
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("success", success);
        rec.put("done", true);
        rec.put("target", target);
        if (indexLines >= 0) {
            rec.put("usage", indexLines + "/" + ClaudeMemoryFiles.INDEX_WINDOW + " lines");
            rec.put("entry_count", indexLines);
        }
        rec.put("message", message);
        rec.put("kind", kind);
        if (backups != null && !backups.isEmpty()) rec.put("backup", String.join(", ", backups));
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("project", f.project().toString());
        if (target.equals("claude")) {
            c.put("file", f.display(f.index()));
            c.put("memory_dir", f.memoryDir().toString());
            if (topic != null) c.put("topic_file", topic);
            c.put("index_lines", indexLines);
            c.put("window", ClaudeMemoryFiles.INDEX_WINDOW);
        }
        rec.put("claude", c);
        return new MemoryResult(kind, success, rec);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> claude(MemoryResult m) {
        return (Map<String, Object>) m.record().computeIfAbsent("claude", k -> new LinkedHashMap<String, Object>());
    }
}
