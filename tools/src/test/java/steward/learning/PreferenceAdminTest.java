package steward.learning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;

class PreferenceAdminTest {
    @TempDir
    Path state;

    Clock clock = Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void trustUnlocksALockedRuleAndLearningResumes() {
        PreferenceStore store = new PreferenceStore(state, clock);
        LearningEngine engine = new LearningEngine(store, clock);
        engine.record("p1", Events.parse("s1 | B | long | MEDIUM | delete | APPROVED"));
        engine.record("p2", Events.parse("s2 | B | long | MEDIUM | delete | VETOED"));
        engine.record("p3", Events.parse("s3 | B | long | MEDIUM | delete | APPROVED"));
        assertTrue(store.read().data().rule_level.get("B/long").locked);
        assertThrows(StewardError.class, () -> new PreferenceAdmin(store, clock).trust("A"));
        new PreferenceAdmin(store, clock).trust("B");
        var s = store.read().data().rule_level.get("B/long");
        assertFalse(s.locked);
        assertEquals(Level.MEDIUM, s.level);
        engine.record("p4", Events.parse("s4 | B | long | MEDIUM | delete | APPROVED"));
        assertEquals(s.approvals + 1, store.read().data().rule_level.get("B/long").approvals);
    }

    @Test
    void cronRetentionIsPromotedLikeAnyConditionAndCanBeReset() {
        PreferenceStore store = new PreferenceStore(state, clock);
        LearningEngine engine = new LearningEngine(store, clock);
        engine.record("p1", Events.parse("s1 | T | cron | MEDIUM | delete | APPROVED"));
        assertEquals(Level.MEDIUM, store.read().data().rule_level.get("T/cron").level);
        engine.record("p2", Events.parse("s2 | T | cron | MEDIUM | delete | APPROVED"));
        assertEquals(
                Level.HIGH,
                store.read().data().rule_level.get("T/cron").level,
                "approved twice in two runs: runs unasked");
        new PreferenceAdmin(store, clock).resetRule("T");
        assertFalse(store.read().data().rule_level.containsKey("T/cron"));
        engine.record("p3", Events.parse("s3 | M | cron | HIGH | mark_ended | VETOED"));
        new PreferenceAdmin(store, clock).resetRule("m"); // rules M and N learn too
        assertFalse(store.read().data().rule_level.containsKey("M/cron"));
        assertThrows(
                StewardError.class,
                () -> new PreferenceAdmin(store, clock).resetRule("H"),
                "H asks nothing, so it learns nothing");
    }

    @Test
    void thresholdIsSetWithinBoundsOnly() {
        PreferenceStore store = new PreferenceStore(state, clock);
        PreferenceAdmin admin = new PreferenceAdmin(store, clock);
        assertThrows(StewardError.class, () -> admin.setThreshold(1.5));
        assertThrows(StewardError.class, () -> admin.setThreshold(6.5));
        admin.setThreshold(4.5);
        assertEquals(4.5, store.read().data().active_threshold);
        admin.resetThreshold();
        assertEquals(3.0, store.read().data().active_threshold);
    }

    @Test
    void resetOneRuleOrForgetOneSession() {
        PreferenceStore store = new PreferenceStore(state, clock);
        new LearningEngine(store, clock).record("p1", Events.parse("""
                s1 | B | long  | MEDIUM | delete | VETOED
                s2 | A | shell | HIGH   | delete | APPROVED
                """));
        PreferenceAdmin admin = new PreferenceAdmin(store, clock);
        admin.resetRule("B");
        assertFalse(store.read().data().rule_level.containsKey("B/long"));
        assertTrue(store.read().data().rule_level.containsKey("A/shell"));
        assertTrue(store.read().view().kept("s1"));
        admin.forgetSession("s1");
        assertFalse(store.read().view().kept("s1"));
        assertThrows(StewardError.class, () -> admin.forgetSession("s1"));
        assertThrows(StewardError.class, () -> admin.resetRule("Z"));
        assertEquals(
                List.of("reset_rule", "forget_session"),
                store.read().data().changes.stream().map(c -> c.action).toList());
    }

    /** "reset B/long" covers every family of B/long (not B/short); the keyed form resets one family; trust likewise. */
    @Test
    void resetAndTrustTakeAConditionForAllItsFamiliesOrOneKeyedFamily() {
        PreferenceStore store = new PreferenceStore(state, clock);
        LearningEngine engine = new LearningEngine(store, clock);
        engine.record("p1", Events.parse("""
                s1 | B | long | MEDIUM | delete | APPROVED
                g1 | B | long@gateway | MEDIUM | delete | APPROVED
                m1 | B | long@machine | MEDIUM | delete | APPROVED
                c1 | B | long@claude | MEDIUM | delete | APPROVED
                t1 | B | short | HIGH | delete | VETOED
                a1 | A | shell@claude | HIGH | delete | VETOED
                """));
        PreferenceAdmin admin = new PreferenceAdmin(store, clock);
        String said = admin.resetRule("B/long@gateway");
        assertEquals("reset what was learned for B/long@gateway", said);
        assertEquals(
                List.of("B/long", "B/long@machine", "B/long@claude", "B/short", "A/shell@claude"),
                List.copyOf(store.read().data().rule_level.keySet()));
        admin.resetRule("b/long"); // the user's word: every family of it
        assertEquals(
                List.of("B/short", "A/shell@claude"),
                List.copyOf(store.read().data().rule_level.keySet()));
        assertThrows(StewardError.class, () -> admin.resetRule("B/long@gateway"), "nothing left to reset");
        admin.resetRule("A");
        assertEquals(
                List.of("B/short"), List.copyOf(store.read().data().rule_level.keySet()));
        // trust: contradictory answers for cli chats lock B/long; the keyed Telegram form does not unlock it
        engine.record("p2", Events.parse("s2 | B | long | MEDIUM | delete | APPROVED"));
        engine.record("p3", Events.parse("s3 | B | long | MEDIUM | delete | VETOED"));
        engine.record("p4", Events.parse("s4 | B | long | MEDIUM | delete | APPROVED"));
        assertTrue(store.read().data().rule_level.get("B/long").locked);
        assertThrows(StewardError.class, () -> admin.trust("B/long@gateway"));
        admin.trust("B/long");
        assertFalse(store.read().data().rule_level.get("B/long").locked);
    }
}
