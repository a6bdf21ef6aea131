package steward.sessions.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;

class ClaudePrecheckTest {
    @TempDir
    Path tmp;

    @Test
    void liveTitledClaudeSessionsOnTheTopicAreFound() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        PrecheckEngine.Result r = new PrecheckEngine(ClaudeTestHomes.claudeOnly(tmp, home), TestHomes.CLOCK)
                .precheck("postgres vacuum settings for the big table", TestHomes.NOW, "en", 10);
        assertEquals(2, r.match_count(), r.toString());
        PrecheckEngine.Match first = r.matches().get(0);
        assertEquals("Postgres vacuum tuning", first.title());
        assertEquals("strong", first.strength());
        assertEquals("claude", first.store());
        assertEquals("-home-dev-notes", first.project());
        assertEquals("weak", r.matches().get(1).strength());
    }

    @Test
    void bothHomesAreSearchedUnlessAStoreIsNamed() throws Exception {
        Path hermes = TestHomes.copyFixture(tmp);
        Path claude = ClaudeTestHomes.install(tmp, false);
        StewardPaths paths = StewardPaths.of(hermes, claude);
        PrecheckEngine e = new PrecheckEngine(paths, TestHomes.CLOCK);
        PrecheckEngine.Result both = e.precheck("postgres and claude code hooks", TestHomes.NOW, "en", 50);
        assertTrue(both.matches().stream().anyMatch(m -> m.store().equals("claude")), both.toString());
        assertTrue(both.matches().stream().anyMatch(m -> m.store().equals("hermes")), both.toString());
        PrecheckEngine.Result hermesOnly =
                e.precheck("postgres and claude code hooks", TestHomes.NOW, "en", 50, "hermes");
        assertTrue(hermesOnly.matches().stream().allMatch(m -> m.store().equals("hermes")), hermesOnly.toString());
    }
}
