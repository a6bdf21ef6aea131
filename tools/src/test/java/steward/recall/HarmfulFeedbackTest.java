package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "harmful" means never injected again: not the same text elsewhere, not a corrected fact's old mark on its new text,
 * not a neighbour's mark when an entry is removed, and a day's log marked under its old whole-day URI gates its entries.
 */
class HarmfulFeedbackTest {
    @TempDir
    Path tmp;

    static final String FILLER = String.join(
            "\n§\n",
            "violin lessons on Tuesdays",
            "saffron risotto recipe needs arborio rice",
            "The office cat is called Miso");

    static InjectEngine.Request ask(String text) {
        return new InjectEngine.Request(text, null, null, null, "active");
    }

    static boolean droppedAsHarmful(InjectEngine.Result r, String uri) {
        return r.dropped().stream()
                .anyMatch(c -> c.uri().equals(uri)
                        && c.drop_reason() != null
                        && c.drop_reason().startsWith("harmful"));
    }

    static void memory(Path home, String... entries) throws Exception {
        Files.writeString(home.resolve("memories/MEMORY.md"), String.join("\n§\n", entries));
    }

    @Test
    void aHarmfulMarkAnotherProcessWroteWithinTheSameClockTickIsSeen() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("recall"));
        Path file = dir.resolve("feedback.json");
        FeedbackStore here = new FeedbackStore(dir), other = new FeedbackStore(dir); // two processes' stores
        here.record("d1", null, List.of("steward://skill/alpha"), "used", RecallTestHomes.CLOCK);
        java.nio.file.attribute.FileTime written = Files.getLastModifiedTime(file);
        assertFalse(here.harmful("steward://skill/beta"));
        other.record("d2", null, List.of("steward://skill/beta"), "harmful", RecallTestHomes.CLOCK);
        Files.setLastModifiedTime(file, written); // as if written within the same tick of the file system's clock
        assertTrue(here.harmful("steward://skill/beta"), "the other process's mark is read, not the copy held here");
    }

    @Test
    void aCorrectedFactThatDiffersOnlyInASymbolIsANewFactNotGatedByTheOldMark() throws Exception {
        String wrong = "[rule] Orders service replica count must be > 3 in production",
                right = "[rule] Orders service replica count must be < 3 in production";
        Path home = RecallTestHomes.memoryHome(tmp, FILLER + "\n§\n" + wrong, null);
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        String bad = RecallTestHomes.memUri("memory", wrong);
        s.feedback(null, List.of(bad), "harmful");
        memory(home, FILLER, right);
        String fixed = RecallTestHomes.memUri("memory", right);
        assertNotEquals(bad, fixed, "> and < say different things");
        InjectEngine.Result r = s.inject(ask("how many replicas should the orders service run in production?"));
        assertFalse(droppedAsHarmful(r, fixed), r.dropped().toString());
        assertEquals(
                List.of(fixed),
                r.items().stream().map(InjectEngine.Candidate::uri).toList(),
                r.reason());
    }

    @Test
    void removingAnEntryNeverHandsItsIdAndHarmfulMarkToAnotherEntry() throws Exception {
        String a = "[rule] The game engine is written in C++ (not C#)",
                b = "[rule] The game engine is written in C# (not C++)";
        Path home = RecallTestHomes.memoryHome(tmp, String.join("\n§\n", FILLER, a, b), null);
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        String ua = RecallTestHomes.memUri("memory", a), ub = RecallTestHomes.memUri("memory", b);
        assertNotEquals(ua, ub);
        assertEquals(ub, s.engine().resolve(ub).uri());
        assertEquals(b, s.engine().resolve(ub).text());
        s.feedback(null, List.of(ua), "harmful");
        memory(home, FILLER, b); // the harmful entry removed
        assertEquals(b, s.engine().resolve(ub).text(), "B keeps its own id");
        assertEquals(null, s.engine().resolve(ua));
        InjectEngine.Result r = s.inject(ask("which language is the game engine written in?"));
        assertFalse(droppedAsHarmful(r, ub), r.dropped().toString());
        assertFalse(s.engine().feedback().harmful(ub));
    }

    @Test
    void theSameTextElsewhereIsGatedOnceOneCopyIsMarkedHarmful() throws Exception {
        Path home = RecallTestHomes.fixtureCopy(tmp);
        String txt = "The redis cache on cache03 must be flushed with FLUSHALL before every release";
        List<String> sessions = List.of(
                "20260707_101100_1738f7", "20260702_112900_0becd7", "20260628_120000_b688b6", "20260810_071500_a6a3a4");
        for (int k = 0; k < sessions.size(); k++) {
            RecallTestHomes.addMessage(
                    home, sessions.get(k), "user", "how do we prepare the release on cache03?", 1.78e9 + k * 3600);
            RecallTestHomes.addMessage(
                    home, sessions.get(k), "assistant", k == 2 ? txt + "." : txt, 1.78e9 + k * 3600 + 10);
        }
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        String q = "should I flush the redis cache on cache03 before the release?";
        InjectEngine.Result first = s.inject(ask(q));
        assertEquals("inject", first.decision(), first.reason());
        InjectEngine.Candidate c = first.items().stream()
                .filter(i -> s.engine().resolve(i.uri()).text().startsWith(txt))
                .findFirst()
                .orElseThrow();
        s.feedback(first.decision_id(), List.of(c.uri()), "harmful");
        InjectEngine.Result again = s.inject(ask(q));
        for (InjectEngine.Candidate i : again.items())
            assertFalse(s.engine().resolve(i.uri()).text().startsWith(txt), "a copy was injected: " + i.uri());
        assertTrue(
                again.dropped().stream()
                        .anyMatch(d -> !d.uri().equals(c.uri())
                                && d.drop_reason() != null
                                && d.drop_reason().startsWith("harmful")),
                again.dropped().toString());
    }

    @Test
    void harmfulOnTheOldWholeDayLogUriGatesEachEntryOfThatDay() throws Exception {
        Path home = RecallTestHomes.memoryHome(tmp, FILLER, null);
        Path logs = Files.createDirectories(home.resolve("memories/logs"));
        Files.writeString(
                logs.resolve("2026-08-30.md"),
                "- 09:10: decided to pin grafana to 10.4 because of the alerting bug\n"
                        + "- 10:40: pitfall: helm upgrade resets the grafana admin password\n");
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        RecallService.FeedbackOutput out = s.feedback(null, List.of("steward://log/2026-08-30"), "harmful");
        assertEquals(2, out.recorded().size(), out.toString());
        for (RecallService.FeedbackItem f : out.recorded()) {
            assertTrue(f.uri().startsWith("steward://log/2026-08-30/"), f.uri());
            assertTrue(f.gated());
        }
        InjectEngine.Result r = s.inject(ask("does helm upgrade reset the grafana admin password?"));
        assertTrue(
                r.items().stream().noneMatch(i -> i.uri().startsWith("steward://log/")),
                r.items().toString());
        assertTrue(droppedAsHarmful(r, out.recorded().get(1).uri()), r.dropped().toString());
    }

    @Test
    void aWholeDayMarkStoredByThePreviousReleaseGatesTheDaysEntries() throws Exception {
        Path home = RecallTestHomes.memoryHome(tmp, FILLER, null);
        Path logs = Files.createDirectories(home.resolve("memories/logs"));
        Files.writeString(
                logs.resolve("2026-08-30.md"), "- 10:40: pitfall: helm upgrade resets the grafana admin password\n");
        Path recall = Files.createDirectories(home.resolve("steward/recall"));
        Files.writeString(
                recall.resolve("feedback.json"),
                "{\"version\":2,\"items\":{\"steward://log/2026-08-30\":{\"used\":0,\"ignored\":0,\"harmful\":1,"
                        + "\"corrected\":0}},\"entries\":[{\"decision_id\":null,\"uri\":\"steward://log/2026-08-30\","
                        + "\"outcome\":\"harmful\",\"at\":\"2026-08-31T00:00:00Z\"}]}");
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        InjectEngine.Result r = s.inject(ask("does helm upgrade reset the grafana admin password?"));
        assertTrue(
                r.items().stream().noneMatch(i -> i.uri().startsWith("steward://log/")),
                r.items().toString());
    }

    @Test
    void feedbackUnderAnIdOfBeforeSymbolsCountedMovesToItsEntryWhenTheFileIsUnchangedSince() throws Exception {
        String a = "[rule] The game engine is written in C++ (not C#)",
                b = "[rule] The game engine is written in C# (not C++)";
        Path home = RecallTestHomes.memoryHome(tmp, String.join("\n§\n", FILLER, a, b), null);
        Path recall = Files.createDirectories(home.resolve("steward/recall"));
        String oldA = "steward://memory/memory/" + Identity.legacyId(a),
                oldB = "steward://memory/memory/" + Identity.legacyId(b) + "-2";
        // written by the release before: A harmful (after the file's last change: 2999), B used (before it: 2000)
        Files.writeString(
                recall.resolve("feedback.json"),
                "{\"version\":2,\"items\":{\"" + oldA + "\":{\"used\":0,\"ignored\":0,\"harmful\":1,\"corrected\":0},\""
                        + oldB + "\":{\"used\":2,\"ignored\":0,\"harmful\":0,\"corrected\":0}},"
                        + "\"entries\":[{\"decision_id\":null,\"uri\":\"" + oldA
                        + "\",\"outcome\":\"harmful\",\"at\":\"2999-01-01T00:00:00Z\"},"
                        + "{\"decision_id\":null,\"uri\":\"" + oldB
                        + "\",\"outcome\":\"used\",\"at\":\"2000-01-01T00:00:00Z\"}]}");
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            FeedbackStore f = e.feedback();
            assertTrue(f.harmful(RecallTestHomes.memUri("memory", a)), "unchanged since: the same entry");
            assertFalse(f.harmful(RecallTestHomes.memUri("memory", b)));
            assertEquals(0, f.counts(RecallTestHomes.memUri("memory", b)).used(), "changed since: applies to none");
            assertEquals(2, f.state().unmapped().get(oldB).used());
        }
    }

    @Test
    void aPromotionThatRewritesTheConfidencePrefixKeepsTheEntrysIdAndItsHarmfulMark() throws Exception {
        String was = "[0.3] [ops] Deploys to prod go through the blue/green switch on lb02",
                now = "[0.5] [ops] Deploys to prod go through the blue/green switch on lb02";
        Path home = RecallTestHomes.memoryHome(tmp, FILLER + "\n§\n" + was, null);
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        String uri = RecallTestHomes.memUri("memory", was);
        s.feedback(null, List.of(uri), "harmful");
        memory(home, FILLER, now); // consolidation promoted it
        assertEquals(uri, RecallTestHomes.memUri("memory", now), "the same fact keeps its URI");
        InjectEngine.Result r = s.inject(ask("how do deploys to prod go on lb02, blue/green?"));
        assertTrue(r.items().isEmpty(), r.items().toString());
        assertTrue(droppedAsHarmful(r, uri), r.dropped().toString());
    }

    @Test
    void feedbackUnderThePreviousReleasesPrefixedIdMovesToTheEntryAndItsStoredTextStillGates() throws Exception {
        String a = "[0.5] [ops] Deploys to prod go through the blue/green switch on lb02";
        Path home = RecallTestHomes.memoryHome(tmp, String.join("\n§\n", FILLER, a), null);
        Path recall = Files.createDirectories(home.resolve("steward/recall"));
        String oldA = "steward://memory/memory/" + Identity.prefixedId(a);
        assertNotEquals(oldA, RecallTestHomes.memUri("memory", a));
        // written by the release before (version 3): A harmful after the file's last change, its text hash as hashed
        // then
        Files.writeString(
                recall.resolve("feedback.json"),
                "{\"version\":3,\"items\":{\"" + oldA + "\":{\"used\":0,\"ignored\":0,\"harmful\":1,\"corrected\":0}},"
                        + "\"entries\":[{\"decision_id\":null,\"uri\":\"" + oldA
                        + "\",\"outcome\":\"harmful\",\"at\":\"2999-01-01T00:00:00Z\"}],"
                        + "\"harmful_texts\":{\"" + oldA + "\":" + Identity.prefixedNormalHash(a) + "}}");
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            assertTrue(e.feedback().harmful(RecallTestHomes.memUri("memory", a)), "unchanged since: the same entry");
        }
        // the same fact copied into USER.md with another prefix: the stored (prefixed) text hash still gates it
        Files.writeString(
                home.resolve("memories/USER.md"),
                "[0.7] [ops] Deploys to prod go through the blue/green switch on lb02");
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        InjectEngine.Result r = s.inject(ask("how do deploys to prod go on lb02, blue/green?"));
        assertTrue(r.items().isEmpty(), r.items().toString());
    }
}
