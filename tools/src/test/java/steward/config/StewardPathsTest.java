package steward.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StewardPathsTest {
    @Test
    void flagWinsOverEnvironmentWhichWinsOverDefault() {
        var env = Map.of("HERMES_HOME", "/env/hermes", "HOME", "/home/u");
        var byFlag = StewardPaths.resolve("/flag/hermes", null, env);
        assertEquals(Path.of("/flag/hermes"), byFlag.hermesHome());
        assertEquals(Origin.FLAG, byFlag.hermesHomeOrigin());
        assertEquals(Path.of("/flag/hermes/steward"), byFlag.stateDir());
        assertEquals(Origin.DERIVED, byFlag.stateDirOrigin());

        var byEnv = StewardPaths.resolve(null, null, env);
        assertEquals(Path.of("/env/hermes"), byEnv.hermesHome());
        assertEquals(Origin.ENVIRONMENT, byEnv.hermesHomeOrigin());

        var byDefault = StewardPaths.resolve(null, null, Map.of("HOME", "/home/u"));
        assertEquals(Path.of("/home/u/.hermes"), byDefault.hermesHome());
        assertEquals(Origin.DEFAULT, byDefault.hermesHomeOrigin());
    }

    @Test
    void stateDirFlagIsIndependentOfHome() {
        var p = StewardPaths.resolve("~/h", "/var/steward", Map.of("HOME", "/home/u"));
        assertEquals(Path.of("/home/u/h"), p.hermesHome());
        assertEquals(Path.of("/var/steward"), p.stateDir());
        assertEquals(Origin.FLAG, p.stateDirOrigin());
    }

    @Test
    void claudeHomeFlagWinsOverEnvironmentWhichWinsOverDefault(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        var env = Map.of("CLAUDE_CONFIG_DIR", "/env/claude", "HOME", "/home/u");
        assertEquals(
                Path.of("/flag/claude"),
                StewardPaths.resolve(null, "/flag/claude", null, env).claudeHome());
        assertEquals(
                Origin.FLAG,
                StewardPaths.resolve(null, "/flag/claude", null, env).claudeHomeOrigin());
        assertEquals(
                Path.of("/env/claude"),
                StewardPaths.resolve(null, null, null, env).claudeHome());
        assertEquals(
                Origin.ENVIRONMENT, StewardPaths.resolve(null, null, null, env).claudeHomeOrigin());
        var byDefault = StewardPaths.resolve(null, null, null, Map.of("HOME", "/home/u"));
        assertEquals(Path.of("/home/u/.claude"), byDefault.claudeHome());
        assertEquals(Origin.DEFAULT, byDefault.claudeHomeOrigin());
        assertEquals(
                Path.of("/home/u/.hermes/steward"), byDefault.stateDir(), "neither home exists: the Hermes home's");

        // a Claude home only: its state dir; both homes: the Hermes home's; a state dir in use is kept
        Files.createDirectories(tmp.resolve(".claude"));
        var home = Map.of("HOME", tmp.toString());
        assertEquals(
                tmp.resolve(".claude/steward"),
                StewardPaths.resolve(null, null, null, home).stateDir());
        Files.createDirectories(tmp.resolve(".claude/steward"));
        Files.createDirectories(tmp.resolve(".hermes"));
        assertEquals(
                tmp.resolve(".claude/steward"),
                StewardPaths.resolve(null, null, null, home).stateDir(),
                "the one in use");
        Files.delete(tmp.resolve(".claude/steward"));
        assertEquals(
                tmp.resolve(".hermes/steward"),
                StewardPaths.resolve(null, null, null, home).stateDir());
        assertEquals(
                Path.of("/var/s"),
                StewardPaths.resolve(null, null, "/var/s", home).stateDir());
    }
}
