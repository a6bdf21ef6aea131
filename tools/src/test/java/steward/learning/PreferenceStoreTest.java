package steward.learning;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;

class PreferenceStoreTest {
    @TempDir
    Path state;

    Clock clock = Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void aNewProcessSeesWhatTheLastOneLearned() {
        new LearningEngine(new PreferenceStore(state, clock), clock)
                .record("p1", Events.parse("s1 | B | long | MEDIUM | delete | VETOED"));
        // a fresh store object reads the file again, as a new server process would
        PreferenceStore again = new PreferenceStore(state, clock);
        assertTrue(again.read().usable());
        assertTrue(again.read().view().kept("s1"));
        assertEquals(1, again.read().data().run_count);
    }

    @Test
    void aCorruptStoreIsReportedAndLeftExactlyAsItWas() throws Exception {
        Path f = state.resolve("preferences.json");
        byte[] garbage = "{\"version\": 1, \"rule_level\": [oops".getBytes();
        Files.write(f, garbage);
        PreferenceStore store = new PreferenceStore(state, clock);
        PreferenceStore.Snapshot s = store.read();
        assertFalse(s.usable());
        assertTrue(s.problem().contains("learning is paused"), s.problem());
        LearningEngine.Summary sum = new LearningEngine(store, clock)
                .record("p1", Events.parse("s1 | B | long | MEDIUM | delete | APPROVED"));
        assertTrue(sum.paused());
        assertTrue(sum.lines().get(0).startsWith("learning paused"), sum.lines().toString());
        assertArrayEquals(garbage, Files.readAllBytes(f));
        assertThrows(StewardError.class, () -> new PreferenceAdmin(store, clock).setThreshold(4));
        assertArrayEquals(garbage, Files.readAllBytes(f));
        assertFalse(s.view().kept("s1"));
    }

    @Test
    void aNewerVersionIsNotGuessedAt() throws Exception {
        Path f = state.resolve("preferences.json");
        Files.writeString(f, "{\"version\": 7}");
        assertFalse(new PreferenceStore(state, clock).read().usable());
    }

    @Test
    void previousVersionsAreBackedUpNewestTwoKept() throws Exception {
        PreferenceStore store = new PreferenceStore(state, clock);
        for (int i = 0; i < 4; i++) {
            Clock c = Clock.fixed(Instant.parse("2026-08-10T12:00:0" + i + "Z"), ZoneOffset.UTC);
            new PreferenceAdmin(new PreferenceStore(state, c), c).setThreshold(2 + i);
        }
        List<Path> backups;
        try (var s = Files.list(state.resolve("backups/preferences"))) {
            backups = s.toList();
        }
        assertEquals(2, backups.size());
        assertEquals(5.0, store.read().data().active_threshold);
        assertEquals(4, store.read().data().changes.size());
    }

    @Test
    void resetAllIsTheExplicitWayOutOfACorruptStoreAndKeepsTheOldFile() throws Exception {
        Path f = state.resolve("preferences.json");
        Files.writeString(f, "not json");
        PreferenceStore store = new PreferenceStore(state, clock);
        new PreferenceAdmin(store, clock).resetAll();
        assertTrue(store.read().usable());
        try (var s = Files.list(state.resolve("backups/preferences"))) {
            Path b = s.findFirst().orElseThrow();
            assertEquals("not json", Files.readString(b));
        }
    }
}
