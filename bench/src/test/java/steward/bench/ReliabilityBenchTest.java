package steward.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Short runs of the issue-12 benches, so they keep working between the long runs: a few seconds of Steward's
 * audit/apply/restore loop against the live Hermes writer plus a small 4 + 4 memory-writer run (skipped with the reason
 * when python3 or PyYAML is missing), and the threat corpus against its targets. Exit code 0 means every check of the
 * bench held (no lost message, no surfaced lock error, consistent index, every memory entry exactly once).
 */
class ReliabilityBenchTest {
    @TempDir
    Path tmp;

    @Test
    void aShortConcurrencyRunAgainstTheLiveHermesLosesNothing() throws Exception {
        LiveHermes h = LiveHermes.locate(null);
        Assumptions.assumeTrue(h.problem() == null, () -> h.problem() + ": test skipped");
        ConcurrencyBench b = new ConcurrencyBench();
        b.runs = 1;
        b.seconds = 4;
        b.memoryEntries = 40;
        b.dir = tmp;
        assertEquals(0, b.call());
    }

    @Test
    void threatCorpusMeetsItsTargets() throws Exception {
        ThreatsBench b = new ThreatsBench();
        b.benign = 600;
        assertEquals(0, b.call());
    }
}
