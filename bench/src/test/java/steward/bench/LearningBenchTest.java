package steward.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The learning benchmark's simulation is deterministic (a seeded home, simulated users, fixed clocks), so its trust
 * targets are checked here on a short run: nothing a user had vetoed runs automatically again, nothing kept is lost,
 * restoring is exercised and teaches, and a silent user is not asked more.
 */
class LearningBenchTest {
    static LearningBench bench() {
        LearningBench b = new LearningBench();
        b.runs = 5;
        return b;
    }

    @Test
    void aUserWhoChangesTheirMindRestoresOnceAndIsNeverOverruledAgain() throws Exception {
        LearningBench.Arm a = bench().simulate(SimulatedUsers.CHANGES_MIND, 1, true);
        assertTrue(a.restored() >= 1, "the first automatic deletion after the change of mind is restored");
        assertEquals(0, a.vetoedAfterTold(), "after the restore, nothing of that condition runs unasked");
        assertTrue(a.keptLost().isEmpty(), a.keptLost().toString());
        assertTrue(
                !a.ruleState().contains("B=HIGH"),
                "B/long no longer runs unasked (asked again, or quiet): " + a.ruleState());
    }

    @Test
    void keptSubagentsSurviveWithLearningAndAreLostWithout() throws Exception {
        LearningBench.Arm learn = bench().simulate(SimulatedUsers.KEEPS_RUNNING_SUBAGENTS, 1, true);
        assertEquals(0, learn.vetoedAfterTold());
        assertTrue(learn.keptLost().isEmpty(), learn.keptLost().toString());
        LearningBench.Arm control = bench().simulate(SimulatedUsers.KEEPS_RUNNING_SUBAGENTS, 1, false);
        assertTrue(
                control.keptLost().size() > 0,
                "without the learning store the same user loses kept subagents: the check can fail");
    }

    @Test
    void aSilentUserIsNotAskedMore() throws Exception {
        LearningBench.Arm a = bench().simulate(SimulatedUsers.SILENT, 1, true);
        assertTrue(a.questions()[4] <= a.questions()[0], Arrays.toString(a.questions()));
        assertEquals(0, a.vetoed(), "nothing beyond what the rules do on their own ran for a user who never answered");
    }
}
