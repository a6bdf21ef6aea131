package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecallIndexTest {
    @Test
    void speakerIsTheNameAChatLineStartsWith() {
        assertEquals("melanie", RecallIndex.speaker("Melanie: I ran a charity race last Saturday."));
        assertEquals("mary ann lee", RecallIndex.speaker("Mary Ann Lee: see you"));
        assertEquals("josé", RecallIndex.speaker("José: hola"));
    }

    @Test
    void noSpeakerWithoutANameColonPrefix() {
        assertNull(RecallIndex.speaker("note: lower-case words are not names"));
        assertNull(RecallIndex.speaker("The plan for today: finish the report and ship it"));
        assertNull(RecallIndex.speaker("12:30 lunch"));
        assertNull(RecallIndex.speaker(null));
    }

    @Test
    void onlySpeakersThatStartAShareOfTheMessagesCount() {
        // "Remember: …" parses like a name but starts one message of 200: not a participant
        assertEquals("remember", RecallIndex.speaker("Remember: the deploy key lives in the vault."));
        assertEquals(
                Set.of("alice", "bob"),
                RecallIndex.recurringSpeakers(Map.of("alice", 90, "bob", 100, "remember", 1, "plan", 3), 200));
        assertEquals(Set.of("alice"), RecallIndex.recurringSpeakers(Map.of("alice", 3, "bob", 2), 10));
    }

    @Test
    void aMessageAsksWhenItsLastSentenceIsAQuestion() {
        assertTrue(RecallIndex.asks("Caroline: Wow, that's awesome! What's your best camping memory?"));
        assertTrue(RecallIndex.asks("Melanie: Isn't it pretty? [shared a photo: a sunset over a lake]"));
        assertTrue(RecallIndex.asks("你还记得上次的决定吗？"));
    }

    @Test
    void aStatementDoesNotAsk() {
        assertFalse(RecallIndex.asks("Melanie: Did you know? I signed up for a pottery class yesterday."));
        assertFalse(RecallIndex.asks("We decided to ship on Friday."));
        assertFalse(RecallIndex.asks(""));
    }

    @TempDir
    Path dir;

    @Test
    void documentsByTextHashAreWhatThePointQueryFindsAcrossSegmentsAndDeletions() throws Exception {
        try (RecallIndex index = new RecallIndex(dir.resolve("index"))) {
            String[] texts = {"alpha", "beta", "gamma", "delta", "alpha", "beta"
            }; // repeated texts: one hash, many docs
            for (int commit = 0; commit < 4; commit++) { // a segment per commit
                RecallIndex.Writer w = index.writer(commit == 0);
                for (int g = 0; g < 3; g++) {
                    List<RecallItem> items = new ArrayList<>();
                    for (int i = 0; i < texts.length; i++) {
                        String uri = "steward://session/s" + commit + g + "/message/" + i;
                        items.add(new RecallItem(
                                uri,
                                RecallItem.SESSION,
                                "k" + commit + g,
                                "t",
                                texts[(i + g) % texts.length],
                                null,
                                1000 + i,
                                "s" + commit + g,
                                false));
                    }
                    w.replaceGroup("k" + commit + g, items);
                }
                if (commit == 2) w.deleteGroup("k01"); // deleted documents in an older segment
                if (commit == 3) w.deleteGroup("k31"); // and in the newest
                w.commit(Map.of());
            }
            IndexSearcher s = index.acquire();
            try {
                long[] keys = {Identity.textHash("alpha"), Identity.textHash("delta"), Identity.textHash("nowhere")};
                RecallIndex.HashHits got = index.byTables(s.getIndexReader(), keys);
                RecallIndex.HashHits points = RecallIndex.byPoints(s, keys);
                assertEquals(Arrays.toString(got.docs()), Arrays.toString(points.docs()));
                assertEquals(Arrays.toString(got.hashes()), Arrays.toString(points.hashes()));
                // the first lookup (points), then the tables: the same
                assertEquals(
                        Arrays.toString(got.docs()),
                        Arrays.toString(index.withTextHashes(s, keys).docs()));
                assertEquals(
                        Arrays.toString(got.docs()),
                        Arrays.toString(index.withTextHashes(s, keys).docs()));
                ScoreDoc[] want = s.search(LongPoint.newSetQuery(RecallIndex.F_THASH, keys), 1000).scoreDocs;
                int[] wantDocs =
                        Arrays.stream(want).mapToInt(d -> d.doc).sorted().toArray();
                assertTrue(wantDocs.length > 10, "the fixture holds the texts many times");
                assertEquals(Arrays.toString(wantDocs), Arrays.toString(got.docs()));
                Map<Integer, RecallIndex.Meta> meta =
                        RecallIndex.meta(s.getIndexReader(), RecallIndex.asList(got.docs()));
                for (int i = 0; i < got.docs().length; i++)
                    assertEquals(meta.get(got.docs()[i]).textHash(), got.hashes()[i]);
                // asked again (the per-segment tables are cached now): the same
                assertEquals(
                        Arrays.toString(wantDocs),
                        Arrays.toString(index.byTables(s.getIndexReader(), keys).docs()));
                assertEquals(
                        0,
                        index.byTables(s.getIndexReader(), new long[] {Identity.textHash("nowhere")})
                                .docs()
                                .length);
            } finally {
                index.release(s);
            }
        }
    }
}
