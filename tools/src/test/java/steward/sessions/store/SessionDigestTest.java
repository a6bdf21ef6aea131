package steward.sessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.testing.TestHomes;

class SessionDigestTest {
    static Path db(Path tmp) throws Exception {
        Path src = TestHomes.fixtureHome();
        for (String f : new String[] {"state.db", "state.db-wal", "state.db-shm"}) {
            if (Files.exists(src.resolve(f))) Files.copy(src.resolve(f), tmp.resolve(f));
        }
        return tmp.resolve("state.db");
    }

    @Test
    void digestHasCountsAndBothEdgesInTimeOrder(@TempDir Path tmp) throws Exception {
        try (SessionStore store = SessionStore.openReadOnly(db(tmp))) {
            SessionRow big = store.listSessions().stream()
                    .max(Comparator.comparingInt(SessionRow::storedMessageCount))
                    .orElseThrow();
            SessionDigest d = SessionDigest.read(store, big.id(), 3, 50);
            assertEquals(big.storedMessageCount(), d.messages());
            assertEquals(
                    d.messages(),
                    d.byRole().values().stream().mapToLong(Long::longValue).sum());
            assertEquals(3, d.first().size());
            assertEquals(
                    big.storedMessageCount() > 6 ? 3 : Math.max(0, big.storedMessageCount() - 3),
                    d.last().size());
            for (int i = 1; i < d.first().size(); i++)
                assertTrue(d.first().get(i - 1).timestamp() <= d.first().get(i).timestamp());
            for (int i = 1; i < d.last().size(); i++)
                assertTrue(d.last().get(i - 1).timestamp() <= d.last().get(i).timestamp());
            assertTrue(d.first().stream()
                    .allMatch(m -> m.text().codePointCount(0, m.text().length()) <= 50));
        }
    }

    @Test
    void unknownOrBlankIdsAreExpectedFailures(@TempDir Path tmp) throws Exception {
        try (SessionStore store = SessionStore.openReadOnly(db(tmp))) {
            assertThrows(StewardError.class, () -> SessionDigest.read(store, "nope", 3, 50));
            assertThrows(StewardError.class, () -> SessionDigest.read(store, " ", 3, 50));
        }
    }
}
