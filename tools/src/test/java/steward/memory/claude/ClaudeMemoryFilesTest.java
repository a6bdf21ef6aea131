package steward.memory.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.ClaudeTestHomes;
import tools.jackson.databind.JsonNode;

/** Claude Code's memory read from the real fixture files: CLAUDE.md family, MEMORY.md, topic front matter, the settings override. */
class ClaudeMemoryFilesTest {
    @TempDir
    Path tmp;

    @Test
    void readsEveryInstructionFileTheIndexAndTheTopics() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        Path project = ClaudeTestHomes.memoryProject(home);
        JsonNode m = ClaudeTestHomes.manifest().get("memory");
        ClaudeMemoryFiles f = ClaudeMemoryFiles.read(home, project);
        assertEquals(m.get("instruction_files").asInt(), f.instructions().size());
        assertEquals(
                List.of("user", "user_rule", "project", "project_claude_dir", "local", "rule"),
                f.instructions().stream()
                        .map(ClaudeMemoryFiles.Instruction::scope)
                        .toList());
        assertEquals(m.get("index_lines").asInt(), f.indexLines().size());
        assertEquals(m.get("topics").asInt(), f.projectTopics().size());
        assertEquals(
                m.get("topics").asInt() + m.get("personal_topics").asInt(),
                f.topics().size());
        assertEquals("default", f.memoryDirOrigin());
        var pm = f.topics().stream()
                .filter(t -> t.file().getFileName().toString().equals("package-manager.md"))
                .findFirst()
                .orElseThrow();
        assertEquals("Package manager", pm.name());
        assertEquals("feedback", pm.type());
        assertTrue(pm.body().startsWith("Use pnpm for every install"), pm.body());
        var nested = f.topics().stream()
                .filter(t -> t.file().getFileName().toString().equals("payment-webhooks.md"))
                .findFirst()
                .orElseThrow();
        assertEquals("project", nested.type(), "a type nested under metadata: counts");
        assertEquals("memory/package-manager.md", f.display(pm.file()));
        assertTrue(f.warnings().isEmpty(), f.warnings().toString());
    }

    @Test
    void autoMemoryDirectoryInSettingsMovesTheAutoMemory() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        Path elsewhere = tmp.resolve("notes");
        Files.createDirectories(elsewhere);
        Files.writeString(elsewhere.resolve("MEMORY.md"), "- one\n- two\n");
        Files.writeString(
                home.resolve("settings.json"),
                "{\"cleanupPeriodDays\": 30, \"autoMemoryDirectory\": \"" + elsewhere + "\"}");
        ClaudeMemoryFiles f = ClaudeMemoryFiles.read(home, Path.of("/home/dev/webapp"));
        assertEquals("settings", f.memoryDirOrigin());
        assertEquals(elsewhere.toAbsolutePath().normalize(), f.memoryDir());
        assertEquals(2, f.indexLines().size());
    }

    @Test
    void anUnreadableSettingsFileIsAWarningAndTheDefaultIsKept() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        Files.writeString(home.resolve("settings.json"), "{not json");
        ClaudeMemoryFiles f = ClaudeMemoryFiles.read(home, Path.of("/home/dev/webapp"));
        assertEquals("default", f.memoryDirOrigin());
        assertEquals(5, f.indexLines().size());
        assertEquals(1, f.warnings().size(), f.warnings().toString());
    }
}
