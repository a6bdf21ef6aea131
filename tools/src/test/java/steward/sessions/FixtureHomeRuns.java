package steward.sessions;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.learning.PreferenceData;
import steward.learning.PreferenceStore;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.AuditResult;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.testing.TestHomes;

/**
 * Runs of audit → apply → restore on a copy of fixtures/hermes-home under a clock the test moves: the setup the
 * end-to-end housekeeping tests share. Sessions are added with {@link HermesRows}, as Hermes writes them.
 */
abstract class FixtureHomeRuns {
    static final String CURRENT = "20260810_071500_a6a3a4";
    static final double DAY = 86400.0;

    @TempDir
    Path tmp;

    StewardPaths paths;
    Path db;
    Instant now = TestHomes.NOW;

    @BeforeEach
    void copyFixture() throws Exception {
        paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        db = paths.stateDb();
    }

    double epoch() {
        return now.getEpochSecond();
    }

    Clock clock() {
        return Clock.fixed(now, ZoneOffset.UTC);
    }

    void later(double days) {
        now = now.plus(Duration.ofSeconds((long) (days * DAY)));
    }

    AuditEngine.Outcome audit() {
        return audit(500);
    }

    AuditEngine.Outcome audit(int maxItems) {
        return new AuditEngine(paths, clock()).audit(new AuditRequest(CURRENT, now, "interactive", "en", maxItems));
    }

    ApplyResult apply(Plan plan, Map<String, String> items) {
        return apply(plan, items, Map.of(), Map.of(), Map.of());
    }

    ApplyResult apply(Plan plan, Map<String, String> items, Map<String, String> rules) {
        return apply(plan, items, rules, Map.of(), Map.of());
    }

    ApplyResult apply(
            Plan plan,
            Map<String, String> items,
            Map<String, String> rules,
            Map<String, String> renames,
            Map<String, String> keepReasons) {
        return new ApplyEngine(paths, clock())
                .apply(new ApplyRequest(plan.plan_id(), items, rules, renames, false, CURRENT, keepReasons));
    }

    RestoreEngine.Result restore(ApplyResult r, String sessionId) {
        return new RestoreEngine(paths, clock()).restore(r.backup().backup_id(), List.of(sessionId));
    }

    PreferenceData prefs() {
        return new PreferenceStore(paths.stateDir(), clock()).read().data();
    }

    static Plan.PlanItem item(Plan p, String sessionId) {
        return p.items().stream()
                .filter(i -> i.session_id().equals(sessionId))
                .findFirst()
                .orElse(null);
    }

    /** The plan's own items (not cascades) of a rule condition, in plan order. */
    static List<Plan.PlanItem> items(Plan p, String condition) {
        return p.items().stream()
                .filter(i -> condition.equals(i.condition()) && i.cascade_of() == null)
                .toList();
    }

    /** The sessions the audit would act on without asking. */
    static Set<String> auto(AuditResult r) {
        return r.groups().auto().items().stream()
                .map(AuditResult.Item::session_id)
                .collect(Collectors.toSet());
    }
}
