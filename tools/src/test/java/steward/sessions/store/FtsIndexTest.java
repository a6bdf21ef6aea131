package steward.sessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.testing.TestHomes;

class FtsIndexTest {
    @TempDir
    Path tmp;

    @Test
    void consistentFixturePasses() throws Exception {
        Path db = TestHomes.copyFixture(tmp).resolve("state.db");
        FtsIndex.Report r = FtsIndex.check(db);
        assertEquals(
                List.of("messages_fts", "messages_fts_trigram"),
                r.tables().stream().map(FtsIndex.TableCheck::table).toList());
        assertTrue(r.ok(), r.summary());
        assertEquals("messages_fts ok, messages_fts_trigram ok", r.summary());
    }

    @Test
    void damagedIndexIsFoundAndNamedAndRequireConsistentRefuses() throws Exception {
        Path db = TestHomes.copyFixture(tmp).resolve("state.db");
        TestHomes.damageFts(db);
        FtsIndex.Report r = FtsIndex.check(db);
        assertFalse(r.ok());
        assertEquals(List.of("messages_fts"), r.failing());
        StewardError e = assertThrows(StewardError.class, () -> FtsIndex.requireConsistent(db, "session_apply"));
        assertTrue(
                e.getMessage().startsWith("session_apply: Hermes' search index is inconsistent (messages_fts"),
                e.getMessage());
        assertTrue(e.getMessage().contains("steward repair-index"), e.getMessage());
    }

    @Test
    void noFtsTableMeansNothingToCheck() throws Exception {
        Path db = TestHomes.copyFixture(tmp).resolve("state.db");
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            for (String t : List.of("messages_fts", "messages_fts_trigram")) {
                for (String trg : List.of("insert", "delete", "update")) st.execute("DROP TRIGGER " + t + "_" + trg);
                st.execute("DROP TABLE " + t);
            }
        }
        FtsIndex.Report r = FtsIndex.check(db);
        assertTrue(r.ok());
        assertEquals("no FTS table", r.summary());
    }
}
