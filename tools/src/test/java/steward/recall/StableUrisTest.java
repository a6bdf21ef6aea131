package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Content-derived URIs: they survive reordering and removals, change with the fact, and the old positional ones still resolve. */
class StableUrisTest {
    @TempDir
    Path tmp;

    static final String A = "The staging database runs on port 5433",
            B = "Backups go to the NAS at 02:00",
            C = "The office cat is called Miso";

    static void memory(Path home, String... entries) throws Exception {
        Files.writeString(home.resolve("memories/MEMORY.md"), String.join("\n§\n", entries));
    }

    @Test
    void anEntryKeepsItsUriWhenItMovesAndWhenOnlyCaseSpacingOrPunctuationChange() throws Exception {
        Path home = RecallTestHomes.memoryHome(tmp, String.join("\n§\n", A, B, C), null);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            String cat = RecallTestHomes.memUri("memory", C);
            assertEquals(
                    cat,
                    e.search(RecallEngineTest.q("office cat", 1))
                            .hits()
                            .get(0)
                            .item()
                            .uri());
            memory(home, C, A); // B removed, C moved to the top
            assertEquals(
                    cat,
                    e.search(RecallEngineTest.q("office cat", 1))
                            .hits()
                            .get(0)
                            .item()
                            .uri());
            memory(home, "the office  cat is called MISO!", A);
            assertEquals(
                    cat,
                    e.search(RecallEngineTest.q("office cat", 1))
                            .hits()
                            .get(0)
                            .item()
                            .uri(),
                    "same fact, other spelling");
            memory(home, "The office cat is called Mochi", A);
            String mochi = e.search(RecallEngineTest.q("office cat", 1))
                    .hits()
                    .get(0)
                    .item()
                    .uri();
            assertNotEquals(cat, mochi, "another name is another fact");
            assertNull(e.resolve(cat));
        }
    }

    @Test
    void harmfulFeedbackStaysWithItsEntryWhenAnotherEntryMovesIntoItsPlace() throws Exception {
        // the bug of positional URIs: "harmful" on entry 3 blocked the innocent entry that moved into slot 3
        Path home = RecallTestHomes.memoryHome(tmp, String.join("\n§\n", A, B, C), null);
        RecallService s = new RecallService(RecallTestHomes.engine(home));
        String bad = RecallTestHomes.memUri("memory", B);
        s.feedback(null, List.of(bad), "harmful");
        memory(home, A, C); // B removed: C is now entry 2
        InjectEngine.Result r = s.inject(
                new InjectEngine.Request("What is the office cat called, by the way?", null, null, null, "active"));
        assertEquals(
                List.of(RecallTestHomes.memUri("memory", C)),
                r.items().stream().map(InjectEngine.Candidate::uri).toList(),
                r.reason());
        memory(home, A, C, B); // B is back (same text): it is still harmful
        InjectEngine.Result again =
                s.inject(new InjectEngine.Request("When do backups go to the NAS?", null, null, null, "active"));
        assertFalse(again.items().stream().anyMatch(c -> c.uri().equals(bad)));
        assertTrue(again.dropped().stream()
                .anyMatch(c -> c.uri().equals(bad) && c.drop_reason().startsWith("harmful")));
    }

    @Test
    void equalEntriesGetNumberedIdsAndThePositionalFormOfThePreviousReleaseResolvesToTheEntryNowThere()
            throws Exception {
        // Hermes drops exact duplicates; entries equal but for case or punctuation stay, and share a normalised text
        Path home = RecallTestHomes.memoryHome(tmp, String.join("\n§\n", A, B, A.toUpperCase() + "!"), null);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            e.sync();
            String id = Identity.id(A);
            assertEquals(A, e.resolve("steward://memory/memory/" + id).text());
            assertEquals(
                    A.toUpperCase() + "!",
                    e.resolve("steward://memory/memory/" + id + "-2").text());
            assertEquals(
                    RecallTestHomes.memUri("memory", B),
                    e.resolve("steward://memory/memory/2").uri());
            assertNull(e.resolve("steward://memory/memory/9"));
            assertEquals(3, e.counts().get("memory"));
        }
    }

    @Test
    void eachDailyLogEntryIsAnItemWithItsOwnStableUri() throws Exception {
        Path home = RecallTestHomes.memoryHome(tmp, A, null);
        Path logs = Files.createDirectories(home.resolve("memories/logs"));
        Files.writeString(
                logs.resolve("2026-08-12.md"),
                "# 12 August\n- Moved the housekeeping cron to 03:00\n- Renewed the TLS certificate\n\n"
                        + "Long note about the garden:\nthe tomatoes need staking.\n");
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            RecallEngine.Hit hit =
                    e.search(RecallEngineTest.q("TLS certificate", 1)).hits().get(0);
            assertEquals(
                    "steward://log/2026-08-12/" + Identity.id("- Renewed the TLS certificate"),
                    hit.item().uri());
            assertEquals("- Renewed the TLS certificate", hit.item().text());
            assertEquals(4, e.counts().get("log"), "heading, two list items, one paragraph");
            Files.writeString(
                    logs.resolve("2026-08-12.md"),
                    "- Bought compost\n" + Files.readString(logs.resolve("2026-08-12.md")));
            assertEquals(
                    hit.item().uri(),
                    e.search(RecallEngineTest.q("TLS certificate", 1))
                            .hits()
                            .get(0)
                            .item()
                            .uri(),
                    "appending keeps the ids");
            assertTrue(
                    e.resolve("steward://log/2026-08-12").text().contains("tomatoes"),
                    "the old per-day form resolves to the whole day");
        }
    }

    @Test
    void identityRule() {
        assertEquals(Identity.id("Prefers dark mode."), Identity.id("  prefers   DARK-mode "));
        assertNotEquals(Identity.id("Prefers dark mode"), Identity.id("Prefers light mode"));
        assertNotEquals(Identity.id("Port 5433"), Identity.id("Port 5434"));
        assertEquals(Identity.id("用户偏好：中文回答"), Identity.id("用户偏好 中文回答"));
        assertEquals(12, Identity.id("x").length());
        // symbols that change what a fact says make another fact; spacing around them does not
        assertNotEquals(Identity.id("replica count must be > 3"), Identity.id("replica count must be < 3"));
        assertEquals(Identity.id("replica count must be >3"), Identity.id("Replica count must be > 3."));
        assertNotEquals(Identity.id("written in C++ (not C#)"), Identity.id("written in C# (not C++)"));
        assertNotEquals(Identity.id("x = 1"), Identity.id("x != 1"));
        assertNotEquals(Identity.id("keep it above -5 C"), Identity.id("keep it above 5 C"));
        assertNotEquals(Identity.id("costs $5"), Identity.id("costs €5"));
        assertEquals(
                Identity.id("a re-run of steps 1-2"), Identity.id("a re run of steps 1 2"), "hyphens are punctuation");
        // a text without such symbols keeps the id it had before they counted (its stored feedback still applies)
        for (String t :
                List.of("Prefers dark mode.", "Backups go to the NAS at 02:00", "用户偏好：中文回答", "- Renewed the TLS cert"))
            assertEquals(Identity.legacyId(t), Identity.id(t), t);
        // a confidence prefix (rewritten by consolidation on promotion) is not part of the fact
        assertEquals(Identity.id("用户偏好：中文回答"), Identity.id("[0.5] 用户偏好：中文回答"));
        assertEquals(Identity.id("[0.3] [env] GPU: RTX 4090"), Identity.id("[0.7] [env] GPU: RTX 4090"));
        assertNotEquals(Identity.id("[0.4] retries"), Identity.id("retries"), "not a confidence level: words");
        assertNotEquals(Identity.id("Prefers dark mode [0.5]"), Identity.id("Prefers dark mode"), "only at the start");
    }
}
