package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/** Rule K in a whole audit and apply: a cascade never outranks the subagent that K keeps. */
class RetentionAuditTest {
    static final String PARENT = "20260715_080300_208596"; // B_high: ended, untitled, 6 messages
    static final String CHILD = "20260810_090000_aaaaaa";

    @TempDir
    Path tmp;

    /** A subagent of PARENT that finished 3 hours before the fixture's now, written as Hermes writes one. */
    static void addYoungChild(Path home) throws Exception {
        try (Connection c = Sqlite.openReadWrite(home.resolve("state.db"))) {
            Sqlite.immediate(c, x -> {
                try (var ps = x.prepareStatement(
                        "INSERT INTO sessions (id, source, model_config, parent_session_id, started_at, ended_at, "
                                + "end_reason, message_count) VALUES (?, 'subagent', ?, ?, 1786348800, 1786352400, 'completed', 1)")) {
                    ps.setString(1, CHILD);
                    ps.setString(2, "{\"_delegate_from\": \"" + PARENT + "\"}");
                    ps.setString(3, PARENT);
                    ps.executeUpdate();
                }
                try (var ps = x.prepareStatement(
                        "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'goal', 1786352400)")) {
                    ps.setString(1, CHILD);
                    ps.executeUpdate();
                }
                return null;
            });
        }
    }

    @Test
    void aParentWhoseSubagentIsKeptIsNotDeletedAutomatically() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        addYoungChild(home);
        StewardPaths paths = StewardPaths.of(home);
        AuditEngine.Outcome o = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500));
        Plan.PlanItem parent = o.plan().item(PARENT);
        Plan.PlanItem child = o.plan().item(CHILD);
        assertEquals("B", parent.rule());
        assertEquals("HIGH", parent.base());
        assertEquals(
                "MEDIUM",
                parent.confidence(),
                "B/short would be HIGH; its kept subagent makes it a question (the cascade never outranks the child)");
        assertEquals("new", parent.question());
        assertEquals(List.of(CHILD), parent.held_by());
        assertTrue(
                parent.reason()
                        .contains(CHILD
                                + " (untitled, 1 message, finished subagent younger than 3 days: kept, eligible for deletion from "
                                + "2026-08-13 09:00 UTC)"),
                parent.reason());
        assertEquals(PARENT, child.cascade_of());
        assertTrue(o.result().groups().auto().items().stream()
                .noneMatch(i -> i.session_id().equals(PARENT) || i.session_id().equals(CHILD)));

        // nothing answered: neither runs
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of(), Map.of(), true, null));
        assertTrue(r.executed().stream()
                .noneMatch(d -> d.session_id().equals(PARENT) || d.session_id().equals(CHILD)));
        // the user approves the parent: its kept subagent goes with it (dry run: nothing changes)
        ApplyResult both = new ApplyEngine(paths, TestHomes.CLOCK)
                .apply(new ApplyRequest(
                        o.result().plan_id(), Map.of(PARENT, "approve"), Map.of(), Map.of(), true, null));
        assertEquals(
                2,
                both.executed().stream()
                        .filter(d ->
                                d.session_id().equals(PARENT) || d.session_id().equals(CHILD))
                        .count());
    }

    @Test
    void keepDaysComesFromConfigYaml() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.writeString(
                home.resolve("config.yaml"), "memory:\n  memory_char_limit: 2200\nsteward:\n  subagent_keep_days: 0\n");
        AuditResult r = new AuditEngine(StewardPaths.of(home), TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500))
                .result();
        assertEquals(new AuditResult.Retention(0, "config_file", 0, 0, null, List.of()), r.retention());
        assertTrue(
                r.groups().auto().items().stream().anyMatch(i -> i.session_id().equals(FixtureVerdictTest.YOUNG_SHELL)),
                "with keep-days 0 the young shell is rule A's again");
        Files.writeString(home.resolve("config.yaml"), "steward:\n  subagent_keep_days: soon\n");
        AuditResult bad = new AuditEngine(StewardPaths.of(home), TestHomes.CLOCK, Preferences.empty())
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500))
                .result();
        assertEquals(3.0, bad.retention().keep_days());
        assertEquals(1, bad.retention().warnings().size(), "a malformed setting is reported, the default used");
    }
}
