package steward.config;

import java.nio.file.Path;
import java.util.Map;

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
