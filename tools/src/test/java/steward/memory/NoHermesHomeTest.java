package steward.memory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.config.HermesConfig;
import steward.config.StewardPaths;
import steward.memory.lifecycle.HermesMemoryRoot;
import steward.memory.lifecycle.LogWriter;

/** With a Claude Code home only, the Hermes memory tools refuse to write instead of creating a Hermes home. */
class NoHermesHomeTest {
    @TempDir
    Path tmp;

    @Test
    void memoryWriteRefusesAndCreatesNothing() throws Exception {
        Path claude = Files.createDirectories(tmp.resolve("claude/projects")).getParent();
        StewardPaths paths = StewardPaths.of(tmp.resolve("hermes"), claude);
        StewardError e = assertThrows(
                StewardError.class,
                () -> new MemoryWriter(paths, Clock.systemUTC()).write(MemoryRequest.add("memory", "a fact")));
        assertTrue(e.getMessage().startsWith("memory_write: no Hermes home"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("hermes")));
        LogWriter log = new LogWriter(
                paths, new HermesMemoryRoot(paths, HermesConfig.defaults()), Clock.systemUTC(), ZoneOffset.UTC);
        StewardError l = assertThrows(
                StewardError.class, () -> log.append(new LogWriter.Request("a note worth keeping", null, null)));
        assertTrue(l.getMessage().startsWith("memory_log: no Hermes home"), l.getMessage());
        assertFalse(Files.exists(tmp.resolve("hermes")), "no Hermes home is created");
    }
}
