package steward.sessions.grouping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicClustererTest {
    @Test
    void averageLinkageStopsAtTheThreshold() {
        // 0-1-2 a tight triangle, 3 linked only to 2 (weakly): average linkage keeps 3 out
        List<Map<Integer, Double>> sim = List.of(
                Map.of(1, 0.9, 2, 0.8),
                Map.of(0, 0.9, 2, 0.85),
                Map.of(0, 0.8, 1, 0.85, 3, 0.5),
                Map.of(2, 0.5),
                Map.of());
        assertEquals(List.of(List.of(0, 1, 2)), TopicClusterer.agglomerate(5, sim, 0.45));
        assertEquals(List.of(List.of(0, 1, 2, 3)), TopicClusterer.agglomerate(5, sim, 0.1));
        assertEquals(List.of(), TopicClusterer.agglomerate(5, sim, 0.95));
    }

    @Test
    void aDirectorySharedByEveryoneLinksNothingButAnOwnDirectoryHelps() {
        List<TopicClusterer.Doc> docs = List.of(
                new TopicClusterer.Doc("alpha notes", "alpha", "/home/u"),
                new TopicClusterer.Doc("beta notes", "beta", "/home/u"),
                new TopicClusterer.Doc("gamma notes", "gamma", "/home/u"),
                new TopicClusterer.Doc("book draft", "write", "/home/u/src/book"),
                new TopicClusterer.Doc("book edits", "edit", "/home/u/src/book"),
                new TopicClusterer.Doc("delta", "delta", "/home/u"),
                new TopicClusterer.Doc("epsilon", "epsilon", "/home/u"),
                new TopicClusterer.Doc("zeta", "zeta", "/home/u"));
        assertEquals(List.of(List.of(3, 4)), TopicClusterer.cluster(docs, 0.25));
    }

    @Test
    void deterministic() {
        List<TopicClusterer.Doc> docs = List.of(
                new TopicClusterer.Doc("Rust borrow checker", "lifetimes", null),
                new TopicClusterer.Doc("Rust borrow errors", "borrow checker errors", null),
                new TopicClusterer.Doc("Tax return", "deductions", null),
                new TopicClusterer.Doc("Tax return #2", "tax deductions", null),
                new TopicClusterer.Doc("Sourdough", "bread", null));
        List<List<Integer>> a = TopicClusterer.cluster(docs, 0.3);
        assertEquals(a, TopicClusterer.cluster(docs, 0.3));
        assertEquals(2, a.size());
    }
}
