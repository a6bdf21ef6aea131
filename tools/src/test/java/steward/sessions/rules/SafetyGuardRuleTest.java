package steward.sessions.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.sessions.audit.AuditResult;
import steward.sessions.store.HermesSessions;
import steward.sessions.store.SessionRow;

class SafetyGuardRuleTest {
    static final String ROWS = """
            # id    | source   | title         | parent | msgs | state  | arch | idle | end_reason
            cur     | tui      | -             | -      | 2    | active | 0    | 0    | -
            root    | cli      | -             | -      | 3    | ended  | 0    | 9    | compression
            tip     | cli      | -             | root   | 5    | active | 0    | 1    | -
            deadroot| cli      | -             | -      | 3    | ended  | 0    | 9    | compression
            deadtip | cli      | -             | deadroot | 2  | ended  | 0    | 8    | cli_close
            named   | tui      | My project    | -      | 40   | active | 1    | 30   | -
            sub     | subagent | Named sub     | -      | 40   | active | 0    | 30   | -
            oldroot | cli      | -             | -      | 4    | ended  | 0    | 40   | compression
            oldtip  | cli      | Taxes 2026    | oldroot | 9   | ended  | 0    | 28   | cli_close
            oldcron | cron     | -             | -      | 4    | active | 0    | 30   | -
            newcron | cron     | -             | -      | 4    | active | 0    | 2    | -
            short   | cli      | -             | -      | 2    | ended  | 0    | 10   | cli_close
            """;

    final SafetyGuardRule rule = new SafetyGuardRule();
    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleFixtures.context(rows, "cur");

    /** Review of 2026-12-05: a pinned session (newer Hermes schemas) was deleted by rule B without a question. */
    @Test
    void aPinnedSessionIsKept() {
        SessionRow pinned = RuleFixtures.pinned(RuleFixtures.row(rows, "short"));
        Verdict v = rule.evaluate(pinned, ctx).orElseThrow();
        assertEquals(Action.retain, v.action());
        assertEquals(Action.retain, RuleEngine.evaluate(pinned, ctx).action());
        assertEquals(
                Action.delete,
                RuleEngine.evaluate(RuleFixtures.row(rows, "short"), ctx).action(),
                "the same session unpinned: rule B deletes it");
    }

    /**
     * Review of 2026-12-05: with Hermes' auto_prune on, ending an idle cron session started more than retention_days
     * ago (rule M, HIGH) let Hermes delete it at its next start, and restore could not bring it back.
     */
    @Test
    void endingASessionHermesWouldThenPruneIsAskedAbout() {
        RuleContext prune = RuleFixtures.context(rows, "cur", steward.learning.Preferences.empty(), true, 5, null);
        Verdict old = RuleEngine.evaluate(RuleFixtures.row(rows, "oldcron"), prune);
        assertEquals(Action.mark_ended, old.action());
        assertEquals(Confidence.MEDIUM, old.confidence());
        assertTrue(
                old.reason().en().contains("once ended, Hermes' auto_prune deletes it"),
                old.reason().en());
        Verdict young = RuleEngine.evaluate(RuleFixtures.row(rows, "newcron"), prune);
        assertEquals(Action.mark_ended, young.action());
        assertEquals(Confidence.HIGH, young.confidence(), "started 2 days ago: Hermes keeps it ended for 5 days");
        RuleContext noPrune = RuleFixtures.context(rows, "cur", steward.learning.Preferences.empty(), false, 5, null);
        assertEquals(
                Confidence.HIGH,
                RuleEngine.evaluate(RuleFixtures.row(rows, "oldcron"), noPrune).confidence(),
                "auto_prune off: ending it deletes nothing");
    }

    @Test
    void currentSessionIsRetained() {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "cur"), ctx).orElseThrow();
        assertEquals(Action.retain, v.action());
        assertEquals("S", v.rule());
    }

    @Test
    void chainRootWithLiveContinuationIsRetainedEvenIfUntitledAndEnded() {
        Verdict v = rule.evaluate(RuleFixtures.row(rows, "root"), ctx).orElseThrow();
        assertEquals(Action.retain, v.action());
        // through the whole engine, rule B would otherwise delete it
        assertEquals(
                Action.retain,
                RuleEngine.evaluate(RuleFixtures.row(rows, "root"), ctx).action());
    }

    /**
     * Review of 2026-12-04: a chain whose titled continuation ended 28 days ago was kept as "a continuation of it is
     * still in use". It is kept (a titled session is never deleted unasked, so cutting its chain is not either), and the
     * reason no longer says "in use".
     */
    @Test
    void aChainKeptForItsTitledContinuationDoesNotSayInUse() {
        for (String id : List.of("oldroot", "root")) {
            Verdict v = rule.evaluate(RuleFixtures.row(rows, id), ctx).orElseThrow();
            assertEquals(Action.retain, v.action());
            assertEquals(
                    "a continuation of it is active or titled: deleting it would cut the chain",
                    v.reason().en());
        }
    }

    @Test
    void deadChainIsNotProtected() {
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "deadroot"), ctx).isEmpty());
        assertTrue(rule.evaluate(RuleFixtures.row(rows, "tip"), ctx).isEmpty());
    }

    @Test
    void anActiveSessionDatedInTheFutureIsKeptAndNeverGuessedCurrent() {
        List<SessionRow> r = RuleFixtures.rows("""
                now     | tui      | -  | -  | 2  | active | 0 | 0      | -
                skewed  | tui      | -  | -  | 2  | active | 0 | -0.003 | -
                ahead   | cli      | -  | -  | 2  | active | 0 | -0.004 | -
                sub     | subagent | -  | -  | 2  | active | 0 | -30    | -
                ended   | cli      | -  | -  | 2  | ended  | 0 | -30    | -
                """);
        // 259 s ahead is within the 5 minutes' allowance, 346 s is not
        assertEquals(
                new AuditResult.Current("skewed", "newest_active_tui_cli_skipped_future_dated"),
                HermesSessions.newestActiveTuiCli(r, RuleFixtures.NOW));
        RuleContext c = RuleFixtures.context(r, "skewed");
        for (String id : List.of("ahead", "sub")) {
            Verdict v = RuleEngine.evaluate(RuleFixtures.row(r, id), c);
            assertEquals("S", v.rule(), id + ": " + v.reason().en());
            assertEquals(Action.retain, v.action());
            assertTrue(
                    v.reason().en().contains("dated in the future"), v.reason().en());
        }
        // an ended session's facts (untitled, 2 messages) do not depend on the clock: rule B decides as for any other
        assertEquals("B", RuleEngine.evaluate(RuleFixtures.row(r, "ended"), c).rule());
    }

    @Test
    void capKeepsTitledActiveNonSubagentAtMostMedium() {
        SessionRow named = RuleFixtures.row(rows, "named");
        Verdict high = new Verdict("X", Action.delete, Confidence.HIGH, new Text("x", "x"));
        assertEquals(Confidence.MEDIUM, SafetyGuardRule.cap(named, high, ctx).confidence());
        SessionRow sub = RuleFixtures.row(rows, "sub");
        assertEquals(Confidence.HIGH, SafetyGuardRule.cap(sub, high, ctx).confidence(), "subagents are not capped");
        SessionRow deadtip = RuleFixtures.row(rows, "deadtip");
        assertEquals(
                Confidence.HIGH, SafetyGuardRule.cap(deadtip, high, ctx).confidence(), "ended sessions are not capped");
    }

    static final String MACHINE = """
            # id    | source   | title         | parent | msgs | state  | arch | idle | end_reason
            cur     | tui      | -             | -      | 2    | active | 0    | 0    | -
            job     | cron     | nightly       | -      | 9    | active | 0    | 1    | -
            oldjob  | cron     | nightly       | -      | 9    | ended  | 0    | 30   | cron_complete
            shell   | subagent | -             | cur2   | 2    | ended  | 0    | 10   | -
            cur2    | cli      | -             | -      | 40   | ended  | 0    | 10   | cli_close
            """;

    /**
     * A setting the user may have written to keep more, or to turn a rule off, that Steward cannot read (a malformed
     * config.yaml, "cron_retention_days: never") fell back to the default, and the rule then acted on its own (rule A
     * deleting subagents the user meant to keep 30 days, rule M ending cron sessions with cron turned off).
     */
    @Test
    void aRuleWhoseSettingCannotBeReadNeverRunsOnItsOwn() {
        List<SessionRow> r = RuleFixtures.rows(MACHINE);
        RuleContext read = RuleFixtures.context(r, "cur");
        RuleContext unread = RuleContext.of(
                RuleFixtures.NOW,
                "cur",
                r,
                steward.learning.Preferences.empty(),
                3,
                null,
                null,
                java.util.Set.of("steward.machine_idle_hours.cron", "steward.subagent_keep_days"));
        // readable settings: M ends the idle cron job, A deletes the shell, both HIGH
        assertEquals(
                Confidence.HIGH,
                RuleEngine.evaluate(RuleFixtures.row(r, "job"), read).confidence());
        assertEquals(
                Confidence.HIGH,
                RuleEngine.evaluate(RuleFixtures.row(r, "shell"), read).confidence());
        for (String id : List.of("job", "shell")) {
            Verdict v = RuleEngine.evaluate(RuleFixtures.row(r, id), unread);
            assertEquals(Confidence.MEDIUM, v.confidence(), id);
            assertTrue(v.guarded(), id + ": never promoted by learning either");
            assertTrue(
                    v.reason().en().contains("config.yaml cannot be read"),
                    v.reason().en());
            assertTrue(v.reason().zh().contains("config.yaml"), v.reason().zh());
        }
        // the rule whose setting was read is untouched: T (cron retention) and B keep their own confidence
        Verdict t = RuleEngine.evaluate(RuleFixtures.row(r, "oldjob"), unread);
        assertEquals("T", t.rule());
        assertEquals(RuleEngine.evaluate(RuleFixtures.row(r, "oldjob"), read), t);
        assertEquals(
                RuleEngine.evaluate(RuleFixtures.row(r, "cur2"), read),
                RuleEngine.evaluate(RuleFixtures.row(r, "cur2"), unread));
        // a key that is no rule's setting caps nothing
        RuleContext other = RuleContext.of(
                RuleFixtures.NOW,
                "cur",
                r,
                steward.learning.Preferences.empty(),
                3,
                null,
                null,
                java.util.Set.of("steward.backup_retention_days", "steward.machine_idle_hoursX"));
        assertEquals(
                Confidence.HIGH,
                RuleEngine.evaluate(RuleFixtures.row(r, "job"), other).confidence());
    }

    @Test
    void metadataIsDeclared() {
        assertEquals("S", rule.meta().id());
        assertTrue(rule.meta().rationale().length() > 20);
    }
}
