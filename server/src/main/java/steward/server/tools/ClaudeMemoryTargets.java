package steward.server.tools;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import steward.StewardError;

/** What the memory tools' Claude Code targets share: the Claude home must exist; the project is an absolute path (default: the working directory). */
final class ClaudeMemoryTargets {
    private ClaudeMemoryTargets() {}

    static Path home(ToolContext ctx, String tool) {
        if (!ctx.paths().claudePresent()) {
            throw new StewardError(
                    tool,
                    "no Claude Code home at " + ctx.paths().claudeHome()
                            + " (pass --claude-home or set CLAUDE_CONFIG_DIR)");
        }
        return ctx.paths().claudeHome();
    }

    static Path project(String project, String tool) {
        if (project == null || project.isBlank())
            return Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
        Path p;
        try {
            p = Path.of(project);
        } catch (InvalidPathException e) { // a NUL character: no file system holds such a path
            throw new StewardError(tool, "project is not a path a file system can hold: '" + project + "'");
        }
        if (!p.isAbsolute()) throw new StewardError(tool, "project must be an absolute path, got '" + project + "'");
        return p.normalize();
    }
}
