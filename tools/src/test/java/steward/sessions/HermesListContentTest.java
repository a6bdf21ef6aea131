package steward.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.IndexRepair;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.FtsIndex;
import steward.testing.RealHermes;

/**
 * Review of 2026-12-04: Hermes stores list content (an image, multimodal parts) as {@code "\0json:…"}. An older SQLite
 * (Python's, here 3.40) indexes such a message in the trigram table only up to the NUL; Steward's reads past it.
 * One image in a home made every session_apply and session_restore refuse ("malformed inverted index"), and the advised
 * `steward repair-index` then made Hermes' own SQLite find its index malformed. Now: apply and restore go through, and
 * after each step (apply, restore, Hermes deleting a restored session, Hermes adding an image, a forced rebuild) both
 * SQLites find both search tables consistent.
 */
class HermesListContentTest {
    @TempDir
    Path tmp;

    @Test
    void sessionsWithImagesAreDeletedRestoredAndReindexedAsBothSqlitesReadThem() throws Exception {
        RealHermes hermes = RealHermes.require();
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        StewardPaths paths = StewardPaths.of(home);
        Instant now = Instant.parse("2026-08-10T12:00:00Z");
        Clock clock = Clock.fixed(now, ZoneOffset.UTC);
        String db = paths.stateDb().toString();
        try (RealHermes.Driver h = hermes.start("hermes_sessions.py")) {
            assertEquals("ok", h.send("build", db, String.valueOf(now.getEpochSecond())));
            assertEquals("ok", h.send("check", db), "Hermes' own SQLite reads its index as consistent");

            Plan plan = new AuditEngine(paths, clock)
                    .audit(new AuditRequest(null, now, "interactive", "en", 20))
                    .plan();
            assertTrue(plan.items().stream()
                    .anyMatch(i -> i.session_id().equals("s1") && i.action().equals("delete")));
            ApplyResult r = new ApplyEngine(paths, clock)
                    .apply(new ApplyRequest(plan.plan_id(), Map.of("s1", "approve"), Map.of(), Map.of(), false, null));
            assertEquals(
                    List.of("s1"),
                    r.executed().stream().map(ApplyResult.Done::session_id).toList());
            assertTrue(
                    r.checklist().stream().allMatch(c -> !c.check().startsWith("fts") || c.ok()),
                    r.checklist().toString());
            assertEquals("ok", h.send("check", db), "after the apply");

            RestoreEngine.Result rr =
                    new RestoreEngine(paths, clock).restore(r.backup().backup_id(), null);
            assertEquals(List.of("s1"), rr.restored());
            assertTrue(
                    rr.checklist().stream().allMatch(RestoreEngine.Check::ok),
                    rr.checklist().toString());
            assertEquals("ok", h.send("check", db), "after the restore");
            assertEquals("ok", h.send("delete", db, "s1"), "Hermes deletes the restored session");
            assertEquals("ok", h.send("check", db), "after Hermes deleted it");

            // an image Hermes adds after that, then a forced rebuild (it reads the table's own copy of each text)
            assertEquals("ok", h.send("image", db, "keep"));
            IndexRepair.Result rep = new IndexRepair(paths, clock).run(true);
            assertTrue(rep.rebuilt() && rep.after().ok(), rep.message());
            assertEquals("ok", h.send("check", db), "after a forced rebuild");
            assertEquals("ok", h.send("image", db, "keep"));
            assertTrue(FtsIndex.requireConsistent(paths.stateDb(), "test").ok(), "a new image does not block Steward");
            assertEquals("ok", h.send("check", db));
            assertEquals("ok", h.send("delete", db, "keep"));
            assertEquals("ok", h.send("check", db));
        }
        assertTrue(FtsIndex.check(paths.stateDb()).ok(), "Steward's check agrees");
    }
}
