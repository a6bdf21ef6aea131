package steward.sessions.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.testing.TestHomes;

class PrecheckEngineTest {
    @TempDir
    Path tmp;

    PrecheckEngine engine() throws Exception {
        return new PrecheckEngine(StewardPaths.of(TestHomes.copyFixture(tmp)), TestHomes.CLOCK);
    }

    @Test
    void twoKeywordsAreAStrongMatchOrderedByLastActivity() throws Exception {
        PrecheckEngine.Result r = engine().precheck("How do I configure Claude Code hooks?", null, "en", 10);
        assertTrue(
                r.keywords().containsAll(List.of("claude", "code", "hooks")),
                r.keywords().toString());
        assertTrue(r.keywords().size() >= 2 && r.keywords().size() <= 5);
        assertEquals(3, r.match_count());
        assertEquals("Claude Code hooks setup", r.matches().get(0).title(), "newest activity first");
        assertTrue(r.matches().stream().allMatch(m -> m.strength().equals("strong")));
        for (int i = 1; i < r.matches().size(); i++) {
            assertTrue(r.matches().get(i - 1).last_activity_epoch()
                    >= r.matches().get(i).last_activity_epoch());
        }
        assertNotNull(r.suggested_question());
        double last = 0;
        for (var s : TestHomes.manifest().get("sessions"))
            if (s.get("id").asString().equals(r.matches().get(0).session_id()))
                last = s.get("last_active").asDouble();
        assertEquals(
                (TestHomes.manifest().get("now").asDouble() - last) / 3600.0,
                r.matches().get(0).hours_ago(),
                0.05);
    }

    @Test
    void oneKeywordIsWeakAndChineseIsTokenised() throws Exception {
        PrecheckEngine.Result r = engine().precheck("我想重新安装显卡的驱动", null, "zh", 10);
        assertEquals(1, r.match_count(), r.toString());
        assertEquals("显卡 驱动 安装", r.matches().get(0).title());
        assertEquals("strong", r.matches().get(0).strength(), "显卡 + 驱动 + 安装 are several keywords");
        PrecheckEngine.Result weak = engine().precheck("kubernetes", null, "en", 10);
        assertEquals("weak", weak.matches().get(0).strength());
        assertTrue(weak.suggested_question().contains("Kubernetes ingress"));
    }

    @Test
    void endedSessionsAndNonMatchesAreIgnoredAndEmptyInputRefused() throws Exception {
        PrecheckEngine e = engine();
        assertEquals(
                0,
                e.precheck("Rust 所有权 borrow", null, "en", 10).matches().stream()
                        .filter(m -> m.title().contains("所有权"))
                        .count(),
                "ended sessions are not offered");
        assertEquals(0, e.precheck("weather in Lisbon", null, "en", 10).match_count());
        assertThrows(StewardError.class, () -> e.precheck("  ", null, "en", 10));
        assertEquals(
                0,
                e.precheck("O'Brien; DROP TABLE sessions;--", null, "en", 10).match_count(),
                "the hostile session is ended");
    }
}
