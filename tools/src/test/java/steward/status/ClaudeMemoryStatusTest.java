package steward.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.ClaudeTestHomes;

/** steward_status's Claude memory part on the real fixture: each file against what Claude Code loads; read-only. */
class ClaudeMemoryStatusTest {
    @TempDir
    Path tmp;

    @Test
    void everyMemoryFileAgainstWhatClaudeCodeLoads() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        Path project = home.resolve("workspace/webapp");
        Map<String, String> before = ClaudeTestHomes.tree(home);
        List<String> warnings = new ArrayList<>();
        StatusReport.ClaudeMemory m = ClaudeMemoryStatus.of(home, project, warnings);
        assertEquals(200, m.index_window());
        assertEquals(2, m.indexes());
        assertEquals(4, m.topics());
        assertEquals(1, m.personal_topics());
        var api = m.files().stream()
                .filter(f -> f.file().equals("~claude/projects/-home-dev-api/memory/MEMORY.md"))
                .findFirst()
                .orElseThrow();
        assertEquals(205, api.lines());
        assertEquals(200, api.loaded_lines());
        assertEquals(5, api.lines_not_loaded());
        var web = m.files().stream()
                .filter(f -> f.scope().equals("-home-dev-webapp"))
                .findFirst()
                .orElseThrow();
        assertEquals(5, web.lines());
        assertEquals(0, web.lines_not_loaded());
        assertEquals(4, web.topics());
        var md = m.files().stream()
                .filter(f -> f.kind().equals("claude_md") && f.scope().equals("project"))
                .findFirst()
                .orElseThrow();
        assertEquals("<project>/CLAUDE.md", md.file());
        assertEquals(md.lines(), md.loaded_lines(), "a CLAUDE.md file is loaded whole");
        assertEquals(
                6, m.files().stream().filter(f -> f.kind().equals("claude_md")).count());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(
                warnings.get(0).contains("205 lines, Claude Code loads only the first 200 (5 not loaded)"),
                warnings.get(0));
        assertEquals(before, ClaudeTestHomes.tree(home));
    }
}
