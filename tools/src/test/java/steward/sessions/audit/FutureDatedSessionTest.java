package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.sessions.HermesRows;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/**
 * A session whose timestamps lie in the future (a clock set wrong, an import from a machine whose clock was) must not
 * take the place of the session the user is in when the current session is guessed, and is itself never acted on
 * automatically.
 */
class FutureDatedSessionTest {
    static final double DAY = 86400;
    /** The session the user is in: opened two hours ago in the TUI, its first turn not written yet (no messages). */
    static final String REAL = "20260810_095900_5e55ed";
    /** Active, written by a machine whose clock ran a month ahead. */
    static final String AHEAD = "20260909_120000_fa7ed0";

    @TempDir
    Path tmp;

    @Test
    void aSessionDatedInTheFutureDoesNotTakeTheCurrentSessionsPlaceAndIsKept() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StewardPaths paths = StewardPaths.of(home);
        double now = TestHomes.NOW.getEpochSecond();
        // the fixture's own current session ended a moment ago; the user is now in REAL
        HermesRows.end(
                paths.stateDb(), TestHomes.manifest().get("current_session_id").asString(), now - 30, "tui_close");
        HermesRows.into(paths.stateDb())
                .chat(REAL, "tui", null, false, 0, now - 2 * 3600)
                .chat(AHEAD, "cli", "Notes from the laptop", false, 8, now + 30 * DAY)
                .write();

        AuditEngine.Outcome o = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500));
        Map<String, AuditResult.Item> items = FixtureVerdictTest.all(o.result());
        AuditResult.Item real = items.get(REAL);
        assertEquals("S", real.rule(), "the session the user is in: " + real.reason());
        assertEquals("current session", real.reason());
        assertEquals(REAL, o.result().current().session_id());
        assertEquals(
                "newest_active_tui_cli_skipped_future_dated",
                o.result().current().found_by());

        AuditResult.Item ahead = items.get(AHEAD);
        assertEquals("retain", ahead.action(), ahead.reason());
        assertEquals("S", ahead.rule());
        assertTrue(
                ahead.reason().contains("dated in the future") && ahead.reason().contains("2026-09-09 11:59 UTC"),
                ahead.reason());

        // nothing answered: what runs is only what runs unasked, and neither of them is part of it
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of(), Map.of(), false, null));
        assertTrue(r.executed_count() > 0, "the fixture's automatic items ran");
        assertTrue(HermesRows.exists(paths.stateDb(), REAL), "the session the user is in was not deleted");
        assertTrue(HermesRows.exists(paths.stateDb(), AHEAD));
    }

    @Test
    void aFewMinutesAheadIsStillNowAndNoneLeftIsSaidHonestly() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StewardPaths paths = StewardPaths.of(home);
        double now = TestHomes.NOW.getEpochSecond();
        // Hermes wrote a turn just after the audit took its time: within the allowance, it is the newest activity
        String justNow = "20260810_115500_0ca1ed";
        HermesRows.into(paths.stateDb())
                .chat(justNow, "tui", null, false, 2, now + 60)
                .chat(AHEAD, "cli", null, false, 8, now + 30 * DAY)
                .write();
        AuditResult r = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500))
                .result();
        assertEquals(justNow, r.current().session_id());
        assertEquals("S", FixtureVerdictTest.all(r).get(AHEAD).rule());
    }

    @Test
    void claudeCodesGuessIgnoresATranscriptModifiedInTheFuture() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, false);
        JsonNode manifest = ClaudeTestHomes.manifest();
        String current = manifest.get("current_session_id").asString();
        String project = null, other = null;
        for (JsonNode s : manifest.get("sessions")) {
            if (s.get("id").asString().equals(current))
                project = s.get("project").asString();
        }
        for (JsonNode s : manifest.get("sessions")) {
            if (project.equals(s.get("project").asString())
                    && !s.get("id").asString().equals(current)
                    && s.get("kind").asString().equals("ended_titled"))
                other = s.get("id").asString();
        }
        Path transcript = home.resolve("projects").resolve(project).resolve(other + ".jsonl");
        assertTrue(Files.isRegularFile(transcript), transcript.toString());
        Files.setLastModifiedTime(transcript, FileTime.from(TestHomes.NOW.plusSeconds(30 * 86400)));

        AuditResult r = new AuditEngine(ClaudeTestHomes.claudeOnly(tmp, home), TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, "claude", 0))
                .result();
        assertEquals(current, r.current().session_id());
        assertEquals("newest_live_in_cwd_skipped_future_dated", r.current().found_by());
        AuditResult.Item it = FixtureVerdictTest.all(r).get(other);
        assertEquals("S", it.rule(), it.reason());
        assertFalse(it.executable());
    }
}
