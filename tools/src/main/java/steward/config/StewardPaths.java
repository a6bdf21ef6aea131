package steward.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import steward.StewardError;

/**
 * The resolved locations Steward works on. Hermes home: {@code --hermes-home}, else
 * {@code HERMES_HOME}, else {@code ~/.hermes}. Claude Code home: {@code --claude-home}, else
 * {@code CLAUDE_CONFIG_DIR}, else {@code ~/.claude} ({@code null} when no Claude home is served, as in
 * {@link #of(Path)}). State dir: {@code --state-dir}, else an existing {@code <hermes home>/steward}, else an
 * existing {@code <claude home>/steward}, else {@code <hermes home>/steward} when the Hermes home exists or
 * there is no Claude home, else {@code <claude home>/steward}: one state dir serves both homes.
 */
public record StewardPaths(
        Path hermesHome,
        Origin hermesHomeOrigin,
        Path stateDir,
        Origin stateDirOrigin,
        Path claudeHome,
        Origin claudeHomeOrigin) {

    /** Paths without a Claude Code home (Hermes only). */
    public StewardPaths(Path hermesHome, Origin hermesHomeOrigin, Path stateDir, Origin stateDirOrigin) {
        this(hermesHome, hermesHomeOrigin, stateDir, stateDirOrigin, null, null);
    }

    public static StewardPaths resolve(String hermesHomeFlag, String stateDirFlag, Map<String, String> env) {
        return resolve(hermesHomeFlag, null, stateDirFlag, env);
    }

    public static StewardPaths resolve(
            String hermesHomeFlag, String claudeHomeFlag, String stateDirFlag, Map<String, String> env) {
        Path home;
        Origin homeOrigin;
        if (hermesHomeFlag != null && !hermesHomeFlag.isBlank()) {
            home = Path.of(expandTilde(hermesHomeFlag, env));
            homeOrigin = Origin.FLAG;
        } else if (env.get("HERMES_HOME") != null && !env.get("HERMES_HOME").isBlank()) {
            home = Path.of(expandTilde(env.get("HERMES_HOME"), env));
            homeOrigin = Origin.ENVIRONMENT;
        } else {
            home = Path.of(userHome(env), ".hermes");
            homeOrigin = Origin.DEFAULT;
        }
        home = home.toAbsolutePath().normalize();
        Path claude;
        Origin claudeOrigin;
        if (claudeHomeFlag != null && !claudeHomeFlag.isBlank()) {
            claude = Path.of(expandTilde(claudeHomeFlag, env));
            claudeOrigin = Origin.FLAG;
        } else if (env.get("CLAUDE_CONFIG_DIR") != null
                && !env.get("CLAUDE_CONFIG_DIR").isBlank()) {
            claude = Path.of(expandTilde(env.get("CLAUDE_CONFIG_DIR"), env));
            claudeOrigin = Origin.ENVIRONMENT;
        } else {
            claude = Path.of(userHome(env), ".claude");
            claudeOrigin = Origin.DEFAULT;
        }
        claude = claude.toAbsolutePath().normalize();
        if (stateDirFlag != null && !stateDirFlag.isBlank()) {
            return new StewardPaths(
                    home,
                    homeOrigin,
                    Path.of(expandTilde(stateDirFlag, env)).toAbsolutePath().normalize(),
                    Origin.FLAG,
                    claude,
                    claudeOrigin);
        }
        return new StewardPaths(home, homeOrigin, derivedStateDir(home, claude), Origin.DERIVED, claude, claudeOrigin);
    }

    /** The state dir when no flag names it: a state dir already in use wins, so switching homes never loses plans or backups. */
    static Path derivedStateDir(Path hermes, Path claude) {
        Path h = hermes.resolve("steward");
        if (claude == null || Files.isDirectory(h)) return h;
        Path c = claude.resolve("steward");
        if (Files.isDirectory(c)) return c;
        if (Files.isDirectory(hermes) || !Files.isDirectory(claude)) return h;
        return c;
    }

    /** A Hermes home only (no Claude Code home), state dir inside it. */
    public static StewardPaths of(Path hermesHome) {
        Path home = hermesHome.toAbsolutePath().normalize();
        return new StewardPaths(home, Origin.FLAG, home.resolve("steward"), Origin.DERIVED);
    }

    /** Where the home path came from, in the user's words: the flag, the variable or the default. */
    public String hermesHomeSource() {
        return switch (hermesHomeOrigin) {
            case FLAG -> "--hermes-home";
            case ENVIRONMENT -> "$HERMES_HOME";
            default -> "the default ~/.hermes";
        };
    }

    /**
     * Refuses a Hermes home that does not exist, unless it is only the default and a Claude Code home exists: a
     * mistyped path must not become a new, empty home. Nothing is created.
     */
    public void requireHome(String context) {
        if (Files.isDirectory(hermesHome)) return;
        // a Claude Code-only user has no Hermes home (the tools that write Hermes' files refuse on their own); a Hermes
        // home named explicitly (flag or variable) that does not exist is a mistake either way
        boolean explicit = hermesHomeOrigin == Origin.FLAG || hermesHomeOrigin == Origin.ENVIRONMENT;
        if (!explicit && claudeHome != null && Files.isDirectory(claudeHome)) return;
        String what = Files.exists(hermesHome) ? "is not a directory" : "does not exist";
        throw new StewardError(
                context,
                "Hermes home " + hermesHome + " " + what + " (from " + hermesHomeSource()
                        + "); nothing was created. Pass the home Hermes uses (--hermes-home or HERMES_HOME).");
    }

    /** Both homes given explicitly (either may not exist); the state dir is derived as {@link #resolve} does. */
    public static StewardPaths of(Path hermesHome, Path claudeHome) {
        Path home = hermesHome.toAbsolutePath().normalize();
        Path claude = claudeHome.toAbsolutePath().normalize();
        return new StewardPaths(home, Origin.FLAG, derivedStateDir(home, claude), Origin.DERIVED, claude, Origin.FLAG);
    }

    /**
     * A Claude Code home only: {@code absentHermesHome} stands for the default Hermes home, not named, so that its absence
     * is no error (a named Hermes home that does not exist is refused as a mistake); the state dir as {@link #of(Path,
     * Path)} derives it.
     */
    public static StewardPaths claudeOnly(Path absentHermesHome, Path claudeHome) {
        StewardPaths both = of(absentHermesHome, claudeHome);
        return new StewardPaths(
                both.hermesHome,
                Origin.DEFAULT,
                both.stateDir,
                both.stateDirOrigin,
                both.claudeHome,
                both.claudeHomeOrigin);
    }

    /** The same homes with another state dir. */
    public StewardPaths withStateDir(Path dir) {
        return new StewardPaths(
                hermesHome,
                hermesHomeOrigin,
                dir.toAbsolutePath().normalize(),
                Origin.FLAG,
                claudeHome,
                claudeHomeOrigin);
    }

    /** The same paths with another Claude Code home (the state dir is kept). */
    public StewardPaths withClaudeHome(Path claude) {
        return new StewardPaths(
                hermesHome,
                hermesHomeOrigin,
                stateDir,
                stateDirOrigin,
                claude.toAbsolutePath().normalize(),
                Origin.FLAG);
    }

    public Path stateDb() {
        return hermesHome.resolve("state.db");
    }

    public Path memoriesDir() {
        return hermesHome.resolve("memories");
    }

    public Path skillsDir() {
        return hermesHome.resolve("skills");
    }

    public Path configYaml() {
        return hermesHome.resolve("config.yaml");
    }

    /** Whether the Hermes home is a directory. */
    public boolean hermesPresent() {
        return Files.isDirectory(hermesHome);
    }

    /** Whether a Claude Code home is configured and is a directory. */
    public boolean claudePresent() {
        return claudeHome != null && Files.isDirectory(claudeHome);
    }

    private static String userHome(Map<String, String> env) {
        String h = env.get("HOME");
        return h != null && !h.isBlank() ? h : System.getProperty("user.home");
    }

    private static String expandTilde(String p, Map<String, String> env) {
        if (p.equals("~")) return userHome(env);
        if (p.startsWith("~/")) return userHome(env) + p.substring(1);
        return p;
    }
}
