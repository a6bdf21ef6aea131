package steward.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;

class ClaudeStatusTest {
    @TempDir
    Path tmp;

    @Test
    void aClaudeHomeAloneIsAWorkingSetupAndItsSessionsAreShownByProject() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        Map<String, String> before = ClaudeTestHomes.tree(home);
        StewardPaths paths = StewardPaths.resolve(
                null,
                null,
                null,
                Map.of(
                        "HOME",
                        tmp.toString(), // Hermes home: the default, absent
                        "CLAUDE_CONFIG_DIR",
                        home.toString()));
        StatusReport r = new StatusEngine(paths, TestHomes.CLOCK).status();
        assertFalse(r.failed(), r.errors().toString());
        assertFalse(r.hermes_home_exists());
        assertTrue(
                r.warnings().stream().anyMatch(w -> w.contains("serving the Claude Code home only")),
                r.warnings().toString());
        assertEquals("environment", r.paths().claude_home().origin());
        assertEquals(home.resolve("steward").toString(), r.paths().state_dir().path());
        StatusReport.Claude c = r.claude();
        assertTrue(c.exists());
        assertEquals(5, c.projects());
        assertEquals(18, c.sessions(), "the 10 MB transcript was not installed");
        assertEquals(3, c.subagents());
        assertEquals(7, c.live());
        assertEquals(30, c.cleanup_period_days());
        assertEquals("config_file", c.cleanup_period_days_origin());
        assertEquals(List.of("-home-dev-notes/sessions-index.json"), c.unparseable_index_files());
        assertEquals(2, c.index_files());
        assertEquals(3, c.malformed_lines());
        assertEquals(1, c.orphan_dirs());
        assertEquals("-home-dev-webapp", c.by_project().get(0).project());
        assertEquals("/home/dev/webapp", c.by_project().get(0).cwd());
        assertEquals(before, ClaudeTestHomes.tree(home), "status changes nothing");
        assertFalse(Files.exists(home.resolve("steward")), "status creates no state dir");
    }

    @Test
    void bothHomesAreShownWithWhereEachCameFrom() throws Exception {
        Path hermes = TestHomes.copyFixture(tmp);
        Path claude = ClaudeTestHomes.install(tmp, false);
        StatusReport r = new StatusEngine(
                        StewardPaths.resolve(
                                hermes.toString(), claude.toString(), null, Map.of("HOME", tmp.toString())),
                        TestHomes.CLOCK)
                .status();
        assertFalse(r.failed(), r.errors().toString());
        assertEquals("flag", r.paths().hermes_home().origin());
        assertEquals("flag", r.paths().claude_home().origin());
        assertEquals(62, r.sessions().total());
        assertEquals(18, r.claude().sessions());
    }

    @Test
    void neitherHomeIsAnErrorNamingBoth() {
        StatusReport r = new StatusEngine(
                        StewardPaths.resolve(null, null, null, Map.of("HOME", tmp.toString())), TestHomes.CLOCK)
                .status();
        assertTrue(r.failed());
        assertTrue(r.errors().get(0).contains("no Claude Code home"), r.errors().toString());
        assertFalse(r.claude().exists());
        assertEquals("default", r.paths().claude_home().origin());
        assertNull(StewardPaths.of(tmp).claudeHome(), "tests' Hermes-only paths have no Claude home");
    }
}
