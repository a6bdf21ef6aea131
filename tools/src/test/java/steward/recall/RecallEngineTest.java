package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.TestHomes;

class RecallEngineTest {
    @TempDir
    Path tmp;

    public static RecallEngine.Query q(String text, int k) {
        return new RecallEngine.Query(text, k, null, null, null, null);
    }

    static List<String> uris(RecallEngine.Result r) {
        return r.hits().stream().map(h -> h.item().uri()).toList();
    }

    @Test
    void buildsTheFixtureIndexInTheStateDirAndCountsEverySource() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            SyncReport rep = e.sync();
            assertTrue(rep.built());
            assertTrue(Files.isDirectory(home.resolve("steward/recall/index")));
            assertTrue(e.built());
            Map<String, Integer> items = e.counts();
            assertEquals(2, items.get("skill"));
            assertTrue(items.get("memory") >= 7, items.toString());
            assertTrue(items.get("session") > 100, items.toString());
            assertFalse(e.sync().built(), "second sync changes nothing");
            assertFalse(e.sync().changed());
        }
    }

    @Test
    void newMessageIsFoundWithoutARebuild() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            e.sync();
            assertTrue(e.search(q("zebrafish aquarium heater", 5)).hits().isEmpty());
            long id = RecallTestHomes.addMessage(
                    home, "20260810_071500_a6a3a4", "user", "My zebrafish aquarium heater broke", 1.78e9);
            RecallEngine.Result r = e.search(q("zebrafish aquarium heater", 5));
            assertEquals(
                    "steward://session/20260810_071500_a6a3a4/message/" + id,
                    r.hits().get(0).item().uri());
        }
    }

    /**
     * A state.db replaced by another file (a restore moved into place) is read anew, and a state.db removed takes its
     * sessions out of the index: the engine kept reading the file it had first opened, so a server served the old
     * sessions and never saw the new file's messages until it restarted.
     */
    @Test
    void aReplacedOrRemovedStateDbIsReadAnewByTheSameEngine() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        Path other = Files.createDirectories(tmp.resolve("restored"));
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            e.sync();
            assertTrue(e.search(q("zebrafish aquarium heater", 5)).hits().isEmpty());
            Files.copy(TestHomes.fixtureHome().resolve("state.db"), other.resolve("state.db"));
            long id = RecallTestHomes.addMessage(
                    other, "20260810_071500_a6a3a4", "user", "My zebrafish aquarium heater broke", 1.78e9);
            Files.move(other.resolve("state.db"), home.resolve("state.db"), StandardCopyOption.REPLACE_EXISTING);
            for (String side : List.of("state.db-wal", "state.db-shm")) Files.deleteIfExists(home.resolve(side));
            RecallEngine.Result r = e.search(q("zebrafish aquarium heater", 5));
            assertFalse(r.hits().isEmpty(), "the replacing file's new message is indexed");
            assertEquals(
                    "steward://session/20260810_071500_a6a3a4/message/" + id,
                    r.hits().get(0).item().uri());
            Files.delete(home.resolve("state.db"));
            for (String side : List.of("state.db-wal", "state.db-shm")) Files.deleteIfExists(home.resolve(side));
            e.sync();
            assertEquals(0, e.counts().getOrDefault("session", 0), e.counts().toString());
        }
    }

    @Test
    void messagesOfTheSpeakerTheQueryNamesRankAboveTheOtherSpeakersAndQuestionsBelowStatements() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        String sid = "20260810_071500_a6a3a4";
        // a chat between two people: speakers are recognised once they recur
        for (int i = 0; i < 20; i++) {
            RecallTestHomes.addMessage(
                    home, "20260707_101100_1738f7", "user", "Alice: small talk number " + i, 1.7e9 + i);
            RecallTestHomes.addMessage(
                    home, "20260707_101100_1738f7", "assistant", "Bob: more small talk " + i, 1.7e9 + i + 1);
        }
        long alice = RecallTestHomes.addMessage(
                home, sid, "user", "Alice: the zebrafish aquarium heater broke again", 1.78e9);
        long bob = RecallTestHomes.addMessage(
                home, sid, "assistant", "Bob: the zebrafish aquarium heater broke again", 1.78e9 + 30);
        long asks = RecallTestHomes.addMessage(
                home, sid, "user", "Bob: did the zebrafish aquarium heater break again?", 1.78e9 + 60);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            List<RecallEngine.Hit> hits = e.search(q("Which zebrafish aquarium heater did Bob say broke?", 5))
                    .hits();
            String base = "steward://session/" + sid + "/message/";
            assertEquals(base + bob, hits.get(0).item().uri());
            RecallEngine.Hit byAlice = hits.stream()
                    .filter(h -> h.item().uri().equals(base + alice))
                    .findFirst()
                    .orElseThrow();
            RecallEngine.Hit question = hits.stream()
                    .filter(h -> h.item().uri().equals(base + asks))
                    .findFirst()
                    .orElseThrow();
            assertTrue(hits.get(0).components().match() > byAlice.components().match(), "speaker named in the query");
            assertTrue(
                    hits.get(0).components().match() > question.components().match(),
                    "a question records less than a statement");
        }
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            // two people named: the first is the subject; the other one's messages get no speaker factor
            String base = "steward://session/" + sid + "/message/";
            for (String[] c : new String[][] {
                {"What did Bob tell Alice about the zebrafish aquarium heater?", base + bob, base + alice},
                {"What did Alice tell Bob about the zebrafish aquarium heater?", base + alice, base + bob}
            }) {
                List<RecallEngine.Hit> hits = e.search(q(c[0], 5)).hits();
                assertEquals(c[1], hits.get(0).item().uri(), c[0]);
                RecallEngine.Hit other = hits.stream()
                        .filter(h -> h.item().uri().equals(c[2]))
                        .findFirst()
                        .orElseThrow();
                assertTrue(
                        hits.get(0).components().match() > other.components().match(),
                        c[0] + " " + hits.get(0).components() + " vs " + other.components());
            }
        }
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            // no speaker named: both statements get the same match factor
            List<RecallEngine.Hit> hits =
                    e.search(q("zebrafish aquarium heater broke", 5)).hits();
            assertEquals(
                    hits.get(0).components().match(), hits.get(1).components().match(), 1e-9);
        }
    }

    @Test
    void anItemThatSaysItRanksAboveOneWhoseNeighboursSayItAndATermInBothCountsOnce() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        String a = "20260707_101100_1738f7", b = "20260702_112900_0becd7";
        // (two texts of the same length that differ in one word: equal texts would be folded together as
        // near-duplicates)
        long alone = RecallTestHomes.addMessage(home, a, "user", "zebrafish tank cleaned monday", 1.78e9);
        RecallTestHomes.addMessage(home, a, "user", "weekend plans only", 1.78e9 + 10);
        RecallTestHomes.addMessage(home, b, "user", "zebrafish food ordered", 1.78e9);
        long withNeighbour = RecallTestHomes.addMessage(home, b, "user", "zebrafish tank cleaned friday", 1.78e9 + 10);
        long neighbourOnly = RecallTestHomes.addMessage(home, b, "user", "weekend plans only", 1.78e9 + 20);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            List<RecallEngine.Hit> hits = e.search(q("zebrafish tank", 20)).hits();
            Function<Long, RecallEngine.Hit> hit = id -> hits.stream()
                    .filter(h -> h.item().uri().endsWith("/message/" + id))
                    .findFirst()
                    .orElseThrow();
            double own = hit.apply(alone).components().bm25(),
                    both = hit.apply(withNeighbour).components().bm25();
            assertTrue(
                    hit.apply(neighbourOnly).rank() > hit.apply(alone).rank(),
                    "said by the item beats said next to it");
            assertTrue(both >= own, "a neighbour saying it too adds evidence");
            // the item and its neighbours are one BM25F field, so the term saturates once: ×1.17 here, where scoring
            // the
            // two as separate BM25 fields and adding them gives ×1.32
            assertTrue(both < 1.25 * own, "the term saturates once (" + both + " vs " + own + ")");
        }
    }

    @Test
    void decodedTermsFollowTheIndexWhenItChanges() throws Exception {
        // the re-ranker keeps decoded terms per document; document numbers change when segments merge
        Path home = RecallTestHomes.memoryHome(tmp, "zebrafish heater broke", "prefers tea");
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            for (int round = 0; round < 30; round++) {
                int at = round % 3;
                String[] entries = {
                    "heater manual in the drawer " + round,
                    "heater manual in the attic " + round,
                    "heater manual lent out " + round
                };
                entries[at] = "zebrafish heater broke";
                Files.writeString(home.resolve("memories/MEMORY.md"), String.join("\n§\n", entries));
                Files.writeString(home.resolve("memories/USER.md"), "prefers tea, round " + round);
                List<RecallEngine.Hit> hits = e.search(q("zebrafish heater", 3)).hits();
                assertEquals(
                        RecallTestHomes.memUri("memory", "zebrafish heater broke"),
                        hits.get(0).item().uri(),
                        "round " + round);
                assertEquals(1.0, hits.get(0).components().coverage(), 1e-9, "round " + round);
                for (RecallEngine.Hit h : hits.subList(1, hits.size()))
                    assertTrue(h.components().coverage() < 1.0, "round " + round);
            }
        }
    }

    @Test
    void anOpenCompoundInTheQueryFindsTheClosedFormInTheHistory() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        String sid = "20260810_071500_a6a3a4";
        long gym = RecallTestHomes.addMessage(
                home, sid, "user", "Our family workout routine is three mornings a week", 1.78e9);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            List<String> found = uris(e.search(q("How often does the family work out?", 5)));
            assertEquals("steward://session/" + sid + "/message/" + gym, found.get(0));
            assertEquals(List.of("workout"), e.compounds("How often does the family work out?"));
            assertEquals(List.of(), e.compounds("the zebra fish"), "a compound the index does not hold is not added");
        }
    }

    @Test
    void aDayNamedInTheQueryBringsThatDaysItemsIntoTheCandidatesAndFirst() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        String sid = "20260810_071500_a6a3a4";
        double day = LocalDate.parse("2026-03-14").atStartOfDay(ZoneOffset.UTC).toEpochSecond() + 15 * 3600;
        // sixty other mentions outscore the dated one lexically (shorter texts) and fill the BM25 candidate pool
        for (int i = 0; i < 60; i++)
            RecallTestHomes.addMessage(home, sid, "user", "heater note " + i, 1.7e9 + i * 86400);
        long dated = RecallTestHomes.addMessage(
                home,
                sid,
                "user",
                "a long story about the weekend, the market, the weather, the cousins, and the heater as well",
                day);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            String want = "steward://session/" + sid + "/message/" + dated;
            assertFalse(uris(e.search(q("heater", 10))).contains(want), "undated query: outscored");
            RecallEngine.Hit first = e.search(q("What about the heater on 14 March, 2026?", 10))
                    .hits()
                    .get(0);
            assertEquals(want, first.item().uri());
            assertEquals(TimeMention.DAY_BOOST, first.components().time(), 0.0);
        }
    }

    @Test
    void editedMemoryEntryReplacesTheOldTextAndDeletedSkillDisappears() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            String junction = RecallTestHomes.fixtureMem(home, "junction");
            assertTrue(uris(e.search(q("junction AppData", 5))).contains(junction));
            Path mem = home.resolve("memories/MEMORY.md");
            Files.writeString(
                    mem,
                    Files.readString(mem)
                            .replace(
                                    "is a junction to C:/Users/u/AppData/Local/hermes: one directory, not two",
                                    "now lives on the NAS share, mounted read-write"));
            assertFalse(uris(e.search(q("junction AppData", 5))).contains(junction));
            RecallEngine.Result r = e.search(q("NAS share mounted", 5));
            assertEquals(
                    RecallTestHomes.fixtureMem(home, "NAS share"),
                    r.hits().get(0).item().uri(),
                    "an edited fact is a new item");
            assertNull(e.resolve(junction), "the old fact is gone");
            assertEquals(
                    r.hits().get(0).item().uri(),
                    e.resolve("steward://memory/memory/3").uri(),
                    "the old positional URI resolves to the entry now there");

            assertTrue(uris(e.search(q("heuristic digestion journal", 5)))
                    .contains("steward://skill/scope-recall-maintenance"));
            Path skill = home.resolve("skills/ops/scope-recall-maintenance/SKILL.md");
            Files.delete(skill);
            Files.delete(skill.getParent());
            assertFalse(uris(e.search(q("heuristic digestion journal", 10)))
                    .contains("steward://skill/scope-recall-maintenance"));
            assertNull(e.resolve("steward://skill/scope-recall-maintenance"));
        }
    }

    @Test
    void chineseAndEnglishQueriesFindTheirItems() throws Exception {
        Path home = RecallTestHomes.memoryHome(
                tmp,
                "部署流程：先在预发环境验证，再灰度发布\n§\nThe backup job runs nightly at 02:00 and keeps seven snapshots",
                "用户偏好：中文回答，代码注释用英文");
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            assertEquals(
                    RecallTestHomes.memUri("user", "用户偏好：中文回答，代码注释用英文"),
                    e.search(q("用中文回答吗", 3)).hits().get(0).item().uri());
            assertEquals(
                    RecallTestHomes.memUri("memory", "部署流程：先在预发环境验证，再灰度发布"),
                    e.search(q("灰度发布怎么做", 3)).hits().get(0).item().uri());
            // stemming: "backups" / "snapshot" match "backup" / "snapshots"
            assertEquals(
                    RecallTestHomes.memUri("memory", "The backup job runs nightly at 02:00 and keeps seven snapshots"),
                    e.search(q("how many snapshot backups are kept", 3))
                            .hits()
                            .get(0)
                            .item()
                            .uri());
        }
    }

    @Test
    void everyResultUriResolvesBackToItsItem() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        Files.createDirectories(home.resolve("memories/logs"));
        Files.writeString(home.resolve("memories/logs/2026-08-12.md"), "Moved the session housekeeping cron to 03:00");
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            RecallEngine.Result r = e.search(q("session housekeeping", 30));
            Set<String> sources = new HashSet<>();
            for (RecallEngine.Hit h : r.hits()) {
                RecallItem back = e.resolve(h.item().uri());
                assertNotNull(back, h.item().uri());
                assertEquals(h.item().text(), back.text());
                sources.add(back.source());
            }
            assertTrue(sources.containsAll(Set.of("session", "skill", "log")), sources.toString());
        }
    }

    @Test
    void emptyHomeGivesNoItemsAndWritesNothing() throws Exception {
        Path home = tmp.resolve("empty");
        Files.createDirectories(home);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            assertTrue(e.search(q("anything at all", 10)).hits().isEmpty());
            assertFalse(Files.exists(home.resolve("steward")));
        }
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            assertFalse(e.built());
        }
    }

    @Test
    void filtersScopesTimeAndExcludedSession() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            RecallEngine.Result skills =
                    e.search(new RecallEngine.Query("session housekeeping", 10, Set.of("skill"), null, null, null));
            assertFalse(skills.hits().isEmpty());
            assertTrue(skills.hits().stream().allMatch(h -> h.item().source().equals("skill")));
            RecallEngine.Result ex = e.search(new RecallEngine.Query(
                    "session housekeeping", 50, Set.of("session"), null, null, "20260810_071500_a6a3a4"));
            assertTrue(ex.hits().stream()
                    .noneMatch(h -> "20260810_071500_a6a3a4".equals(h.item().sessionId())));
            RecallEngine.Result none =
                    e.search(new RecallEngine.Query("session housekeeping", 10, Set.of("session"), 0.0, 1.0, null));
            assertTrue(none.hits().isEmpty());
            RecallEngine.Hit h = e.search(q("session housekeeping", 1)).hits().get(0);
            RecallEngine.Components c = h.components();
            assertEquals(c.fused() * c.recency() * c.importance() * c.time(), c.score(), 1e-3);
        }
    }
}
