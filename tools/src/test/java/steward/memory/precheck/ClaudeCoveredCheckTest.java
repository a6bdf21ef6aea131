package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClaudeCoveredCheckTest {
    static PrecheckInput claude(String content, String source, String where, double coverage, boolean exact) {
        return new PrecheckInput(content, "claude", source, where, coverage, exact, null, 3, 200, true, null, null);
    }

    @Test
    void identicalTextOrHighCoverageFails() {
        assertEquals(
                "fail",
                new ClaudeCoveredCheck()
                        .evaluate(claude("Use pnpm", "auto_memory", "memory/package-manager.md", 1, true))
                        .status());
        assertEquals(
                "fail",
                new ClaudeCoveredCheck()
                        .evaluate(claude(
                                "Never commit directly to main, open a pull request",
                                "claude_md",
                                "<project>/CLAUDE.md:11",
                                0.9,
                                false))
                        .status());
    }

    @Test
    void lowCoverageShortTextOrNoCandidatePasses() {
        assertEquals(
                "pass",
                new ClaudeCoveredCheck()
                        .evaluate(claude(
                                "The e2e suite uses port 5433 for postgres",
                                "auto_memory",
                                "memory/test-database.md",
                                0.6,
                                false))
                        .status());
        assertEquals(
                "pass",
                new ClaudeCoveredCheck()
                        .evaluate(claude("pnpm only", "claude_md", "~claude/CLAUDE.md:3", 1.0, false))
                        .status());
        assertEquals(
                "pass",
                new ClaudeCoveredCheck()
                        .evaluate(claude("Anything new here", null, null, 0, false))
                        .status());
    }

    @Test
    void hermesTargetsAreSkipped() {
        assertEquals(
                "skip",
                new ClaudeCoveredCheck()
                        .evaluate(CheckFixtures.with("x y z", "memory", "MEMORY.md entry 1", 1, true))
                        .status());
    }
}
