package steward.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/**
 * Hermes homes Steward had not seen, found by probing the real jar with odd but possible data: a state.db whose rows
 * Hermes' own code wrote in ways the fixture does not show (in-place compaction, branch children, a schema without a
 * later column, a timestamp a foreign tool wrote as text). Each is reproduced on a copy of fixtures/hermes-home.
 */
class OddHermesHomesTest {
    static final String CURRENT = "20260810_071500_a6a3a4";
    static final double DAY = 86400.0;

    @TempDir
    Path tmp;

    StewardPaths paths;
    Path db;
    final double now = TestHomes.NOW.getEpochSecond();

    @BeforeEach
    void setUp() throws Exception {
        paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        db = paths.stateDb();
    }

    AuditEngine.Outcome audit() {
        return new AuditEngine(paths, TestHomes.CLOCK)
                .audit(new AuditRequest(CURRENT, TestHomes.NOW, "interactive", "en", 500));
    }

    ApplyResult applySilently(Plan plan) {
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(plan.plan_id(), Map.of(), Map.of(), Map.of(), false, CURRENT, Map.of()));
    }

    static Plan.PlanItem item(Plan p, String sessionId) {
        return p.items().stream()
                .filter(i -> i.session_id().equals(sessionId))
                .findFirst()
                .orElse(null);
    }

    void sql(String... statements) throws Exception {
        try (Connection c = Sqlite.openReadWrite(db);
                Statement st = c.createStatement()) {
            for (String s : statements) st.execute(s);
        }
    }

    // A state.db without the archived column (the audit reads it as optional) must also be applied and restored.
    @Test
    void aStateDbWithoutTheArchivedColumnIsAppliedAndRestored() throws Exception {
        sql("ALTER TABLE sessions DROP COLUMN archived");
        List<String> before = TestHomes.logicalDump(db);
        Plan p = audit().plan();
        ApplyResult r = applySilently(p);
        assertTrue(r.executed_count() > 0);
        assertNotNull(r.backup());
        new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), null);
        assertEquals(before, TestHomes.logicalDump(db));
    }

    List<String> ids() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id FROM sessions")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    String parentOf(String id) throws Exception {
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement ps = c.prepareStatement("SELECT parent_session_id FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    List<String> foreignKeyViolations() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA foreign_key_check(sessions)")) {
            while (rs.next()) out.add(rs.getString(1) + " rowid " + rs.getLong(2) + " → " + rs.getString(3));
        }
        return out;
    }
}
