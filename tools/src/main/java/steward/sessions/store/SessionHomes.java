package steward.sessions.store;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import steward.StewardError;
import steward.config.StewardPaths;

/** Which homes a session tool serves: the one its {@code store} argument names, else every home that has sessions. */
public final class SessionHomes {
    private SessionHomes() {}

    public static final List<String> STORES = List.of(SessionRow.HERMES, ClaudeSessions.STORE);

    /**
     * The selected stores, Hermes first. {@code store} null: Hermes when its {@code state.db} exists, Claude Code when
     * its home exists; with neither, Hermes (whose missing database is then the error).
     */
    public static List<SessionSource> open(
            StewardPaths paths, String store, ClaudeSessions.Options claude, String context) {
        List<SessionSource> out = new ArrayList<>();
        if (store != null && !STORES.contains(store)) {
            throw new StewardError(context, "store must be hermes or claude, not " + store);
        }
        boolean wantHermes = store == null ? Files.exists(paths.stateDb()) : store.equals(SessionRow.HERMES);
        boolean wantClaude = store == null ? paths.claudePresent() : store.equals(ClaudeSessions.STORE);
        if (store == null && !wantHermes && !wantClaude) {
            if (paths.claudeHome() != null) {
                throw new StewardError(
                        context,
                        "no session store: " + paths.stateDb() + " does not exist and there is no Claude Code home at "
                                + paths.claudeHome()
                                + " (set --hermes-home / HERMES_HOME or --claude-home / CLAUDE_CONFIG_DIR)");
            }
            wantHermes = true;
        }
        if (wantHermes) out.add(new HermesSessions(paths.stateDb()));
        if (wantClaude) {
            if (!paths.claudePresent()) {
                throw new StewardError(
                        context,
                        "no Claude Code home at "
                                + (paths.claudeHome() == null ? "(none configured)" : paths.claudeHome())
                                + " (set --claude-home or CLAUDE_CONFIG_DIR)");
            }
            out.add(new ClaudeSessions(paths.claudeHome(), paths.stateDir(), claude));
        }
        return out;
    }
}
