package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;

/**
 * A query that gives the dense model nothing to place (punctuation, emoji, one letter or digit, stop words alone) is
 * never embedded: it is ranked lexically, or answered "no good match", and never throws. Dense retrieval stays optional:
 * everything but the last test runs without the embedding runtime.
 */
class DegenerateQueryTest {
    @TempDir
    Path tmp;

    static final String PET = "The user adopted a rescue greyhound named Biscuit last spring";
    static final String MEMORY = String.join(
            "\n§\n",
            PET,
            "Deployments go out on Tuesdays after the smoke tests pass",
            "The laptop runs Fedora with a tiling window manager",
            "Option x is set in the build file; the answer is 7");

    /** Queries without a term the dense model can place. */
    static final List<String> DEGENERATE = List.of(
            "???",
            "…",
            "a",
            "A",
            "x",
            "7",
            "é",
            "a?",
            " a ",
            "the",
            "what is it?",
            "to be or not to be",
            "🙂",
            "🙂 a",
            "-",
            "'",
            "_",
            "__",
            "\u0301",
            "a\u0301",
            "...a...");

    @Test
    void aQueryWithoutUsableTermsIsNeverForTheDenseModel() {
        for (String q : DEGENERATE) assertFalse(QueryAnalyser.denseUsable(q), q);
        for (String q : List.of("which pet dog do I have", "ok", "Fedora", "x11 config", "42 is the answer"))
            assertTrue(QueryAnalyser.denseUsable(q), q);
        assertFalse(QueryAnalyser.denseUsable("还记得我喜欢用中文回答吗"), "mostly CJK: lexical, as before");
    }

    @Test
    void degenerateQueriesRankLexicallyOrSayNoGoodMatchAndNeverThrow() throws Exception {
        RecallService s = new RecallService(RecallTestHomes.engine(RecallTestHomes.memoryHome(tmp, MEMORY, null)));
        for (String q : DEGENERATE) {
            RecallEngine.Result r = s.engine().search(new RecallEngine.Query(q, 10, null, null, null, null));
            assertNull(r.confidence().bestCosine(), q);
            assertTrue(r.hits().stream().allMatch(h -> h.components().dense() == null), q);
            if (!r.hits().isEmpty()) assertTrue(r.hits().get(0).components().bm25() > 0, q + ": lexical evidence");
            RecallService.SearchOutput out = s.search(new RecallService.SearchRequest(q, 5, null, null, null, null));
            assertFalse(out.index().dense_enabled(), q);
            if (!out.match().verdict().equals("good match"))
                assertTrue(out.items().size() <= RecallEngine.WEAK_MAX, q + ": " + out.items());
            InjectEngine.Result inj = s.inject(new InjectEngine.Request(q, null, "s-" + q.hashCode(), null, "active"));
            assertEquals("skip", inj.decision(), q + ": " + inj.reason());
        }
        // a one-letter term the memory holds still ranks lexically
        RecallEngine.Result x = s.engine().search(new RecallEngine.Query("x", 3, null, null, null, null));
        assertFalse(x.hits().isEmpty(), "x is a term of the last entry");
        s.engine().close();
    }

    /** With dense retrieval on and every text embedded, a degenerate query does not even load the model. */
    @Test
    void aDegenerateQueryNeverCallsTheEmbedder() throws Exception {
        assumeTrue(DenseRetrievalTest.runtimeLoads(tmp.resolve("m")), "embedding runtime not available here");
        StewardPaths paths = StewardPaths.of(RecallTestHomes.memoryHome(tmp, MEMORY, null));
        RecallEngine.Options dense = DenseRetrievalTest.DENSE;
        try (RecallEngine first = new RecallEngine(paths, RecallTestHomes.CLOCK, dense)) {
            first.sync();
            assertEquals(4, first.embedPending(32, Work.NONE));
        }
        try (RecallEngine e = new RecallEngine(paths, RecallTestHomes.CLOCK, dense)) {
            for (String q : DEGENERATE) {
                RecallEngine.Result r = e.search(new RecallEngine.Query(q, 10, null, null, null, null));
                assertNull(r.confidence().bestCosine(), q + ": " + r.confidence());
                assertTrue(r.hits().stream().allMatch(h -> h.components().dense() == null), q + " ranked by noise");
                assertEquals(DenseModel.State.NOT_LOADED, e.model().state(), q + ": the model was asked");
            }
            RecallEngine.Result pet =
                    e.search(new RecallEngine.Query("which pet dog do I have", 3, null, null, null, null));
            assertNotNull(pet.hits().get(0).components().dense(), "a query of words still uses the model");
            assertEquals(DenseModel.State.LOADED, e.model().state());
        }
    }
}
