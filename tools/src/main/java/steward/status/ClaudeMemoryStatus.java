package steward.status;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import steward.memory.claude.ClaudeMemoryFiles;

/**
 * The Claude Code memory part of {@code steward_status}: every memory file's size against what Claude Code loads —
 * CLAUDE.md files whole, each project's auto-memory MEMORY.md only its first {@value ClaudeMemoryFiles#INDEX_WINDOW} lines.
 * Read-only. Auto memory of every project in {@code projects/} (and the {@code autoMemoryDirectory} of settings.json), the
 * user's CLAUDE.md and rules, and the CLAUDE.md family of the working directory's project.
 */
final class ClaudeMemoryStatus {
    private ClaudeMemoryStatus() {}

    static final int MAX_FILES = 12;

    static StatusReport.ClaudeMemory of(Path claudeHome, Path cwd, List<String> warnings) {
        Path home = claudeHome.toAbsolutePath().normalize();
        ClaudeMemoryFiles caller = ClaudeMemoryFiles.read(home, cwd);
        List<StatusReport.ClaudeMemoryFile> files = new ArrayList<>();
        for (ClaudeMemoryFiles.Instruction i : caller.instructions()) {
            files.add(file(
                    caller.display(i.file()),
                    "claude_md",
                    i.scope(),
                    i.file(),
                    i.lines().size(),
                    null));
        }
        List<Path> indexes = new ArrayList<>();
        Path projects = home.resolve("projects");
        if (Files.isDirectory(projects)) {
            try (Stream<Path> s = Files.list(projects)) {
                for (Path p : s.sorted().toList()) {
                    Path idx = p.resolve("memory").resolve("MEMORY.md");
                    if (Files.isRegularFile(idx)) indexes.add(idx);
                }
            } catch (IOException | RuntimeException e) {
                warnings.add("claude projects/: cannot be listed for memory ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
        if (caller.memoryDirOrigin().equals("settings")
                && Files.isRegularFile(caller.index())
                && !indexes.contains(caller.index())) indexes.add(caller.index());
        int topics = 0;
        List<StatusReport.ClaudeMemoryFile> idxFiles = new ArrayList<>();
        for (Path idx : indexes) {
            List<String> lines = lines(idx);
            if (lines == null) {
                warnings.add(home.relativize(idx.toAbsolutePath().normalize()) + ": cannot be read");
                continue;
            }
            int t = topicCount(idx.getParent());
            topics += t;
            String shown = idx.startsWith(home) ? "~claude/" + home.relativize(idx) : idx.toString();
            var f = file(
                    shown,
                    "auto_memory_index",
                    idx.getParent().getParent().getFileName().toString(),
                    idx,
                    lines.size(),
                    t);
            idxFiles.add(f);
            if (f.lines_not_loaded() > 0) {
                warnings.add(shown + ": " + lines.size() + " lines, Claude Code loads only the first "
                        + ClaudeMemoryFiles.INDEX_WINDOW + " (" + f.lines_not_loaded()
                        + " not loaded): merge or remove memories");
            }
        }
        idxFiles.sort(
                Comparator.comparingInt(StatusReport.ClaudeMemoryFile::lines).reversed());
        files.addAll(idxFiles);
        int personal = topicCount(home.resolve("memory").resolve("personal"));
        int shown = Math.min(MAX_FILES, files.size());
        return new StatusReport.ClaudeMemory(
                caller.project().toString(),
                caller.memoryDirOrigin(),
                ClaudeMemoryFiles.INDEX_WINDOW,
                indexes.size(),
                topics,
                personal,
                List.copyOf(files.subList(0, shown)),
                files.size() - shown);
    }

    private static StatusReport.ClaudeMemoryFile file(
            String shown, String kind, String scope, Path p, int lines, Integer topics) {
        long bytes;
        try {
            bytes = Files.size(p);
        } catch (IOException e) {
            bytes = 0;
        }
        int loaded = kind.equals("auto_memory_index") ? Math.min(lines, ClaudeMemoryFiles.INDEX_WINDOW) : lines;
        return new StatusReport.ClaudeMemoryFile(shown, kind, scope, lines, bytes, loaded, lines - loaded, topics);
    }

    private static List<String> lines(Path p) {
        try {
            return new String(Files.readAllBytes(p), StandardCharsets.UTF_8)
                    .lines()
                    .toList();
        } catch (IOException e) {
            return null;
        }
    }

    private static int topicCount(Path dir) {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.filter(p -> p.getFileName().toString().endsWith(".md")
                            && !p.getFileName().toString().equals("MEMORY.md"))
                    .count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
