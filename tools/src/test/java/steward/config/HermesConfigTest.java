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
        // the user may have turned approval on in the file Steward cannot read: writes are staged, and it says why
        assertTrue(c.writeApproval());
        assertEquals(Origin.UNREADABLE, c.writeApprovalOrigin());
        assertTrue(
                c.warnings().get(0).contains("staged for approval"),
                c.warnings().get(0));
    }

    @Test
    void approvalIsTakenAsOnWheneverTheFileIsThereButItsSettingCannotBeRead() throws Exception {
        Path f = dir.resolve("config.yaml");
        for (byte[] text : new byte[][] {
            "memory:\n  write_approval: true\n  bad: [\n".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            new byte[] {'m', 'e', 'm', 'o', 'r', 'y', ':', ' ', (byte) 0xff, '\n'},
            "- a list\n- at the top\n".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "memory: write_approval\n".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "memory:\n  write_approval: \"true\"\n".getBytes(java.nio.charset.StandardCharsets.UTF_8),
        }) {
            Files.write(f, text);
            HermesConfig c = HermesConfig.load(f);
            String shown = new String(text, java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(c.writeApproval(), shown);
            assertEquals(Origin.UNREADABLE, c.writeApprovalOrigin(), shown);
            assertEquals(1, c.warnings().size(), shown);
        }
        Files.delete(f);
        Files.createDirectory(f); // there, but not a file that can be read
        HermesConfig c = HermesConfig.load(f);
        assertTrue(c.writeApproval());
        assertEquals(Origin.UNREADABLE, c.writeApprovalOrigin());
    }

    @Test
    void approvalStaysOffWhenTheFileSaysNothingOfItOrSaysFalse() throws Exception {
        Path f = dir.resolve("config.yaml");
        for (String text : new String[] {
            "",
            "model: x\n",
            "memory:\n",
            "memory:\n  memory_char_limit: 3000\n",
            "memory:\n  write_approval: false\n",
            "memory:\n  write_approval: off\n",
            "memory:\n  write_approval:\n",
            "memory:\n  memory_char_limit: lots\n", // a bad limit is Hermes' default, not an unreadable approval
        }) {
            Files.writeString(f, text);
            HermesConfig c = HermesConfig.load(f);
            assertFalse(c.writeApproval(), text);
            assertTrue(c.writeApprovalOrigin() != Origin.UNREADABLE, text);
        }
    }

    @Test
    void badValuesFallBackToDefaultsWithAWarning() throws Exception {
        Path f = dir.resolve("config.yaml");
        Files.writeString(f, "memory:\n  memory_char_limit: lots\n  write_approval: maybe\n");
        HermesConfig c = HermesConfig.load(f);
        assertEquals(2200, c.memoryCharLimit());
        assertTrue(c.writeApproval(), "'maybe' is not false: approval is taken as on");
        assertEquals(2, c.warnings().size());
    }
}
