package steward.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.learning.LearningEngine;
import steward.memory.lifecycle.rules.LifecycleRules;
import steward.memory.precheck.CheckMeta;
import steward.memory.precheck.Checks;
import steward.recall.gate.Gates;
import steward.sessions.rules.RuleMeta;
import steward.sessions.rules.Rules;

/** The one validator every rule-like registry runs when it is built. */
class MetadataTest {
    @RuleMeta(id = "x", summary = "does x", rationale = "because", confidence = "HIGH, LOW")
    static final class Good {}

    @RuleMeta(id = "y", summary = "does y", rationale = "because")
    static final class AlsoGood {}

    @RuleMeta(id = "x", summary = "does x again", rationale = "because")
    static final class SameId {}

    @RuleMeta(id = "z", summary = " ", rationale = "because")
    static final class NoSummary {}

    @RuleMeta(id = "w", summary = "does w", rationale = "because", confidence = "CERTAIN")
    static final class BadConfidence {}

    @CheckMeta(id = "c", verdict = "", summary = "checks c", rationale = "because")
    static final class Check {}

    static final class Bare {}

    @Test
    void everyRegistryDescribesItself() {
        assertEquals(13, Rules.ORDERED.size());
        assertEquals(10, LearningEngine.RULES.size());
        assertEquals(5, Gates.ALL.size());
        assertEquals(14, Checks.ORDERED.size());
        assertEquals(9, LifecycleRules.all().size());
        for (List<?> registry :
                List.of(Rules.ORDERED, LearningEngine.RULES, Gates.ALL, Checks.ORDERED, LifecycleRules.all())) {
            for (Object o : registry) {
                Metadata.Entry e = Metadata.of(o.getClass());
                assertNotNull(e, o.getClass().getName());
                assertTrue(!e.summary().isBlank() && !e.rationale().isBlank(), e.toString());
            }
        }
        // the session rules say the confidences their verdicts carry; learning rules and gates have none
        assertTrue(Rules.ORDERED.stream().allMatch(r -> !r.meta().confidence().isBlank()));
        assertTrue(LearningEngine.RULES.stream()
                .allMatch(r -> r.meta().confidence().isEmpty()));
    }

    @Test
    void acceptsWellDescribedEntries() {
        List<Object> in = List.of(new Good(), new AlsoGood(), new Check());
        assertEquals(in, Metadata.validated("test", in));
        assertEquals(new Metadata.Entry("x", "does x", "because", "HIGH, LOW"), Metadata.of(Good.class));
        assertEquals(List.of("HIGH", "LOW"), Metadata.confidences("HIGH, LOW"));
        assertEquals(List.of(), Metadata.confidences(""));
    }

    @Test
    void refusesMissingMetadata() {
        var e = assertThrows(
                IllegalStateException.class, () -> Metadata.validated("test", List.of(new Good(), new Bare())));
        assertTrue(e.getMessage().startsWith("test: "), e.getMessage());
        assertTrue(e.getMessage().contains("Bare has no @RuleMeta, @CheckMeta or @LifecycleMeta"), e.getMessage());
    }

    @Test
    void refusesDuplicateIds() {
        var e = assertThrows(
                IllegalStateException.class, () -> Metadata.validated("gates", List.of(new Good(), new SameId())));
        assertTrue(e.getMessage().contains("SameId: duplicate id x"), e.getMessage());
    }

    @Test
    void refusesAnEmptySummary() {
        var e = assertThrows(IllegalStateException.class, () -> Metadata.validated("checks", List.of(new NoSummary())));
        assertTrue(e.getMessage().contains("NoSummary: empty summary"), e.getMessage());
    }

    @Test
    void refusesAnUnknownConfidence() {
        var e = assertThrows(
                IllegalStateException.class, () -> Metadata.validated("rules", List.of(new BadConfidence())));
        assertTrue(e.getMessage().contains("confidence CERTAIN"), e.getMessage());
    }

    @Test
    void namesEveryFaultAtOnce() {
        var e = assertThrows(
                IllegalStateException.class,
                () -> Metadata.validated("rules", List.of(new Good(), new SameId(), new NoSummary(), new Bare())));
        assertEquals(3, e.getMessage().split("; ").length, e.getMessage());
    }
}
