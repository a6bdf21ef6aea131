package steward.sessions.inspect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import steward.StewardError;
import steward.config.StewardPaths;

/**
 * Which store {@code session_inspect} reads. Today Hermes' {@code state.db} only: the Claude Code home is refused with
 * a clear error (asked for by {@code store}, the only home there is, or holding the requested session). When a Claude Code
 * store implements {@link SessionSource}, it is chosen here and nothing else changes: the engine, the result and the
 * texts are store-independent.
 */
public final class SessionSources {
    private SessionSources() {}

    public static final String CLAUDE_REFUSED = "Claude Code sessions cannot be inspected yet (Hermes sessions only)";

    /** The store to read for {@code store} (null: the Hermes home). */
    public static SessionSource open(StewardPaths paths, String store) {
        if ("claude".equals(store)) throw new StewardError("session_inspect", CLAUDE_REFUSED);
        if (store != null && !"hermes".equals(store)) throw new StewardError("session_inspect", "store must be hermes or claude, not " + store);
        if (!Files.isRegularFile(paths.stateDb())) {
            if (store == null && paths.claudeHome() != null && Files.isDirectory(paths.claudeHome())) {
                throw new StewardError("session_inspect", "no Hermes state.db at " + paths.stateDb() + "; " + CLAUDE_REFUSED);
            }
            throw new StewardError("session_inspect", "no Hermes state.db at " + paths.stateDb());
        }
        return HermesSessionSource.open(paths.stateDb());
    }

    public static SessionSource open(StewardPaths paths) {
        return open(paths, null);
    }

    /** The ids among {@code missing} that are Claude Code transcripts ({@code projects/<project>/<id>.jsonl}). */
    public static List<String> claudeSessions(StewardPaths paths, List<String> missing) {
        if (paths.claudeHome() == null || missing.isEmpty()) return List.of();
        Path projects = paths.claudeHome().resolve("projects");
        if (!Files.isDirectory(projects)) return List.of();
        try (Stream<Path> dirs = Files.list(projects)) {
            List<Path> ds = dirs.filter(Files::isDirectory).toList();
            return missing.stream().filter(id -> id.matches("[A-Za-z0-9._-]+") && !id.startsWith(".")
                    && ds.stream().anyMatch(d -> Files.isRegularFile(d.resolve(id + ".jsonl")))).toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
