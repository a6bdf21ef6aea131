package steward.memory.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;
import steward.work.CancelAt;

/** memory_consolidate stops where its caller gives up only before it writes: no plan file, no journal, no memory change. */
class ConsolidationSafePointsTest {
    @TempDir
    Path tmp;

    @Test
    void gatherPlanAndApplyStopBeforeTheyWrite() throws Exception {
        StewardPaths paths = LifecycleHomes.home(tmp, "[0.5] [env] Python 3.12 via uv");
        LifecycleHomes.log(paths, "2026-08-01", "- 09:00 prefers pnpm\n- 10:00 uses pnpm again\n");
        Clock clock = LifecycleHomes.at("2026-08-10T12:00:00Z");
        Consolidation c = LifecycleHomes.consolidation(paths, clock);
        List<Consolidation.Proposal> proposals = List.of(new Consolidation.Proposal(
                "[pref] Use pnpm, not npm", "preference", List.of("log:2026-08-01#3"), null, null, null));
        c.gather(null, null); // the first call sets up Steward's own bookkeeping (history baseline, index)
        Map<String, String> before = LifecycleHomes.tree(tmp);

        assertThrows(Work.Cancelled.class, () -> c.gather(null, null, new CancelAt(1)));
        CancelAt plan = new CancelAt(1);
        assertThrows(Work.Cancelled.class, () -> c.plan(null, null, proposals, "en", plan));
        assertEquals(before, LifecycleHomes.tree(tmp), "a cancelled gather or plan writes nothing");

        Consolidation.PlanResult p = c.plan(null, null, proposals, "en", CancelAt.never());
        Map<String, String> planned = LifecycleHomes.tree(tmp);
        assertThrows(Work.Cancelled.class, () -> c.apply(p.plan_id(), null, "test", new CancelAt(1)));
        assertEquals(planned, LifecycleHomes.tree(tmp), "a cancelled apply writes nothing and leaves its plan usable");
        CancelAt late = new CancelAt(2); // "applying ... through the journal": past the last safe point
        assertTrue(c.apply(p.plan_id(), null, "test", late).applied());
        assertTrue(late.cancelled());
    }
}
