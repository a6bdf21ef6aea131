package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CJK text is indexed as characters and overlapping bigrams. A Chinese word must weigh what an English word weighs in
 * coverage and information, or a turn that shares one common phrase with an entry ("继续讨论") is taken for a question
 * about it.
 */
class CjkInformationTest {
    @TempDir
    Path tmp;

    static final String MEMORY = String.join(
            "\n§\n",
            "下周继续讨论办公室聚会的预算，上限五千元",
            "用户的猫叫小白，每天早上喂两次",
            "部署在周二进行，冒烟测试通过后才发布",
            "We will continue the discussion about the office party budget next week");

    @Test
    void aTurnSharingOnlyACommonPhraseIsNotAMatch() throws Exception {
        RecallService s = new RecallService(RecallTestHomes.engine(RecallTestHomes.memoryHome(tmp, MEMORY, null)));
        for (String q : List.of("我们继续讨论一下我的简历", "继续讨论我的简历", "continue the discussion about my resume")) {
            InjectEngine.Result r = s.inject(new InjectEngine.Request(q, null, "s-" + q.hashCode(), null, "active"));
            assertEquals("skip", r.decision(), q + ": " + r.reason());
        }
        s.engine().close();
    }

    @Test
    void aQuestionAboutWhatAnEntryHoldsStillFindsIt() throws Exception {
        RecallService s = new RecallService(RecallTestHomes.engine(RecallTestHomes.memoryHome(tmp, MEMORY, null)));
        for (String q : List.of("办公室聚会的预算是多少？", "小白每天喂几次？")) {
            InjectEngine.Result r = s.inject(new InjectEngine.Request(q, null, "s-" + q.hashCode(), null, "active"));
            assertEquals("inject", r.decision(), q + ": " + r.reason());
        }
        var hit = s.engine().search(new RecallEngine.Query("冒烟测试", 3, null, null, null, null));
        assertTrue(hit.hits().get(0).item().text().contains("冒烟测试"), hit.hits().toString());
        s.engine().close();
    }

    @Test
    void aCharacterABigramTheIndexKnowsHoldsCountsOnce() throws Exception {
        RecallService s = new RecallService(RecallTestHomes.engine(RecallTestHomes.memoryHome(tmp, MEMORY, null)));
        s.engine().sync();
        var searcher = s.engine().index().acquire();
        try {
            var idf = QueryAnalyser.idf(RecallAnalyzer.terms("继续讨论"), searcher.getIndexReader());
            assertEquals(
                    java.util.Set.of("继续", "续讨", "讨论"), idf.keySet(), "bigrams the index knows, not their characters");
            // a character in no known bigram (a word split across a boundary the index never saw) still counts
            var other = QueryAnalyser.idf(RecallAnalyzer.terms("猫狗"), searcher.getIndexReader());
            assertTrue(other.containsKey("猫"), other.toString());
        } finally {
            s.engine().index().release(searcher);
        }
        s.engine().close();
    }
}
