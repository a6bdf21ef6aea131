package steward.recall;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;

/**
 * The dense path: a call never embeds (it ranks with what is embedded and says how much waits); the background step
 * embeds, stores each vector once (compact, reused by the next process), and dense retrieval then finds paraphrases.
 */
class DenseRetrievalTest {
    @TempDir
    Path tmp;

    static final String PET = "The user adopted a rescue greyhound named Biscuit last spring";
    static final RecallEngine.Options DENSE = RecallEngine.Options.LEXICAL.withDense(true);

    static boolean runtimeLoads(Path dir) {
        try (DenseModel m = new DenseModel(dir, 800, true)) {
            return m.runtimeLoads();
        }
    }

    Path petHome() throws Exception {
        return RecallTestHomes.memoryHome(
                tmp,
                String.join(
                        "\n§\n",
                        PET,
                        "Deployments go out on Tuesdays after the smoke tests pass",
                        "The laptop runs Fedora with a tiling window manager"),
                null);
    }

    @Test
    void aCallNeverEmbedsAndSaysHowMuchWaits() throws Exception {
        assumeTrue(runtimeLoads(tmp.resolve("m")), "embedding runtime not available on this platform");
        Path home = petHome();
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, DENSE)) {
            RecallEngine.Result r =
                    e.search(new RecallEngine.Query("which pet dog do I have", 3, null, null, null, null));
            assertTrue(
                    r.hits().stream().allMatch(h -> h.components().dense() == null), "nothing embedded yet: lexical");
            assertEquals(3, e.densePending());
            assertEquals(DenseModel.State.NOT_LOADED, e.model().state(), "a call does not even load the model");
            assertFalse(
                    Files.exists(home.resolve("steward/recall/vectors/header.json")), "no vector written by a call");
        }
    }

    @Test
    void aCallNeverWaitsForTheBackgroundEmbeddersLock() throws Exception {
        assumeTrue(runtimeLoads(tmp.resolve("m")), "embedding runtime not available on this platform");
        Path home = petHome();
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, DENSE)) {
            e.sync();
            assertEquals(3, e.embedPending(32, Work.NONE));
            // the background embedder holds its lock while it picks texts (for long when another process has embedded
            // most of its queue): a call neither waits for it nor counts the pending texts again
            java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1),
                    release = new java.util.concurrent.CountDownLatch(1);
            Thread holder = new Thread(() -> {
                synchronized (e.embedder()) {
                    held.countDown();
                    try {
                        release.await(120, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            holder.start();
            assertTrue(held.await(30, java.util.concurrent.TimeUnit.SECONDS));
            try {
                java.util.concurrent.CompletableFuture<RecallEngine.Result> call =
                        java.util.concurrent.CompletableFuture.supplyAsync(() ->
                                e.search(new RecallEngine.Query("which pet dog do I have", 3, null, null, null, null)));
                RecallEngine.Result r = call.get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(
                        RecallTestHomes.memUri("memory", PET),
                        r.hits().get(0).item().uri());
                assertNotNull(r.hits().get(0).components().dense());
                assertEquals(
                        0,
                        java.util.concurrent.CompletableFuture.supplyAsync(e::densePending)
                                .get(60, java.util.concurrent.TimeUnit.SECONDS));
            } finally {
                release.countDown();
                holder.join(60_000);
            }
        }
    }

    @Test
    void aOneShotProcessGetsTheLeanModelWhichEmbedsAsTheServersDoes() throws Exception {
        assumeTrue(runtimeLoads(tmp.resolve("m")), "embedding runtime not available on this platform");
        StewardPaths paths = StewardPaths.of(petHome());
        try (RecallRuntime server = new RecallRuntime(RecallSettings.fromEnvironment());
                RecallRuntime call = new RecallRuntime(RecallSettings.fromEnvironment()).oneShot()) {
            DenseModel full = server.model(paths), lean = call.model(paths);
            assertFalse(full.lean());
            assertTrue(lean.lean(), "steward call's runtime makes the lean model");
            // weights not prepacked: the same integer products, so the same vector (a one-shot call ranks as the
            // server does)
            assertArrayEquals(full.embedQuery(PET), lean.embedQuery(PET), 1e-5f);
        }
    }

    @Test
    void aOneShotEngineReadsTheIndexAndVectorsItNeedsAndRanksAsTheServerDoes() throws Exception {
        assumeTrue(runtimeLoads(tmp.resolve("m")), "embedding runtime not available on this platform");
        StewardPaths paths = StewardPaths.of(RecallTestHomes.fixtureCopy(tmp));
        List<String> queries = List.of(
                "session housekeeping rules",
                "which pet dog do I have",
                "how is memory overflow handled",
                "the cron job that failed last night",
                "backup before deleting sessions");
        try (DenseModel full = new DenseModel(tmp.resolve("full"), 800, true);
                DenseModel lean = new DenseModel(tmp.resolve("lean"), 800, true, true);
                RecallEngine server = new RecallEngine(paths, RecallTestHomes.CLOCK, DENSE, full)) {
            server.sync();
            // partly embedded: the one-shot engine also looks up the cosines of candidates outside the nearest rows
            assertTrue(server.embedPending(120, Work.NONE) == 120 && server.densePending() > 0);
            try (RecallEngine call = new RecallEngine(paths, RecallTestHomes.CLOCK, DENSE, lean)) {
                for (String q : queries) {
                    RecallEngine.Query query = new RecallEngine.Query(q, 10, null, null, null, null);
                    RecallEngine.Result want = server.search(query), got = call.search(query);
                    assertFalse(got.hits().isEmpty(), q);
                    assertEquals(want, got, q);
                }
            }
        }
    }

    @Test
    void embeddedOnceStoredCompactlyReusedByTheNextProcessAndParaphrasesAreFound() throws Exception {
        assumeTrue(runtimeLoads(tmp.resolve("m")), "embedding runtime not available on this platform");
        Path home = petHome();
        Path header = home.resolve("steward/recall/vectors/header.json");
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, DENSE)) {
            e.sync();
            assertEquals(3, e.embedPending(32, Work.NONE));
            assertEquals(0, e.densePending());
            RecallEngine.Result r =
                    e.search(new RecallEngine.Query("which pet dog do I have", 3, null, null, null, null));
            assertEquals(
                    RecallTestHomes.memUri("memory", PET),
                    r.hits().get(0).item().uri());
            assertNotNull(r.hits().get(0).components().dense());
            // the model is English: a Chinese query is ranked lexically
            RecallEngine.Result zh = e.search(new RecallEngine.Query("周二部署测试 smoke", 3, null, null, null, null));
            assertTrue(!zh.hits().isEmpty()
                    && zh.hits().stream().allMatch(h -> h.components().dense() == null));
        }
        // 3 rows: 8-byte key + 388-byte int8 row + 48 bytes of sign bits each
        assertEquals(
                3 * (8 + 388 + 48),
                Files.size(home.resolve("steward/recall/vectors/g1.keys"))
                        + Files.size(home.resolve("steward/recall/vectors/g1.i8"))
                        + Files.size(home.resolve("steward/recall/vectors/g1.bits")));
        byte[] before = Files.readAllBytes(header);
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, DENSE)) {
            assertFalse(e.sync().changed(), "nothing re-indexed when nothing changed");
            assertEquals(0, e.densePending());
            assertEquals(0, e.embedPending(32, Work.NONE), "nothing re-embedded");
            RecallEngine.Result r =
                    e.search(new RecallEngine.Query("which pet dog do I have", 3, null, null, null, null));
            assertNotNull(r.hits().get(0).components().dense(), "the next process reuses the stored vectors");
        }
        assertArrayEquals(before, Files.readAllBytes(header));
    }

    /**
     * A query without a letter or a digit (emoji, punctuation) holds nothing the English model reads: its embedding is
     * noise that sat close to texts the model reads as little (cosine 0.80 to unrelated Chinese messages), and
     * recall_search called that a good match. It is ranked lexically, as a query mostly in CJK script is.
     */
    @Test
    void aQueryWithoutALetterOrDigitIsNotRankedByItsEmbedding() throws Exception {
        assumeTrue(runtimeLoads(tmp.resolve("m")), "embedding runtime not available on this platform");
        Path home = RecallTestHomes.memoryHome(
                tmp, String.join("\n§\n", PET, "继续讨论记忆 整理 流程", "请帮我看一下记忆 整理 流程的问题", "记忆 整理 流程: next step?"), null);
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, DENSE)) {
            e.sync();
            assertEquals(4, e.embedPending(32, Work.NONE));
            for (String q : List.of("🎉🔥", "🎉🔥".repeat(50), "。。。。。", "?!", "👍")) {
                RecallEngine.Result r = e.search(new RecallEngine.Query(q, 10, null, null, null, null));
                assertFalse(r.confidence().good(), q + ": " + r.confidence());
                assertTrue(r.hits().stream().allMatch(h -> h.components().dense() == null), q + " ranked by noise");
            }
            RecallEngine.Result pet =
                    e.search(new RecallEngine.Query("which pet dog do I have", 3, null, null, null, null));
            assertNotNull(pet.hits().get(0).components().dense(), "a query of words still uses the model");
        }
    }

    @Test
    void whilePartlyEmbeddedItemsWithoutAVectorAreRankedOnTheirLexicalEvidence() throws Exception {
        assumeTrue(runtimeLoads(tmp.resolve("m")), "embedding runtime not available on this platform");
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, DENSE)) {
            e.sync();
            int all = e.densePending();
            assertTrue(all > 300, "the fixture holds hundreds of texts: " + all);
            int curated = e.counts().get("memory") + e.counts().get("skill");
            assertEquals(curated, e.embedPending(curated, Work.NONE));
            assertEquals(all - curated, e.densePending());
            RecallEngine.Result r =
                    e.search(new RecallEngine.Query("session housekeeping rules", 10, null, null, null, null));
            assertFalse(r.hits().isEmpty());
            // curated memory and skills were embedded first; messages wait, and are not pushed down for lacking a
            // vector
            assertTrue(r.hits().stream()
                    .filter(h -> h.item().source().equals("session"))
                    .allMatch(h -> h.components().dense() == null));
            assertTrue(r.hits().stream()
                    .filter(h -> !h.item().source().equals("session"))
                    .allMatch(h -> h.components().dense() != null));
            assertEquals(
                    "session",
                    r.hits().get(1).item().source(),
                    "a message without a vector still ranks high on its words");
        }
    }

    @Test
    void aModelThatCannotLoadLeavesRetrievalLexicalAndSaysWhy() throws Exception {
        Path home = petHome();
        DenseModel broken = new DenseModel(tmp.resolve("m"), 800, true);
        broken.failForTest("UnsatisfiedLinkError: no onnxruntime in java.library.path");
        try (RecallEngine e = new RecallEngine(StewardPaths.of(home), RecallTestHomes.CLOCK, DENSE, broken)) {
            assertFalse(e.denseEnabled());
            RecallService svc = new RecallService(e);
            RecallService.SearchOutput out =
                    svc.search(new RecallService.SearchRequest("which pet dog", 3, null, null, null, null));
            assertFalse(out.index().dense_enabled());
            assertTrue(
                    out.index()
                            .dense()
                            .startsWith("off: the embedding runtime could not be loaded here (UnsatisfiedLinkError"),
                    out.index().dense());
            assertEquals(0, e.embedPending(32, Work.NONE));
            assertNull(out.match().semantic_floor(), "no semantic floor when dense took no part");
        }
    }

    @Test
    void aClosedModelWaitsForTheTextBeingEmbeddedAndNeverRunsAgain() throws Exception {
        assumeTrue(runtimeLoads(tmp.resolve("m")), "embedding runtime not available on this platform");
        DenseModel m = new DenseModel(tmp.resolve("m"), 800, true);
        assertTrue(m.load());
        AtomicInteger done = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread embedder = new Thread(() -> {
            try {
                while (m.embedAll(List.of(PET, "Deployments go out on Tuesdays", "The laptop runs Fedora")) != null)
                    done.incrementAndGet();
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        embedder.start();
        while (!m.busy()) Thread.onSpinWait(); // a text is in ONNX Runtime now
        assertTrue(m.close(60_000), "close waits for the running text, then releases the session");
        assertFalse(m.busy());
        embedder.join(60_000);
        assertFalse(embedder.isAlive(), "the embedding loop saw the model closed");
        assertNull(failed.get(), "a closed model answers null, it does not throw: " + failed.get());
        assertTrue(m.isClosed());
        assertNull(m.embedQuery("a query never embedded before"), "nothing is embedded after close");
        assertFalse(m.load(), "and no session is made again");
        assertEquals(DenseModel.State.NOT_LOADED, m.state());
    }

    @Test
    void aModelClosedBeforeItLoadedNeverLoads() throws Exception {
        DenseModel m = new DenseModel(tmp.resolve("m"), 800, true);
        assertTrue(m.close(1000), "nothing ran");
        assertFalse(m.load());
        assertNull(m.embedAll(List.of(PET)));
        assertFalse(
                Files.exists(tmp.resolve("m").resolve(DenseModel.RESOURCE)), "the model file was not even extracted");
    }
}
