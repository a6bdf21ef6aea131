package steward.learning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * A store of this version written by a newer Steward, a sibling tool or a hand edit can carry properties this build does
 * not model: every rewrite keeps them, with their values, at every level.
 */
class PreferenceStoreUnknownKeysTest {
    @TempDir
    Path state;

    Clock clock = Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC);

    /** Unknown keys at the top level and in every kind of nested object; their values of every JSON type. */
    static final String STORE = """
            {
              "version": 1,
              "x_top": {"nested": [1, 2.5, "three", null, true, {"deep": 12345678901234567890}]},
              "x_precise": 0.1000000000000000055511151231257827,
              "x_null": null,
              "session_level": {
                "x_sl": "kept by a sibling",
                "retain": [{"id": "s_keep", "title": "kept one", "date": "2026-08-01", "rule": "B", "x_mark": [true]}],
                "delete": [],
                "rename": [{"id": "s_ren", "title": "new name", "date": "2026-08-01", "rule": "G", "x_mark": "r"}],
                "rejected": [{"id": "s_keep", "title": "kept one", "date": "2026-08-01", "rule": "B", "x_rej": 7}]
              },
              "rule_level": {
                "B/long": {"rule": "B", "condition": "long", "base_level": "MEDIUM", "level": "MEDIUM",
                           "approvals": 1, "approval_runs": 1, "runs": 1, "x_rule": {"a": "b"}}
              },
              "topic_level": {
                "x_tl": 3,
                "precheck": [{"topic": "react", "choice": "new", "session_id": null, "date": "2026-08-01", "x_pc": 1}],
                "consolidated": [{"topic": "rust", "date": "2026-08-01", "x_tm": "c"}],
                "not_yet": [{"topic": "go", "date": "2026-08-01", "x_tm": "n"}]
              },
              "feedback_contradictions": [{"rule_key": "B/long", "date": "2026-08-01", "detail": "d", "x_fc": false}],
              "waiting": [{"session_id": "s_wait", "key": "B/long", "since": "2026-08-01", "runs": 1, "x_w": "w"}],
              "runs": [{"run": 1, "date": "2026-08-01", "plan_id": "p0", "decisions": 1, "summary": ["x"], "x_run": [1]}],
              "changes": [{"date": "2026-08-01T00:00:00Z", "action": "set_threshold", "detail": "3 → 3", "x_ch": {}}],
              "run_count": 1
            }
            """;

    private Path write() throws Exception {
        Path f = state.resolve(PreferenceStore.FILE);
        Files.writeString(f, STORE);
        return f;
    }

    private static JsonNode tree(Path f) throws Exception {
        return Json.MAPPER.readTree(Files.readAllBytes(f));
    }

    /** Every unknown property of {@link #STORE}, compared by value with the file now. */
    private static void assertUnknownKept(JsonNode before, JsonNode after) {
        assertEquals(before.get("x_top"), after.get("x_top"));
        assertEquals(
                before.get("x_precise").decimalValue().stripTrailingZeros(),
                after.get("x_precise").decimalValue().stripTrailingZeros(),
                "a number is kept to its last digit");
        assertTrue(after.has("x_null") && after.get("x_null").isNull(), "a null is kept as null");
        assertEquals(before.at("/session_level/x_sl"), after.at("/session_level/x_sl"));
        assertEquals(before.at("/session_level/retain/0/x_mark"), after.at("/session_level/retain/0/x_mark"));
        assertEquals(before.at("/session_level/rename/0/x_mark"), after.at("/session_level/rename/0/x_mark"));
        assertEquals(before.at("/session_level/rejected/0/x_rej"), after.at("/session_level/rejected/0/x_rej"));
        assertEquals(before.at("/rule_level/B~1long/x_rule"), after.at("/rule_level/B~1long/x_rule"));
        assertEquals(before.at("/topic_level/x_tl"), after.at("/topic_level/x_tl"));
        assertEquals(before.at("/topic_level/precheck/0/x_pc"), after.at("/topic_level/precheck/0/x_pc"));
        assertEquals(before.at("/topic_level/consolidated/0/x_tm"), after.at("/topic_level/consolidated/0/x_tm"));
        assertEquals(before.at("/topic_level/not_yet/0/x_tm"), after.at("/topic_level/not_yet/0/x_tm"));
        assertEquals(before.at("/feedback_contradictions/0/x_fc"), after.at("/feedback_contradictions/0/x_fc"));
        assertEquals(before.at("/runs/0/x_run"), after.at("/runs/0/x_run"));
        assertEquals(before.at("/changes/0/x_ch"), after.at("/changes/0/x_ch"));
        for (String p : new String[] {
            "/x_top", "/session_level/x_sl", "/rule_level/B~1long/x_rule", "/runs/0/x_run", "/changes/0/x_ch"
        }) assertFalse(after.at(p).isMissingNode(), p + " is still there");
    }

    @Test
    void anAdminChangeKeepsEveryUnknownProperty() throws Exception {
        Path f = write();
        JsonNode before = tree(f);
        PreferenceStore store = new PreferenceStore(state, clock);
        new PreferenceAdmin(store, clock).setThreshold(4);
        JsonNode after = tree(f);
        assertUnknownKept(before, after);
        // the known keys behave as before
        assertEquals(4.0, after.get("active_threshold").asDouble());
        assertEquals(2, after.get("changes").size());
        assertTrue(store.read().view().kept("s_keep"));
        assertTrue(store.read().view().renamed("s_ren"));
        assertFalse(after.has("unknown"), "the map holding them is not itself a property");
        assertFalse(after.at("/rule_level/B~1long").has("unknown"));
    }

    @Test
    void aLearningRunKeepsEveryUnknownProperty() throws Exception {
        Path f = write();
        JsonNode before = tree(f);
        PreferenceStore store = new PreferenceStore(state, clock);
        new LearningEngine(store, clock)
                .record("p1", Events.parse("s_new | B | long | MEDIUM | delete | APPROVED"), java.util.Set.of());
        JsonNode after = tree(f);
        assertUnknownKept(before, after);
        assertEquals(2, after.get("run_count").asInt());
        assertEquals(2, after.at("/rule_level/B~1long/approvals").asInt());
        assertEquals(2, after.get("runs").size());
        // the waiting question is no longer in the plan: it goes, with its unknown property (nothing else does)
        assertEquals(0, after.get("waiting").size());
    }

    @Test
    void aKeptUnknownPropertySurvivesSeveralRewrites() throws Exception {
        Path f = write();
        JsonNode before = tree(f);
        PreferenceStore store = new PreferenceStore(state, clock);
        PreferenceAdmin admin = new PreferenceAdmin(store, clock);
        admin.setThreshold(4);
        org.junit.jupiter.api.Assertions.assertThrows(
                steward.StewardError.class, () -> admin.trust("B/long")); // refused (not locked): nothing written
        admin.resetThreshold();
        new LearningEngine(store, clock).record("p2", Events.parse("s_x | B | long | MEDIUM | delete | VETOED"));
        assertUnknownKept(before, tree(f));
    }

    @Test
    void forgettingASessionDropsOnlyThatEntryWithItsOwnProperties() throws Exception {
        Path f = write();
        JsonNode before = tree(f);
        new PreferenceAdmin(new PreferenceStore(state, clock), clock).forgetSession("s_ren");
        JsonNode after = tree(f);
        assertEquals(0, after.at("/session_level/rename").size());
        assertEquals(before.at("/session_level/retain/0/x_mark"), after.at("/session_level/retain/0/x_mark"));
        assertEquals(before.get("x_top"), after.get("x_top"));
    }

    /**
     * "Reset all" resets what this build does not know too (it may be a newer Steward's learning: keeping it could keep an
     * automatic action the user meant to reset); the file before the reset is kept as a backup, unknown keys and all.
     */
    @Test
    void resetAllDropsUnknownPropertiesAndKeepsThemInTheBackup() throws Exception {
        Path f = write();
        String result = new PreferenceAdmin(new PreferenceStore(state, clock), clock).resetAll();
        assertTrue(result.contains("3 properties this Steward does not know"), result);
        JsonNode after = tree(f);
        assertFalse(after.has("x_top"));
        assertFalse(after.has("x_precise"));
        assertFalse(after.has("x_null"));
        Path backup;
        try (var s = Files.list(state.resolve("backups/preferences"))) {
            backup = s.findFirst().orElseThrow();
        }
        assertEquals(STORE, Files.readString(backup));
    }
}
