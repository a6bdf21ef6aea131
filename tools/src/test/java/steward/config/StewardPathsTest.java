package steward.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
