package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.sessions.HermesRows;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.store.SessionStore;
import steward.testing.TestHomes;

/**
 * A config.yaml setting Steward cannot read (malformed YAML, "cron: never") fell back to its default, and the rule that
 * depends on it then acted on its own: a user who had set subagents to be kept 30 days, or cron sessions never to be
 * ended, saw them deleted or ended by an apply they gave no answer to.
 */
class UnreadSettingsTest {
    static final String CURRENT = "20260810_071500_a6a3a4";
    static final String JOB = "20260810_060000_c00001", SHELL = "20260801_090000_d00001";

    @TempDir
    Path tmp;

    StewardPaths paths;
    Path db;
    double now = TestHomes.NOW.getEpochSecond();

    @BeforeEach
    void setUp() throws Exception {
        paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        db = paths.stateDb();
        HermesRows.into(db)
                .chat(JOB, "cron", "nightly report", false, 6, now - 5 * 3600) // active, idle 5 h: rule M
                .subagent(SHELL, CURRENT, null, true, 2, now - 9 * 86400) // ended 9 days ago: rule A
                .write();
    }

    AuditEngine.Outcome audit() {
        return new AuditEngine(paths, Clock.fixed(TestHomes.NOW, ZoneOffset.UTC))
                .audit(new AuditRequest(CURRENT, TestHomes.NOW, "interactive", "en", 500));
    }

    static Set<String> auto(AuditResult r) {
        return r.groups().auto().items().stream()
                .map(AuditResult.Item::session_id)
                .collect(Collectors.toSet());
    }

    boolean ended(String id) throws Exception {
        try (SessionStore s = SessionStore.openReadOnly(db)) {
            return s.listSessions().stream()
                            .filter(r -> r.id().equals(id))
                            .findFirst()
                            .orElseThrow()
                            .endedAt()
                    != null;
        }
    }

    @Test
    void readableSettingsLetTheRulesRunOnTheirOwn() throws Exception {
        Files.writeString(
                paths.configYaml(), "steward:\n  subagent_keep_days: 3\n  machine_idle_hours:\n    cron: 2\n");
        Set<String> auto = auto(audit().result());
        assertTrue(auto.contains(JOB), auto.toString());
        assertTrue(auto.contains(SHELL), auto.toString());
    }

    @Test
    void aMalformedConfigYamlRunsNothingItsSettingsDecide() throws Exception {
        Files.writeString(paths.configYaml(), "steward:\n  subagent_keep_days: 30\n  machine_idle_hours: {cron: 0\n");
        assertNothingRunsOnItsOwn();
    }

    @Test
    void aBadValueRunsNothingOfItsRule() throws Exception {
        Files.writeString(
                paths.configYaml(),
                "steward:\n  subagent_keep_days: a month\n  machine_idle_hours:\n    cron: never\n");
        assertNothingRunsOnItsOwn();
    }

    private void assertNothingRunsOnItsOwn() throws Exception {
        AuditEngine.Outcome o = audit();
        Set<String> auto = auto(o.result());
        assertFalse(auto.contains(JOB), auto.toString());
        assertFalse(auto.contains(SHELL), auto.toString());
        for (String id : new String[] {JOB, SHELL}) {
            Plan.PlanItem it = o.plan().items().stream()
                    .filter(i -> i.session_id().equals(id))
                    .findFirst()
                    .orElseThrow();
            assertEquals("MEDIUM", it.confidence(), id);
            assertTrue(it.reason().contains("config.yaml cannot be read"), it.reason());
        }
        // an apply the user gave no answer to changes neither
        new ApplyEngine(paths, Clock.fixed(TestHomes.NOW, ZoneOffset.UTC))
                .apply(new ApplyRequest(o.plan().plan_id(), Map.of(), Map.of(), Map.of(), false, CURRENT, Map.of()));
        assertTrue(HermesRows.exists(db, SHELL));
        assertFalse(ended(JOB));
    }
}
