package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.Work;
import steward.sessions.store.SessionStore;

/** Keeping the index in step: cheap when nothing changed, incremental when messages arrive, whole or not at all. */
class IndexerTest {
    @TempDir
    Path tmp;

    static final String SID = "20260810_071500_a6a3a4";

    static List<String> uris(RecallEngine.Result r) {
        return r.hits().stream().map(h -> h.item().uri()).toList();
    }

    @Test
    void withNothingChangedNoSourceIsRead() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            e.sync();
        }
        // a new process: the tokens (file stats) match the commit, so state.db is not even opened
        Path db = home.resolve("state.db");
        Files.setPosixFilePermissions(db, Set.of());
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            SyncReport r = e.sync();
            assertFalse(r.changed());
            assertEquals(java.util.Map.of(), r.errors(), "state.db was never opened");
            assertFalse(e.search(RecallEngineTest.q("session housekeeping", 5)).hits().isEmpty());
        } finally {
            Files.setPosixFilePermissions(db, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    @Test
    void appendedMessagesAreWrittenWithoutRewritingTheirSessionAndTheTurnsBeforeThemGetThemAsContext() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            e.sync();
            int inSession;
            try (SessionStore s = SessionStore.openReadOnly(home.resolve("state.db"))) {
                inSession = s.sessionsById(List.of(SID)).get(SID).messageCount();
            }
            assertTrue(inSession > 10, "a long session: " + inSession);
            long before = RecallTestHomes.addMessage(home, SID, "user", "What about the zebrafish?", 1.79e9);
            long added = RecallTestHomes.addMessage(home, SID, "assistant", "The zebrafish aquarium heater is set to 26 degrees", 1.79e9 + 30);
            SyncReport r = e.sync();
            assertTrue(r.written() <= 2 + HermesSessions.CONTEXT_WINDOW, "only the new turns and the ones before them: " + r.written());
            String base = "steward://session/" + SID + "/message/";
            RecallEngine.Result found = e.search(RecallEngineTest.q("zebrafish aquarium heater degrees", 5));
            assertEquals(base + added, found.hits().get(0).item().uri());
            // the turn before now holds the new one as context: a word only the new turn says counts for it (half)
            RecallEngine.Hit asked = e.search(RecallEngineTest.q("zebrafish heater degrees", 10)).hits().stream()
                    .filter(h -> h.item().uri().equals(base + before)).findFirst().orElseThrow();
            assertTrue(asked.components().coverage() > 0.5, asked.components().toString());
        }
    }

    @Test
    void deletedSessionsAndRewoundMessagesDisappear() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        long m;
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            m = RecallTestHomes.addMessage(home, SID, "user", "The quokka sticker goes on the laptop lid", 1.79e9);
            assertEquals("steward://session/" + SID + "/message/" + m, uris(e.search(RecallEngineTest.q("quokka sticker", 3))).get(0));
            try (SessionStore s = SessionStore.openReadWrite(home.resolve("state.db"))) {
                s.write(c -> c.createStatement().executeUpdate("UPDATE messages SET active = 0 WHERE id = " + m));
            }
            assertTrue(uris(e.search(RecallEngineTest.q("quokka sticker", 3))).isEmpty(), "the user took it back (Hermes' rewind)");
            String other = "20260707_101100_1738f7";
            long o = RecallTestHomes.addMessage(home, other, "user", "Armadillo facts for the quiz", 1.79e9);
            assertEquals("steward://session/" + other + "/message/" + o, uris(e.search(RecallEngineTest.q("armadillo quiz", 3))).get(0));
            try (SessionStore s = SessionStore.openReadWrite(home.resolve("state.db"))) {
                s.write(c -> c.createStatement().executeUpdate("DELETE FROM messages WHERE session_id = '" + other + "'"));
            }
            assertTrue(uris(e.search(RecallEngineTest.q("armadillo quiz", 3))).isEmpty());
        }
    }

    @Test
    void memoryScopeWorksWhenStateDbIsUnreadableAndTheOtherSourcesAreStillSynced() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        Files.write(home.resolve("state.db"), "this is not a database".getBytes());
        Files.deleteIfExists(home.resolve("state.db-wal"));
        Files.deleteIfExists(home.resolve("state.db-shm"));
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        RecallService.SearchOutput out = s.search(new RecallService.SearchRequest("中文回答", 3, List.of("memory"), null, null, null));
        assertEquals(RecallTestHomes.fixtureMem(home, "中文回答"), out.items().get(0).uri());
        assertTrue(out.index().warnings().get(0).startsWith("hermes-sessions not searched: "), out.index().warnings().toString());
        RecallService.SearchOutput all = s.search(new RecallService.SearchRequest("housekeeping", 5, null, null, null, null));
        assertTrue(all.items().stream().allMatch(i -> !i.source().equals("session")));
        assertFalse(all.items().isEmpty(), "skills still found");
    }

    @Test
    void aCancelledFirstBuildLeavesNothingBehind() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        Work cancelAtFirstProgress = new Work() {
            volatile boolean cancelled;

            @Override
            public void progress(double done, double total, String message) {
                cancelled = true;
            }

            @Override
            public boolean cancelled() {
                return cancelled;
            }
        };
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            assertThrows(Work.Cancelled.class, () -> e.sync(cancelAtFirstProgress));
            assertFalse(e.built(), "no commit");
            assertTrue(e.sync().built(), "the next sync builds from scratch");
        }
    }

    @Test
    void aCallArrivingDuringTheFirstBuildIsSentItsProgressAndMayStopWaiting() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            CountDownLatch building = new CountDownLatch(1), release = new CountDownLatch(1);
            Work slowBuild = new Work() {
                @Override
                public void progress(double done, double total, String message) {
                    building.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }

                @Override
                public boolean cancelled() {
                    return false;
                }
            };
            Thread bg = new Thread(() -> e.sync(slowBuild));
            bg.start();
            building.await();
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean gaveUp = new AtomicBoolean();
            Work caller = new Work() {
                @Override
                public void progress(double done, double total, String message) {
                    seen.add(message);
                    gaveUp.set(true); // the user cancels once progress shows
                }

                @Override
                public boolean cancelled() {
                    return gaveUp.get();
                }
            };
            assertThrows(Work.Cancelled.class, () -> e.search(RecallEngineTest.q("housekeeping", 3), caller));
            assertTrue(seen.get(0).startsWith("waiting for the index build: indexing sessions"), seen.toString());
            release.countDown();
            bg.join();
            assertTrue(e.built());
            assertFalse(e.search(RecallEngineTest.q("housekeeping", 3)).hits().isEmpty());
        }
    }
}
