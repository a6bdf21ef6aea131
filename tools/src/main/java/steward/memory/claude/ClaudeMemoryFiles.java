package steward.memory.claude;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import steward.claude.ClaudeHome;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * Claude Code's memory for one project, read as Claude Code lays it out: the CLAUDE.md files the user writes
 * ({@code ~/.claude/CLAUDE.md}, {@code ~/.claude/rules/*.md}, {@code <project>/CLAUDE.md}, {@code <project>/.claude/CLAUDE.md},
 * {@code <project>/CLAUDE.local.md}, {@code <project>/.claude/rules/*.md}) and the auto memory Claude Code writes
 * ({@code MEMORY.md}, an index of one line per memory of which only the first {@value #INDEX_WINDOW} lines are loaded, plus
 * one topic file per memory with front matter {@code name}, {@code description}, {@code type}). The auto-memory directory
 * is {@code autoMemoryDirectory} of the user's settings.json, else {@code projects/<encoded project>/memory/}; the
 * user-level {@code memory/personal/} is read too. Read-only; an unreadable file is a warning, never fatal.
 */
public record ClaudeMemoryFiles(
        Path home,
        Path project,
        Path memoryDir,
        String memoryDirOrigin,
        List<Instruction> instructions,
        Path index,
        List<String> indexLines,
        List<Topic> topics,
        List<String> warnings) {
    /** Claude Code loads the first 200 lines of MEMORY.md into every session. */
    public static final int INDEX_WINDOW = 200;

    public static final List<String> TYPES = List.of("user", "feedback", "project", "reference");

    /** A CLAUDE.md-family file (scope: user, user_rule, project, project_claude_dir, local, rule) and its lines. */
    public record Instruction(String scope, Path file, List<String> lines) {}

    /** An auto-memory topic file; {@code personal} for the user-level {@code memory/personal/}. */
    public record Topic(Path file, String name, String description, String type, String body, boolean personal) {}

    public static ClaudeMemoryFiles read(Path claudeHome, Path project) {
        Path home = claudeHome.toAbsolutePath().normalize();
        Path proj = project.toAbsolutePath().normalize();
        List<String> warnings = new ArrayList<>();
        List<Instruction> ins = new ArrayList<>();
        instruction(ins, warnings, "user", home.resolve("CLAUDE.md"));
        rules(ins, warnings, "user_rule", home.resolve("rules"));
        instruction(ins, warnings, "project", proj.resolve("CLAUDE.md"));
        instruction(ins, warnings, "project_claude_dir", proj.resolve(".claude").resolve("CLAUDE.md"));
        instruction(ins, warnings, "local", proj.resolve("CLAUDE.local.md"));
        rules(ins, warnings, "rule", proj.resolve(".claude").resolve("rules"));
        Path dir = home.resolve("projects")
                .resolve(ClaudeHome.encodeCwd(proj.toString()))
                .resolve("memory");
        String origin = "default";
        String configured = autoMemoryDirectory(home, warnings);
        if (configured != null) {
            dir = Path.of(
                    configured.startsWith("~/")
                            ? System.getProperty("user.home") + configured.substring(1)
                            : configured);
            dir = (dir.isAbsolute() ? dir : home.resolve(dir)).normalize();
            origin = "settings";
        }
        Path index = dir.resolve("MEMORY.md");
        List<String> lines = lines(index, warnings);
        List<Topic> topics = new ArrayList<>();
        topics(topics, warnings, dir, false);
        topics(topics, warnings, home.resolve("memory").resolve("personal"), true);
        return new ClaudeMemoryFiles(
                home,
                proj,
                dir,
                origin,
                List.copyOf(ins),
                index,
                lines == null ? List.of() : lines,
                List.copyOf(topics),
                List.copyOf(warnings));
    }

    public boolean indexExists() {
        return Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS);
    }

    /** A path as shown to the agent: {@code ~claude/…} inside the Claude home, {@code <project>/…} inside the project. */
    public String display(Path p) {
        Path n = p.toAbsolutePath().normalize();
        if (n.startsWith(memoryDir)) return "memory/" + memoryDir.relativize(n);
        if (n.startsWith(project)) return "<project>/" + project.relativize(n);
        if (n.startsWith(home)) return "~claude/" + home.relativize(n);
        return n.toString();
    }

    /** The project's topic files only (not memory/personal). */
    public List<Topic> projectTopics() {
        return topics.stream().filter(t -> !t.personal()).toList();
    }

    static String autoMemoryDirectory(Path home, List<String> warnings) {
        Path s = home.resolve("settings.json");
        try {
            JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(s));
            JsonNode d = n == null ? null : n.get("autoMemoryDirectory");
            return d != null && d.isString() && !d.asString().isBlank() ? d.asString() : null;
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            warnings.add("settings.json: unreadable (" + e.getClass().getSimpleName()
                    + "); the default auto-memory directory is used");
            return null;
        }
    }

    private static void instruction(List<Instruction> out, List<String> warnings, String scope, Path f) {
        List<String> l = lines(f, warnings);
        if (l != null) out.add(new Instruction(scope, f, l));
    }

    private static void rules(List<Instruction> out, List<String> warnings, String scope, Path dir) {
        for (Path f : mdFiles(dir, warnings)) instruction(out, warnings, scope, f);
    }

    private static List<Path> mdFiles(Path dir, List<String> warnings) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".md") && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        } catch (IOException | RuntimeException e) {
            warnings.add(dir + ": unreadable (" + e.getClass().getSimpleName() + ")");
            return List.of();
        }
    }

    /** The file's lines, or null when it does not exist or cannot be read (then a warning). */
    static List<String> lines(Path f, List<String> warnings) {
        if (!Files.isRegularFile(f)) return null;
        try {
            return List.copyOf(new String(Files.readAllBytes(f), StandardCharsets.UTF_8)
                    .lines()
                    .toList());
        } catch (IOException e) {
            warnings.add(f + ": unreadable (" + e.getClass().getSimpleName() + ")");
            return null;
        }
    }

    private static void topics(List<Topic> out, List<String> warnings, Path dir, boolean personal) {
        for (Path f : mdFiles(dir, warnings)) {
            if (f.getFileName().toString().equals("MEMORY.md")) continue;
            List<String> l = lines(f, warnings);
            if (l != null) out.add(topic(f, l, personal));
        }
    }

    /** Parses the YAML front matter (flat {@code key: value}, a nested {@code type:} under {@code metadata:} too) and the body. */
    static Topic topic(Path f, List<String> lines, boolean personal) {
        if (!lines.isEmpty() && lines.get(0).startsWith("\uFEFF")) { // saved with a byte order mark
            lines = new ArrayList<>(lines);
            lines.set(0, lines.get(0).substring(1));
        }
        String name = null, description = null, type = null;
        int bodyStart = 0;
        if (!lines.isEmpty() && lines.get(0).strip().equals("---")) {
            for (int i = 1; i < lines.size(); i++) {
                String l = lines.get(i);
                if (l.strip().equals("---")) {
                    bodyStart = i + 1;
                    break;
                }
                int c = l.indexOf(':');
                if (c < 0) continue;
                String k = l.substring(0, c).strip();
                String v = unquote(l.substring(c + 1).strip());
                if (k.equals("name") && !l.startsWith(" ")) name = v;
                else if (k.equals("description") && !l.startsWith(" ")) description = v;
                else if (k.equals("type")) type = v;
            }
        }
        String body = String.join("\n", lines.subList(bodyStart, lines.size())).strip();
        String fn = f.getFileName().toString();
        return new Topic(
                f,
                name == null || name.isEmpty() ? fn.substring(0, fn.length() - 3) : name,
                description == null ? "" : description,
                type == null ? "" : type,
                body,
                personal);
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && ((v.startsWith("\"") && v.endsWith("\"")) || (v.startsWith("'") && v.endsWith("'")))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }
}
