package steward.learning.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.learning.LearningEngine;
import steward.learning.LearningRun;
import steward.learning.Listing;
import steward.learning.PreferenceData;
import steward.learning.PreferenceStore;
import steward.learning.Preferences;

/**
 * Rule F's delete requests that can no longer act — the session is gone, or changed since the user saw it — are marked
 * stale and dropped (with a record) after {@link PreferenceData#STALE_RUNS} runs; nothing else is, and nothing is ever
 * turned into a deletion.
 */
class StaleRequestTest {
    static final Listing.Now AS_SEEN = new Listing.Now(null, 12, 1000.0, true);

    static PreferenceData.SessionMark request(String id) {
        PreferenceData.SessionMark m = new PreferenceData.SessionMark(id, null, "2026-08-01", "B");
        m.messages = AS_SEEN.messages();
        m.last_activity = AS_SEEN.lastActivity();
        m.ended = AS_SEEN.ended();
        return m;
    }

    /** The store: delete requests for del_seen, del_changed, del_gone; kept_gone retained and ren_gone renamed. */
    static PreferenceData data() {
        PreferenceData d = new PreferenceData();
        d.session_level.delete.add(request("del_seen"));
        d.session_level.delete.add(request("del_changed"));
        d.session_level.delete.add(request("del_gone"));
        d.session_level.retain.add(new PreferenceData.SessionMark("kept_gone", null, "2026-08-01", "B"));
        d.session_level.rename.add(new PreferenceData.SessionMark("ren_gone", "New", "2026-08-01", "G"));
        return d;
    }

    /** del_seen as seen, del_changed resumed (two more messages), the others in no home; a bystander session too. */
    static Listing listing(boolean complete) {
        Map<String, Listing.Now> m = new HashMap<>();
        m.put("del_seen", AS_SEEN);
        m.put("del_changed", new Listing.Now(null, 14, 2000.0, false));
        m.put("bystander", AS_SEEN);
        return new Listing(m, complete);
    }

    static LearningRun run(PreferenceData d, String date, Listing l) {
        LearningRun r = new LearningRun("p", date, List.of(), d, false, Set.of(), l);
        new SessionMemoryRule().apply(r);
        return r;
    }

    static List<String> ids(List<PreferenceData.SessionMark> marks) {
        return marks.stream().map(m -> m.id).toList();
    }

    @Test
    void aRequestWhoseSessionIsGoneOrChangedIsMarkedStaleThenDroppedWithARecord() {
        PreferenceData d = data();
        LearningRun first = run(d, "2026-08-10", listing(true));
        assertEquals(
                List.of("del_seen", "del_changed", "del_gone"), ids(d.session_level.delete), "one run is not enough");
        assertTrue(first.changes.isEmpty(), first.changes.toString());
        PreferenceData.SessionMark changed = d.session_level.delete.get(1), gone = d.session_level.delete.get(2);
        assertEquals("changed", changed.stale_reason);
        assertEquals("gone", gone.stale_reason);
        assertEquals("2026-08-10", gone.stale_since);
        assertEquals(1, gone.stale_runs);
        assertNull(d.session_level.delete.get(0).stale_since, "as seen: it holds");

        LearningRun second = run(d, "2026-08-17", listing(true));
        assertEquals(List.of("del_seen"), ids(d.session_level.delete));
        assertEquals(
                List.of(
                        "del_changed (changed since you asked, stale since 2026-08-10)",
                        "del_gone (gone, stale since 2026-08-10)"),
                second.changes.stream().map(LearningRun.Change::detail).toList());
        second.changes.forEach(c -> assertEquals(LearningEngine.STALE_DROPPED, c.kind()));
        // what protects a session is never dropped, gone or not; no request is added or moved to another session
        assertEquals(List.of("kept_gone"), ids(d.session_level.retain));
        assertEquals(List.of("ren_gone"), ids(d.session_level.rename));
        Preferences p = new Preferences(d, null);
        assertNull(p.deleteRequest("bystander"));
        assertNull(p.deleteRequest("del_changed"));
    }

    /** A run that listed only some homes (a Claude-only run): a session it did not find is out of sight, not gone. */
    @Test
    void aSessionOutOfTheRunsSightIsNotGone() {
        PreferenceData d = data();
        for (int i = 0; i < 5; i++) run(d, "2026-08-1" + i, listing(false));
        // del_changed was in sight, changed: dropped; del_gone was not found in the homes listed: left as it is
        assertEquals(List.of("del_seen", "del_gone"), ids(d.session_level.delete));
        PreferenceData.SessionMark gone = d.session_level.delete.get(1);
        assertNull(gone.stale_since);
        assertEquals(0, gone.stale_runs);
        assertNotNull(new Preferences(d, null).deleteRequest("del_gone"));
    }

    @Test
    void withoutAListingNothingIsMarked() {
        PreferenceData d = data();
        for (int i = 0; i < 3; i++) run(d, "2026-08-1" + i, null);
        assertEquals(3, d.session_level.delete.size());
        d.session_level.delete.forEach(m -> assertNull(m.stale_since));
    }

    @Test
    void aRequestFoundAsSeenAgainHoldsAgainAndStaleRunsMustFollowEachOther() {
        PreferenceData d = new PreferenceData();
        d.session_level.delete.add(request("s"));
        Listing gone = new Listing(Map.of(), true), back = new Listing(Map.of("s", AS_SEEN), true);
        run(d, "2026-08-10", gone);
        assertEquals(1, d.session_level.delete.get(0).stale_runs);
        run(d, "2026-08-11", back); // its home was away for one run
        PreferenceData.SessionMark m = d.session_level.delete.get(0);
        assertEquals(0, m.stale_runs);
        assertNull(m.stale_since);
        assertNull(m.stale_reason);
        assertNotNull(new Preferences(d, null).deleteRequest("s"));
        run(d, "2026-08-12", gone);
        assertEquals(1, d.session_level.delete.size(), "stale once since it held again");
    }

    @Test
    void aRequestWithPropertiesThisBuildDoesNotKnowIsNotJudgedWhileItsSessionExists() {
        PreferenceData d = new PreferenceData();
        PreferenceData.SessionMark m = request("s");
        m.unknown.put("x_scope", tools.jackson.databind.node.JsonNodeFactory.instance.stringNode("claude"));
        d.session_level.delete.add(m);
        Listing present = new Listing(Map.of("s", AS_SEEN), true);
        for (int i = 0; i < 3; i++) run(d, "2026-08-1" + i, present);
        assertEquals(1, d.session_level.delete.size());
        assertNull(m.stale_since);
        run(d, "2026-08-20", new Listing(Map.of(), true));
        run(d, "2026-08-21", new Listing(Map.of(), true));
        assertEquals(0, d.session_level.delete.size(), "gone is gone, whatever it was asked under");
    }

    @TempDir
    Path state;

    @Test
    void theEngineRecordsTheDropInTheRunsSummaryAndTheStoresTrail() {
        Clock clock = Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC);
        PreferenceStore store = new PreferenceStore(state, clock);
        store.update(
                d -> {
                    d.session_level.delete.add(request("del_gone"));
                    return null;
                },
                false);
        LearningEngine engine = new LearningEngine(store, clock);
        Listing none = new Listing(Map.of(), true);
        engine.record("p1", List.of(), Set.of(), none);
        PreferenceData.SessionMark m = store.read().data().session_level.delete.get(0);
        assertEquals("gone", m.stale_reason);
        LearningEngine.Summary s = engine.record("p2", List.of(), Set.of(), none);
        assertTrue(store.read().data().session_level.delete.isEmpty());
        assertTrue(
                s.lines().stream()
                        .anyMatch(l ->
                                l.contains("delete request dropped (gone or changed since you asked) 1: del_gone")),
                s.lines().toString());
        PreferenceData.Change last =
                store.read().data().changes.get(store.read().data().changes.size() - 1);
        assertEquals("stale_request", last.action);
        assertTrue(last.detail.startsWith("del_gone (gone"), last.detail);
    }
}
