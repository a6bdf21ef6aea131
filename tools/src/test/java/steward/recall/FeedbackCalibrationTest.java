package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outcomes of injections move the gate per lane and source, within bounds, persisted, shown, and reset by the user. */
class FeedbackCalibrationTest {
    @TempDir
    Path tmp;

    static final String FACT = "The staging database runs on port 5433 behind pgbouncer";

    RecallService service() throws Exception {
        return new RecallService(RecallTestHomes.engine(RecallTestHomes.memoryHome(
                tmp, String.join("\n§\n", FACT, "violin lessons on Tuesdays", "saffron risotto recipe"), null)));
    }

    static InjectEngine.Request ask(String text) {
        return new InjectEngine.Request(text, null, null, null, "active");
    }

    @Test
    void ignoredInjectionsRaiseTheLanesBarForThatSourceUsedOnesLowerItWithinBounds() throws Exception {
        RecallService s = service();
        String q = "What port does the staging database use?";
        InjectEngine.Result first = s.inject(ask(q));
        assertEquals("inject", first.decision());
        double base = first.threshold();
        String uri = first.items().get(0).uri();
        s.feedback(first.decision_id(), List.of(uri), "ignored");
        double raised = s.inject(ask(q)).threshold();
        assertTrue(raised > base, base + " -> " + raised);
        // thirty more injections of it ignored (recorded as later decisions would be)
        for (int i = 0; i < 30; i++)
            s.engine().feedback().record("d" + i, "explicit", List.of(uri), "ignored", RecallTestHomes.CLOCK);
        assertEquals(
                base + FeedbackStore.MAX_RAISE,
                s.engine().feedback().offset("explicit", "memory") + base,
                1e-9,
                "bounded");
        assertEquals(0.0, s.engine().feedback().offset("proactive", "memory"), "other lanes are not touched");
        assertEquals(0.0, s.engine().feedback().offset("explicit", "session"), "other sources are not touched");

        FeedbackStore.Counts cal = s.engine().feedback().state().calibration().get("explicit/memory");
        assertEquals(31, cal.ignored());
        // persisted: a new store over the same file sees the same calibration
        assertEquals(
                FeedbackStore.MAX_RAISE,
                new FeedbackStore(RecallEngine.recallDir(s.engine().paths())).offset("explicit", "memory"),
                1e-9);

        RecallService.FeedbackOutput reset = s.resetCalibration();
        assertEquals(31, reset.reset().get("explicit/memory").ignored());
        assertEquals(0.0, s.engine().feedback().offset("explicit", "memory"));
        assertEquals(base, s.inject(ask(q)).threshold(), 1e-9);
        assertEquals(
                FeedbackStore.Counts.NONE,
                s.engine().feedback().counts(uri),
                "the weight those injections' outcomes gave the item is forgotten too");
        assertEquals(
                first.items().get(0).components().importance(),
                s.inject(ask(q)).items().get(0).components().importance(),
                1e-9,
                "ranked as before any feedback");
    }

    @Test
    void oneOutcomePerItemOfADecisionARepeatCountsOnceAnotherReplacesIt() throws Exception {
        RecallService s = service();
        String q = "What port does the staging database use?";
        InjectEngine.Result first = s.inject(ask(q));
        String uri = first.items().get(0).uri();
        RecallService.FeedbackItem once = s.feedback(first.decision_id(), List.of(uri), "ignored")
                .recorded()
                .get(0);
        assertFalse(once.already_recorded());
        for (int i = 0; i < 5; i++) {
            RecallService.FeedbackItem again = s.feedback(first.decision_id(), List.of(uri), "ignored")
                    .recorded()
                    .get(0);
            assertTrue(again.already_recorded(), "a repeat is reported as already recorded");
            assertEquals(once.counts(), again.counts());
            assertEquals(once.importance_factor(), again.importance_factor());
        }
        FeedbackStore f = s.engine().feedback();
        assertEquals(new FeedbackStore.Counts(0, 1, 0, 0), f.counts(uri));
        assertEquals(
                new FeedbackStore.Counts(0, 1, 0, 0), f.state().calibration().get("explicit/memory"));

        RecallService.FeedbackItem used =
                s.feedback(first.decision_id(), List.of(uri), "used").recorded().get(0);
        assertEquals("ignored", used.replaced());
        assertEquals(new FeedbackStore.Counts(1, 0, 0, 0), used.counts(), "the later outcome replaces the earlier");
        assertEquals(
                new FeedbackStore.Counts(1, 0, 0, 0), f.state().calibration().get("explicit/memory"));
        assertEquals(1, f.state().entries().size());
    }

    @Test
    void aCalibrationResetKeepsHarmfulMarksAndFeedbackGivenOnUrisAlone() throws Exception {
        RecallService s = service();
        String q = "What port does the staging database use?";
        InjectEngine.Result first = s.inject(ask(q));
        String uri = first.items().get(0).uri();
        s.feedback(first.decision_id(), List.of(uri), "harmful");
        String other = RecallTestHomes.memUri("memory", "violin lessons on Tuesdays");
        s.feedback(null, List.of(other), "corrected");
        s.resetCalibration();
        FeedbackStore f = s.engine().feedback();
        assertEquals(1, f.counts(uri).harmful(), "a harmful mark is never forgotten");
        assertEquals(1, f.counts(other).corrected(), "feedback on a URI alone judged the item, not the gate");
        assertTrue(f.state().calibration().isEmpty());
        // after the reset, the decision's item may still change its outcome: the harmful mark goes, nothing else moves
        s.feedback(first.decision_id(), List.of(uri), "used");
        assertEquals(new FeedbackStore.Counts(1, 0, 0, 0), f.counts(uri));
    }

    @Test
    void usedInjectionsLowerTheBarButNeverBelowTheBound() {
        assertEquals(0.0, FeedbackStore.offset(FeedbackStore.Counts.NONE), 1e-9);
        double ten = FeedbackStore.offset(new FeedbackStore.Counts(10, 0, 0, 0));
        assertTrue(ten < 0 && ten > -FeedbackStore.MAX_LOWER, "ten used: " + ten);
        assertEquals(-FeedbackStore.MAX_LOWER, FeedbackStore.offset(new FeedbackStore.Counts(10_000, 0, 0, 0)), 0.03);
        assertTrue(FeedbackStore.offset(new FeedbackStore.Counts(10_000, 0, 0, 0)) >= -FeedbackStore.MAX_LOWER);
        assertEquals(
                0.0,
                FeedbackStore.offset(new FeedbackStore.Counts(3, 1, 0, 0)),
                1e-9,
                "at the target precision nothing moves");
    }

    @Test
    void feedbackOutsideADecisionJudgesTheItemButDoesNotCalibrateTheGate() throws Exception {
        RecallService s = service();
        String uri = RecallTestHomes.memUri("memory", FACT);
        s.feedback(null, List.of(uri), "ignored");
        assertEquals(1, s.engine().feedback().counts(uri).ignored());
        assertTrue(s.engine().feedback().state().calibration().isEmpty());
    }

    @Test
    void feedbackOnAnOldPositionalUriMovesToItsEntryOnlyWhenTheFileIsUnchangedSince() throws Exception {
        Path home = RecallTestHomes.memoryHome(tmp, String.join("\n§\n", FACT, "violin lessons on Tuesdays"), null);
        Path recall = Files.createDirectories(home.resolve("steward/recall"));
        // written by the previous release: positional keys, given after the file's last change (2999 is later than now)
        Files.writeString(
                recall.resolve("feedback.json"),
                "{\"items\":{\"steward://memory/memory/1\":{\"used\":0,\"ignored\":0,\"harmful\":1,"
                        + "\"corrected\":0},\"steward://memory/memory/2\":{\"used\":2,\"ignored\":0,\"harmful\":0,\"corrected\":0}},"
                        + "\"entries\":[{\"decision_id\":null,\"uri\":\"steward://memory/memory/1\",\"outcome\":\"harmful\",\"at\":\"2999-01-01T00:00:00Z\"},"
                        + "{\"decision_id\":null,\"uri\":\"steward://memory/memory/2\",\"outcome\":\"used\",\"at\":\"2000-01-01T00:00:00Z\"}]}");
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            FeedbackStore f = e.feedback();
            assertEquals(
                    1, f.counts(RecallTestHomes.memUri("memory", FACT)).harmful(), "unchanged since: the same entry");
            assertEquals(
                    0,
                    f.counts(RecallTestHomes.memUri("memory", "violin lessons on Tuesdays"))
                            .used(),
                    "the file changed after that feedback: it may be about another entry, so it applies to none");
            assertEquals(
                    2, f.state().unmapped().get("steward://memory/memory/2").used());
            assertFalse(f.state().items().containsKey("steward://memory/memory/1"));
        }
    }
}
