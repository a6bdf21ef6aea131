package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.config.StewardPaths;

/** The optional dense path: the bundled model loads in process, vectors are stored once and reused, dense finds paraphrases. */
class DenseRetrievalTest {
    @TempDir
    Path tmp;

    @Test
    void vectorsAreComputedOnceAndStoredAndParaphrasesAreFound() throws Exception {
        assumeTrue(DenseEncoder.get() != null, "embedding runtime not available on this platform: " + DenseEncoder.failure());
        Path home = RecallTestHomes.memoryHome(tmp, String.join("\n§\n",
                "The user adopted a rescue greyhound named Biscuit last spring",
                "Deployments go out on Tuesdays after the smoke tests pass",
                "The laptop runs Fedora with a tiling window manager"), null);
        RecallEngine.Options dense = RecallEngine.Options.LEXICAL.withDense(true);
        Path vectors = home.resolve("steward/recall/vectors.bin");
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, dense)) {
            RecallEngine.Result r = e.search(new RecallEngine.Query("which pet dog do I have", 3, null, null, null, null));
            assertEquals("steward://memory/memory/1", r.hits().get(0).item().uri());
            assertNotNull(r.hits().get(0).components().dense());
            // the model is English: a Chinese query is ranked lexically
            RecallEngine.Result zh = e.search(new RecallEngine.Query("周二部署测试 smoke", 3, null, null, null, null));
            assertTrue(!zh.hits().isEmpty() && zh.hits().stream().allMatch(h -> h.components().dense() == null));
            assertTrue(RecallEngine.mostlyCjk("我们上次决定的备份方案 restic") && !RecallEngine.mostlyCjk("restic 备份 schedule for the NAS"));
        }
        assertTrue(Files.isRegularFile(vectors));
        long stamp = Files.getLastModifiedTime(vectors).toMillis();
        byte[] before = Files.readAllBytes(vectors);
        Thread.sleep(20);
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, dense)) {
            assertEquals(0, e.sync().changedGroups(), "nothing recomputed when nothing changed");
        }
        assertEquals(stamp, Files.getLastModifiedTime(vectors).toMillis());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(vectors)));
    }

    @Test
    void aLargeHistoryIsEmbeddedOverSeveralCallsAndRankingStaysLexicalUntilEveryItemHasItsVector() throws Exception {
        assumeTrue(DenseEncoder.get() != null, "embedding runtime not available on this platform: " + DenseEncoder.failure());
        Path home = RecallTestHomes.fixtureCopy(tmp);
        RecallEngine.Options dense = RecallEngine.Options.LEXICAL.withDense(true);
        RecallEngine.Query q = new RecallEngine.Query("restic backup schedule", 5, null, null, null, null);
        int first;
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, dense).denseBudget(300)) {
            e.sync();
            first = e.densePending();
            assertTrue(first > 0, "the fixture holds more than 300 items");
            RecallEngine.Result r = e.search(q);
            assertTrue(r.hits().stream().allMatch(h -> h.components().dense() == null), "lexical while vectors are missing");
        }
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, dense).denseBudget(300)) {
            e.sync();
            assertTrue(e.densePending() < first, "a new process goes on where the last one stopped: " + e.densePending());
            for (int i = 0; i < 10 && e.densePending() > 0; i++) e.sync();
            assertEquals(0, e.densePending());
            RecallEngine.Result r = e.search(q);
            assertNotNull(r.hits().get(0).components().dense(), "dense once every item has its vector");
        }
    }
}
