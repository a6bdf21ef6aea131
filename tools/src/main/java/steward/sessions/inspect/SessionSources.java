package steward.sessions.inspect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.sessions.store.ClaudeSessions;

/**
 * Which store {@code session_inspect} reads: Hermes' {@code state.db} or the Claude Code home's transcripts. Asked for by
 * {@code store}, or else the store that holds the requested ids (Hermes first; Claude Code when none of the ids is a
 * Hermes session, or there is no Hermes home). The engine, the result and the texts are store-independent.
 */
public final class SessionSources {
    private SessionSources() {}

    /** {@code store}: hermes, claude or null (decide from {@code ids}); {@code now}: epoch seconds (Claude Code liveness). */
    public static SessionSource open(StewardPaths paths, String store, List<String> ids, double now) {
        if (store != null && !"hermes".equals(store) && !"claude".equals(store)) {
            throw new StewardError("session_inspect", "store must be hermes or claude, not " + store);
        }
        boolean claudeHome = paths.claudeHome() != null && Files.isDirectory(paths.claudeHome());
        if ("claude".equals(store)) {
            if (!claudeHome) throw new StewardError("session_inspect", "no Claude Code home at " + paths.claudeHome());
            return claude(paths, now);
        }
        boolean hermes = Files.isRegularFile(paths.stateDb());
        if (!hermes) {
            if (store == null && claudeHome) return claude(paths, now);
            throw new StewardError("session_inspect", "no Hermes state.db at " + paths.stateDb());
        }
        SessionSource h = HermesSessionSource.open(paths.stateDb());
        if (store != null || ids == null || !claudeHome) return h;
        List<String> missing =
                ids.stream().filter(id -> h.session(id).isEmpty()).toList();
        if (missing.size() < ids.size() || claudeSessions(paths, missing).isEmpty()) return h;
        h.close();
        return claude(paths, now);
    }

    public static SessionSource open(StewardPaths paths) {
        return open(paths, null, null, System.currentTimeMillis() / 1000.0);
    }

    private static ClaudeSessionSource claude(StewardPaths paths, double now) {
        return ClaudeSessionSource.open(paths.claudeHome(), now, ClaudeSessions.DEFAULT_IDLE_SECONDS);
    }

    /**
     * The ids among {@code missing} that are Claude Code sessions: a main session ({@code projects/<project>/<id>.jsonl})
     * or any id Steward reports for one, such as a subagent's {@code <session>/agent-<id>} in either layout (asked of the
     * Claude Code source itself, which reads only what the id names).
     */
    public static List<String> claudeSessions(StewardPaths paths, List<String> missing) {
        if (paths.claudeHome() == null || missing.isEmpty()) return List.of();
        Path projects = paths.claudeHome().resolve("projects");
        if (!Files.isDirectory(projects)) return List.of();
        List<String> found = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(projects)) {
            List<Path> ds = dirs.filter(Files::isDirectory).toList();
            for (String id : missing) {
                if (id.matches("[A-Za-z0-9._-]+")
                        && !id.startsWith(".")
                        && ds.stream().anyMatch(d -> Files.isRegularFile(d.resolve(id + ".jsonl")))) found.add(id);
                else if (id.contains("/")) rest.add(id);
            }
        } catch (IOException e) {
            return List.of();
        }
        if (!rest.isEmpty()) {
            try (ClaudeSessionSource src = claude(paths, 0)) {
                for (String id : rest) if (src.session(id).isPresent()) found.add(id);
            } catch (StewardError e) {
                // an unreadable Claude Code home holds none of them
            }
        }
        return found;
    }
}
