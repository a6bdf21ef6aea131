package steward.sessions.inspect;

import java.nio.file.Files;

import steward.StewardError;
import steward.config.StewardPaths;

/**
 * Which store {@code session_inspect} reads. Today Hermes' {@code state.db}; when a Claude Code store (JSONL transcripts)
 * implements {@link SessionSource}, it is chosen here (by the id's shape or the home that holds it) and nothing else
 * changes: the engine, the result and the texts are store-independent.
 */
public final class SessionSources {
    private SessionSources() {}

    public static SessionSource open(StewardPaths paths) {
        if (!Files.isRegularFile(paths.stateDb())) {
            throw new StewardError("session_inspect", "no Hermes state.db at " + paths.stateDb());
        }
        return HermesSessionSource.open(paths.stateDb());
    }
}
