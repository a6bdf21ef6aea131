package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a result claims: whether anything really matched, near-duplicates folded, one session not filling the top. */
class HonestResultsTest {
    @TempDir
    Path tmp;

    @Test
    void nonsenseGetsNoGoodMatchAndAtMostAFewItemsMarkedWeak() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            RecallEngine.Result r = e.search(RecallEngineTest.q("xyzzy plugh", 10));
            assertFalse(r.confidence().good());
            assertEquals("no good match", r.confidence().verdict());
            assertTrue(r.hits().stream().allMatch(RecallEngine.Hit::weak));
            RecallService.SearchOutput shown = new RecallService(e)
                    .search(new RecallService.SearchRequest("xyzzy plugh", 10, null, null, null, null));
            assertEquals("no good match", shown.match().verdict());
            assertTrue(shown.items().size() <= Ranker.WEAK_MAX, shown.items().toString());
            assertTrue(shown.items().stream().allMatch(RecallService.SearchItem::weak));
            RecallEngine.Result real = e.search(RecallEngineTest.q("session housekeeping rules", 10));
            assertTrue(real.confidence().good());
            assertEquals(10, real.hits().size());
            assertFalse(real.hits().get(0).weak());
        }
    }

    @Test
    void nearDuplicatesCollapseIntoOneItemWithACount() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        String sid = "20260810_071500_a6a3a4";
        for (int i = 0; i < 4; i++) {
            RecallTestHomes.addMessage(
                    home,
                    "20260707_101100_1738f7",
                    "user",
                    "Reminder: renew the Porto apartment lease before June!",
                    1.75e9 + i * 86400);
        }
        RecallTestHomes.addMessage(home, sid, "user", "reminder - renew the porto apartment lease before june", 1.78e9);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            RecallEngine.Result r = e.search(RecallEngineTest.q("Porto apartment lease", 10));
            RecallEngine.Hit first = r.hits().get(0);
            assertEquals(4, first.duplicates(), first.toString());
            assertEquals(3, first.duplicateUris().size(), "at most three listed");
            assertTrue(r.hits().stream()
                    .skip(1)
                    .noneMatch(h -> h.item().text().toLowerCase().contains("porto apartment lease")));
        }
    }

    @Test
    void atMostTwoItemsOfOneSessionInTheTopFiveUnlessNothingElseMatches() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        String busy = "20260810_071500_a6a3a4";
        for (int i = 0; i < 6; i++) {
            RecallTestHomes.addMessage(
                    home,
                    busy,
                    i % 2 == 0 ? "user" : "assistant",
                    "The kiln firing schedule, step " + i + ": ramp to cone " + (i + 4),
                    1.78e9 + i * 60);
        }
        RecallTestHomes.addMessage(
                home, "20260707_101100_1738f7", "user", "Which kiln firing schedule suits stoneware?", 1.75e9);
        RecallTestHomes.addMessage(
                home, "20260702_112900_0becd7", "user", "The club posted its kiln firing schedule", 1.75e9);
        RecallTestHomes.addMessage(
                home, "20260628_120000_b688b6", "user", "Ask Mina about the kiln firing schedule", 1.75e9);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            List<RecallEngine.Hit> hits =
                    e.search(RecallEngineTest.q("kiln firing schedule", 10)).hits();
            Map<String, Integer> top5 = new HashMap<>();
            for (RecallEngine.Hit h : hits.subList(0, 5))
                if (h.item().sessionId() != null) top5.merge(h.item().sessionId(), 1, Integer::sum);
            assertTrue(top5.getOrDefault(busy, 0) <= 2, top5.toString());
            assertTrue(
                    top5.containsKey("20260707_101100_1738f7")
                            && top5.containsKey("20260702_112900_0becd7")
                            && top5.containsKey("20260628_120000_b688b6"),
                    top5.toString());
            assertTrue(
                    hits.stream().filter(h -> busy.equals(h.item().sessionId())).count() >= 6,
                    "the rest follow after the top five");

            // words only that session holds: nothing else matches (other items clear no floor), so it fills the top
            List<RecallEngine.Hit> only =
                    e.search(RecallEngineTest.q("ramp to cone", 10)).hits();
            assertTrue(
                    only.subList(0, 5).stream()
                            .allMatch(h -> busy.equals(h.item().sessionId())),
                    only.toString());
        }
    }
}
