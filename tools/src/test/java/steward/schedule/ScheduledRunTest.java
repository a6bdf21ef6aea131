package steward.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.sessions.HermesRows;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.AuditResult;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/** The weekly run on a copy of the fixture: rule A only, nothing learned, reported once by the next interactive audit. */
class ScheduledRunTest {
    @TempDir
    Path tmp;

    @Test
    void onlyRuleARunsNothingIsLearnedAndTheNextInteractiveAuditReportsIt() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StewardPaths paths = StewardPaths.of(home);
        List<String> before = TestHomes.dump(home.resolve("state.db"));
        ScheduleLog.Run r = ScheduledRun.run(paths, TestHomes.CLOCK);
        assertEquals("ok", r.status(), r.error());
        // the fixture's 14 rule A shells minus the one rule K keeps (younger than 3 days)
        assertEquals(13, r.executed());
        assertEquals(13, r.deleted().size());
        assertTrue(r.backup_id() != null);
        assertFalse(r.deleted().contains("20260809_101500_06ec41"));
        assertTrue(ScheduledRun.line(r).contains("ok, 13 done"));
        assertFalse(Files.exists(paths.stateDir().resolve("preferences.json")), "a headless run learns nothing");
        assertTrue(TestHomes.dump(home.resolve("state.db")).size() < before.size());

        AuditResult interactive = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .result();
        AuditResult.ScheduledRuns s = interactive.scheduled_runs();
        assertEquals(
                new AuditResult.ScheduledRuns(
                        1, r.started_at(), r.started_at(), 13, 13, List.of(r.backup_id()), List.of()),
                s);
        String text = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .text();
        assertFalse(text.contains("Scheduled housekeeping"), "reported once");
        assertNull(new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20))
                .result()
                .scheduled_runs());
    }

    @Test
    void newHighRulesNeverRunOnASchedule() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StewardPaths paths = StewardPaths.of(home);
        double now = TestHomes.NOW.getEpochSecond();
        // HIGH items of rules M (a cron run left open), N (an empty session) and a compaction chain of B/short
        // deletions
        HermesRows.into(paths.stateDb())
                .chat("cron_open", "cron", null, false, 4, now - 6 * 3600)
                .chat("empty_visit", "api_server", null, false, 0, now - 5 * 3600)
                .chat("chain_a", "cli", null, true, 2, now - 9 * 86400)
                .chat("chain_b", "cli", null, true, 2, now - 8 * 86400)
                .write();
        HermesRows.sql(paths.stateDb(), "UPDATE sessions SET end_reason = 'compression' WHERE id = 'chain_a'");
        HermesRows.sql(paths.stateDb(), "UPDATE sessions SET parent_session_id = 'chain_a' WHERE id = 'chain_b'");
        AuditEngine.Outcome interactive = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 20));
        for (String id : List.of("cron_open", "empty_visit", "chain_a", "chain_b")) {
            assertTrue(interactive.plan().item(id).automatic(), id + " is HIGH interactively");
        }
        List<String> subagentsLeftOpen = interactive.plan().items().stream()
                .filter(i -> "M/subagent".equals(i.key()))
                .map(i -> i.session_id())
                .toList();
        assertFalse(subagentsLeftOpen.isEmpty());
        ScheduleLog.Run r = ScheduledRun.run(paths, TestHomes.CLOCK);
        assertEquals("ok", r.status(), r.error());
        assertEquals(13, r.executed(), "rule A's shells only");
        for (String id : List.of("cron_open", "empty_visit", "chain_a", "chain_b")) {
            assertTrue(HermesRows.exists(paths.stateDb(), id), id);
            assertFalse(r.deleted().contains(id), id);
        }
        try (var c = Sqlite.openReadOnly(paths.stateDb());
                var ps = c.prepareStatement(
                        "SELECT COUNT(*) FROM sessions WHERE ended_at IS NULL AND id IN ('cron_open', '"
                                + String.join("', '", subagentsLeftOpen) + "')");
                var rs = ps.executeQuery()) {
            rs.next();
            assertEquals(1 + subagentsLeftOpen.size(), rs.getInt(1), "nothing was marked as ended on a schedule");
        }
    }

    @Test
    void aSecondRunFindsNothingAndBothAreReportedTogether() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StewardPaths paths = StewardPaths.of(home);
        ScheduledRun.run(paths, TestHomes.CLOCK);
        Clock week = Clock.fixed(Instant.parse("2026-08-17T09:00:00Z"), ZoneOffset.UTC);
        ScheduleLog.Run second = ScheduledRun.run(paths, week);
        assertEquals("ok", second.status());
        assertEquals(1, second.executed(), "a week later the young shell is old enough");
        AuditEngine.Outcome o = new AuditEngine(paths, week, Preferences.empty())
                .audit(new AuditRequest(null, null, "interactive", "en", 20));
        assertEquals(2, o.result().scheduled_runs().runs());
        assertEquals(14, o.result().scheduled_runs().deleted());
        assertTrue(o.text().contains("Scheduled housekeeping since your last audit: 2 runs"), o.text());
        AuditEngine.Outcome headless = new AuditEngine(paths, week, Preferences.empty())
                .audit(new AuditRequest(null, null, "headless", "en", 20));
        assertNull(headless.result().scheduled_runs(), "a headless audit reports nothing to nobody");
    }

    @Test
    void aFailedRunIsRecordedAndReported() throws Exception {
        Path home = tmp.resolve("empty-home");
        Files.createDirectories(home);
        StewardPaths paths = StewardPaths.of(home);
        ScheduleLog.Run r = ScheduledRun.run(paths, TestHomes.CLOCK);
        assertEquals("failed", r.status());
        assertTrue(r.error().contains("state.db"), r.error());
        assertEquals(1, new ScheduleLog(paths.stateDir()).unreported().size());
    }
}
