package steward.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import steward.StewardError;

/**
 * The resolved locations Steward works on. Hermes home: {@code --hermes-home}, else
 * {@code HERMES_HOME}, else {@code ~/.hermes}. State dir: {@code --state-dir}, else
 * {@code <hermes home>/steward}.
 */
public record StewardPaths(Path hermesHome, Origin hermesHomeOrigin, Path stateDir, Origin stateDirOrigin) {

    public static StewardPaths resolve(String hermesHomeFlag, String stateDirFlag, Map<String, String> env) {
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
        Path state;
        Origin stateOrigin;
        if (stateDirFlag != null && !stateDirFlag.isBlank()) {
            state = Path.of(expandTilde(stateDirFlag, env)).toAbsolutePath().normalize();
            stateOrigin = Origin.FLAG;
        } else {
            state = home.resolve("steward");
            stateOrigin = Origin.DERIVED;
        }
        return new StewardPaths(home, homeOrigin, state, stateOrigin);
    }

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
     * Refuses a Hermes home that does not exist: a mistyped path must not become a new, empty home. Nothing is created.
     */
    public void requireHome(String context) {
        if (Files.isDirectory(hermesHome)) return;
        String what = Files.exists(hermesHome) ? "is not a directory" : "does not exist";
        throw new StewardError(context, "Hermes home " + hermesHome + " " + what + " (from " + hermesHomeSource()
                + "); nothing was created. Pass the home Hermes uses (--hermes-home or HERMES_HOME).");
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
