package steward.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HermesConfigTest {
    @TempDir
    Path dir;

    @Test
    void missingFileMeansDefaults() {
        HermesConfig c = HermesConfig.load(dir.resolve("config.yaml"));
        assertEquals(2200, c.memoryCharLimit());
        assertEquals(1375, c.userCharLimit());
        assertFalse(c.writeApproval());
        assertFalse(c.fileExists());
        assertTrue(c.warnings().isEmpty());
    }

    @Test
    void readsMemorySection() throws Exception {
        Path f = dir.resolve("config.yaml");
        Files.writeString(f, """
                model: anthropic/claude
                memory:
                  memory_char_limit: 4000
                  user_char_limit: 900
                  write_approval: true
                """);
        HermesConfig c = HermesConfig.load(f);
        assertEquals(4000, c.memoryCharLimit());
        assertEquals(Origin.CONFIG_FILE, c.memoryCharLimitOrigin());
        assertEquals(900, c.userCharLimit());
        assertTrue(c.writeApproval());
        assertTrue(c.warnings().isEmpty());
    }

    @Test
    void malformedYamlIsReportedNotFatal() throws Exception {
        Path f = dir.resolve("config.yaml");
        Files.writeString(f, "memory: [unclosed\n  - :\n");
        HermesConfig c = HermesConfig.load(f);
        assertEquals(2200, c.memoryCharLimit());
        assertEquals(1, c.warnings().size());
        assertTrue(
                c.warnings().get(0).startsWith("config.yaml: malformed YAML"),
                c.warnings().get(0));
    }

    @Test
    void badValuesFallBackToDefaultsWithAWarning() throws Exception {
        Path f = dir.resolve("config.yaml");
        Files.writeString(f, "memory:\n  memory_char_limit: lots\n  write_approval: maybe\n");
        HermesConfig c = HermesConfig.load(f);
        assertEquals(2200, c.memoryCharLimit());
        assertFalse(c.writeApproval());
        assertEquals(2, c.warnings().size());
    }
}
