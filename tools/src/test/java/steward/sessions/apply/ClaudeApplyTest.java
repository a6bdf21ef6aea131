package steward.sessions.apply;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.claude.SessionsIndex;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.backup.RestoreEngine;
import steward.state.FileTrees;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** Apply and restore on a Claude Code home: verified moves into the backup, consistent indexes, byte-identical round trips. */
class ClaudeApplyTest {
    @TempDir
    Path tmp;

    Path home;
    StewardPaths paths;
    JsonNode manifest;
    Map<String, JsonNode> byKind = new HashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        home = ClaudeTestHomes.install(tmp, false);
        paths = ClaudeTestHomes.claudeOnly(tmp, home);
        manifest = ClaudeTestHomes.manifest();
        for (JsonNode s : manifest.get("sessions"))
            byKind.putIfAbsent(s.get("kind").asString(), s);
    }

    String id(String kind) {
        return byKind.get(kind).get("id").asString();
    }

    Path file(String kind) {
        return home.resolve("projects")
                .resolve(byKind.get(kind).get("project").asString())
                .resolve(id(kind) + ".jsonl");
    }

    AuditEngine.Outcome audit(double idleHours) {
        return new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, null, idleHours));
    }

    ApplyResult apply(String planId, Map<String, String> rules) {
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .apply(new ApplyRequest(planId, Map.of(), rules, Map.of(), false, null));
    }

    static Set<String> executed(ApplyResult r) {
        return r.executed().stream().map(ApplyResult.Done::session_id).collect(Collectors.toCollection(TreeSet::new));
    }

    static Map<String, String> skipped(ApplyResult r) {
        Map<String, String> m = new HashMap<>();
        r.skipped().forEach(s -> m.put(s.session_id(), s.reason()));
        return m;
    }

    @Test
    void highItemsMoveIntoTheBackupAndRestoreIsByteIdentical() throws Exception {
        Map<String, String> before = ClaudeTestHomes.tree(home);
        FileTime a3time = Files.getLastModifiedTime(file("B_high"));
        byte[] notesIndex = Files.readAllBytes(home.resolve("projects/-home-dev-notes/sessions-index.json"));
        AuditEngine.Outcome o = audit(0);
        ApplyResult r = apply(o.result().plan_id(), Map.of());
        Set<String> want = new TreeSet<>();
        for (JsonNode s : manifest.get("sessions")) {
            if (s.get("expected").asString().equals("delete HIGH") && !s.has("apply"))
                want.add(s.get("id").asString());
        }
        assertEquals(want, executed(r));
        assertTrue(
                skipped(r).get(id("B_high_index_unparseable")).contains("cannot be parsed"),
                skipped(r).toString());
        // moved: the transcripts, the subagent's transcript and meta file; kept: its session and that session's tool
        // results
        assertFalse(Files.exists(file("B_high")));
        assertFalse(Files.exists(file("B_empty")));
        Path a2dir = home.resolve("projects/-home-dev-webapp").resolve(id("ended_titled"));
        assertFalse(Files.exists(a2dir.resolve("subagents/agent-b2c3d4e5f6a7.jsonl")));
        assertFalse(Files.exists(a2dir.resolve("subagents/agent-b2c3d4e5f6a7.meta.json")));
        assertTrue(Files.exists(a2dir.resolve("tool-results/toolu_01A2.txt")));
        assertTrue(Files.exists(file("ended_titled")));
        assertFalse(Files.exists(home.resolve("projects/-home-dev-api/agent-7d3e9a1c.jsonl")));
        // the index no longer lists the moved session, and still lists the rest; the unparseable one is byte-identical
        SessionsIndex.Read idx = SessionsIndex.read(home.resolve("projects/-home-dev-webapp/sessions-index.json"));
        assertTrue(idx.usable());
        assertFalse(idx.sessionIds().contains(id("B_high")));
        assertTrue(idx.sessionIds().contains(id("B_medium")));
        assertEquals(8, idx.sessionIds().size());
        assertArrayEquals(notesIndex, Files.readAllBytes(home.resolve("projects/-home-dev-notes/sessions-index.json")));
        assertTrue(
                r.checklist().stream().anyMatch(c -> c.check().equals("claude_backup") && c.ok()),
                r.checklist().toString());
        assertEquals(want.size(), r.backup().sessions());
        assertTrue(Files.isRegularFile(
                paths.stateDir().resolve("backups/sessions/" + r.backup().backup_id() + ".claude.jsonl")));
        assertEquals(home.resolve("steward"), paths.stateDir(), "a Claude home only: the state dir lives in it");

        RestoreEngine.Result back =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), null);
        assertEquals(want, new TreeSet<>(back.restored()));
        assertTrue(back.skipped().isEmpty(), back.skipped().toString());
        assertEquals(before, ClaudeTestHomes.tree(home), "every file byte-identical after apply → restore");
        assertEquals(a3time, Files.getLastModifiedTime(file("B_high")), "a moved transcript keeps its time");
        RestoreEngine.Result again =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), null);
        assertTrue(again.restored().isEmpty());
        assertTrue(
                again.skipped().stream().allMatch(s -> s.reason().startsWith("already back")),
                again.skipped().toString());
        assertEquals(before, ClaudeTestHomes.tree(home));
    }

    @Test
    void anApprovedSessionTakesItsWholeDirectoryAndComesBackWithIt() throws Exception {
        // give the long untitled session (rule B, MEDIUM) a directory with a finished subagent and tool results
        Path a4dir = home.resolve("projects/-home-dev-webapp").resolve(id("B_medium"));
        FileTrees.copy(home.resolve("projects/-home-dev-webapp").resolve(id("ended_titled")), a4dir);
        FileTime old = FileTime.from(TestHomes.NOW.minusSeconds(4 * 86400));
        try (var s = Files.walk(a4dir)) {
            for (Path p : s.toList()) Files.setLastModifiedTime(p, old);
        }
        Map<String, String> before = ClaudeTestHomes.tree(home);
        AuditEngine.Outcome o = audit(0);
        String child = id("B_medium") + "/agent-b2c3d4e5f6a7";
        assertTrue(
                o.plan().items().stream()
                        .anyMatch(
                                i -> i.session_id().equals(child) && i.action().equals("delete")),
                "rule A or the cascade");
        ApplyResult r = apply(o.result().plan_id(), Map.of("B", "approve"));
        assertTrue(
                executed(r).containsAll(Set.of(id("B_medium"), child)),
                executed(r).toString());
        assertFalse(Files.exists(a4dir));
        assertFalse(Files.exists(file("B_medium")));
        RestoreEngine.Result back =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), List.of(id("B_medium")));
        assertTrue(
                back.restored().containsAll(List.of(id("B_medium"), child)),
                back.restored().toString());
        Map<String, String> now = ClaudeTestHomes.tree(home);
        for (String k : before.keySet()) {
            if (k.contains(id("B_medium"))) assertEquals(before.get(k), now.get(k), k);
        }
        SessionsIndex.Read idx = SessionsIndex.read(home.resolve("projects/-home-dev-webapp/sessions-index.json"));
        assertTrue(idx.sessionIds().contains(id("B_medium")), "a partial restore re-inserts the entry");
    }

    @Test
    void anInterruptedApplyIsRestoredPathByPath() throws Exception {
        Path a4dir = home.resolve("projects/-home-dev-webapp").resolve(id("B_medium"));
        Files.createDirectories(a4dir.resolve("tool-results"));
        Files.writeString(a4dir.resolve("tool-results/t.txt"), "output\n");
        try (var s = Files.walk(a4dir)) {
            for (Path p : s.toList())
                Files.setLastModifiedTime(p, FileTime.from(TestHomes.NOW.minusSeconds(4 * 86400)));
        }
        Map<String, String> before = ClaudeTestHomes.tree(home);
        ApplyResult r = apply(audit(0).result().plan_id(), Map.of("B", "approve"));
        assertTrue(executed(r).contains(id("B_medium")));
        // a backup is only restored into the Claude home it came from
        Path other = tmp.resolve("other-claude");
        Files.createDirectories(other.resolve("projects"));
        RestoreEngine.Result wrongHome = new RestoreEngine(paths.withClaudeHome(other), TestHomes.CLOCK)
                .restore(r.backup().backup_id(), null);
        assertTrue(wrongHome.restored().isEmpty());
        assertTrue(
                wrongHome.skipped().stream()
                        .allMatch(s -> s.reason().startsWith("backed up from the Claude Code home")),
                wrongHome.toString());
        // as if the apply had stopped after the transcript: the directory never left
        Path saved = paths.stateDir()
                .resolve("backups/sessions/" + r.backup().backup_id() + ".files/claude/projects/-home-dev-webapp")
                .resolve(id("B_medium"));
        FileTrees.copy(saved, a4dir);
        FileTrees.delete(saved);
        RestoreEngine.Result back =
                new RestoreEngine(paths, TestHomes.CLOCK).restore(r.backup().backup_id(), List.of(id("B_medium")));
        assertTrue(back.restored().contains(id("B_medium")), back.toString());
        assertTrue(
                back.skipped().stream().anyMatch(s -> s.reason().startsWith("partly restored")),
                back.skipped().toString());
        Map<String, String> now = ClaudeTestHomes.tree(home);
        for (String k : before.keySet()) if (k.contains(id("B_medium"))) assertEquals(before.get(k), now.get(k), k);
    }

    @Test
    void aSessionAppendedToAfterTheAuditIsSkipped() throws Exception {
        AuditEngine.Outcome o = audit(0);
        Path f = file("B_high");
        FileTime t = Files.getLastModifiedTime(f);
        Files.writeString(f, "{\"type\":\"user\",\"message\":{\"content\":\"one more\"}}\n", StandardOpenOption.APPEND);
        Files.setLastModifiedTime(f, t); // even with its old time: the size changed
        byte[] bytes = Files.readAllBytes(f);
        ApplyResult r = apply(o.result().plan_id(), Map.of());
        assertEquals("changed since audit", skipped(r).get(id("B_high")));
        assertArrayEquals(bytes, Files.readAllBytes(f));
    }

    @Test
    void theSubagentsOfASessionThatBecameCurrentAfterTheAuditAreKept() throws Exception {
        // audited while the session had ended: its subagent's transcript is planned for deletion; then the user
        // resumes the session and Steward is called from it
        AuditEngine.Outcome o = audit(0);
        String sub = id("A_subagent");
        assertTrue(o.plan().items().stream()
                .anyMatch(i -> i.session_id().equals(sub) && i.action().equals("delete")));
        Path dir = home.resolve("projects/-home-dev-webapp").resolve(id("ended_titled"));
        Map<String, String> before = ClaudeTestHomes.tree(dir);
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of(), Map.of(), false, id("ended_titled")));
        assertEquals(
                "its session became the current session",
                skipped(r).get(sub),
                skipped(r).toString());
        assertFalse(executed(r).contains(sub));
        assertEquals(before, ClaudeTestHomes.tree(dir), "the current session's subagent transcripts stay in place");
    }

    @Test
    void aJsonlFileNotNamedBySessionUuidIsNotASessionAndIsLeftAlone() throws Exception {
        // Claude Code lists only <uuid>.jsonl as sessions: a user's copy or another tool's export is not one
        Path dir = home.resolve("projects/-home-dev-webapp");
        Path copy = dir.resolve(id("B_high") + " copy.jsonl");
        Files.copy(file("B_high"), copy);
        Path export = dir.resolve("usage-export.jsonl");
        Files.writeString(export, "{\"ts\":\"2026-07-01\",\"cost\":0.12}\n");
        FileTime old = FileTime.from(TestHomes.NOW.minusSeconds(40 * 86400));
        Files.setLastModifiedTime(copy, old);
        Files.setLastModifiedTime(export, old);
        byte[] copyBytes = Files.readAllBytes(copy), exportBytes = Files.readAllBytes(export);
        AuditEngine.Outcome o = audit(0);
        assertTrue(
                o.plan().items().stream()
                        .noneMatch(i -> i.session_id().contains("copy")
                                || i.session_id().contains("usage-export")),
                o.plan().items().toString());
        ApplyResult r = apply(o.result().plan_id(), Map.of("B", "approve"));
        assertTrue(executed(r).contains(id("B_high")), executed(r).toString());
        assertArrayEquals(copyBytes, Files.readAllBytes(copy));
        assertArrayEquals(exportBytes, Files.readAllBytes(export));
    }

    @Test
    void aFileModifiedMomentsAgoOrOpenInClaudeCodeIsNeverMoved() throws Exception {
        // idle time of 3 minutes: a session written 4 minutes ago counts as ended, but is still inside the quiet period
        Files.setLastModifiedTime(file("B_high"), FileTime.from(TestHomes.NOW.minusSeconds(240)));
        Path reg = home.resolve("sessions");
        Files.createDirectories(reg);
        Files.writeString(
                reg.resolve(ProcessHandle.current().pid() + ".json"),
                "{\"pid\":" + ProcessHandle.current().pid() + ",\"sessionId\":\"" + id("B_empty") + "\"}");
        AuditEngine.Outcome o = audit(0.05);
        assertTrue(o.plan().items().stream()
                .anyMatch(i -> i.session_id().equals(id("B_high")) && i.action().equals("delete")));
        assertTrue(
                o.plan().items().stream().noneMatch(i -> i.session_id().equals(id("B_empty"))),
                "registered as running: live");
        ApplyResult r = apply(o.result().plan_id(), Map.of());
        assertTrue(
                skipped(r).get(id("B_high")).startsWith("being written"),
                skipped(r).toString());
        assertTrue(Files.exists(file("B_high")));
        assertTrue(Files.exists(file("B_empty")));
    }

    @Test
    void symlinksOutOfTheClaudeHomeAreRefused() throws Exception {
        Path outside = tmp.resolve("outside/proj");
        Files.createDirectories(outside);
        Path foreign = outside.resolve("11111111-2222-3333-4444-555555555555.jsonl");
        Files.writeString(
                foreign,
                "{\"type\":\"user\",\"message\":{\"content\":\"hi\"},\"timestamp\":\"2026-08-01T00:00:00Z\"}\n");
        Files.setLastModifiedTime(foreign, FileTime.from(TestHomes.NOW.minusSeconds(5 * 86400)));
        Files.createSymbolicLink(home.resolve("projects/-linked-project"), outside);
        Path linkedFile = home.resolve("projects/-home-dev-scratch/22222222-3333-4444-5555-666666666666.jsonl");
        Files.createSymbolicLink(linkedFile, foreign);
        AuditEngine.Outcome o = audit(0);
        assertTrue(
                o.plan().items().stream().anyMatch(i -> i.session_id().equals("11111111-2222-3333-4444-555555555555")));
        ApplyResult r = apply(o.result().plan_id(), Map.of());
        assertTrue(
                skipped(r).get("11111111-2222-3333-4444-555555555555").contains("symlink"),
                skipped(r).toString());
        assertTrue(
                skipped(r).get("22222222-3333-4444-5555-666666666666").contains("symlink"),
                skipped(r).toString());
        assertTrue(Files.exists(foreign));
        assertTrue(Files.isSymbolicLink(linkedFile));
    }

    @Test
    void renamesOfClaudeSessionsAreRefusedAndChangeNothing() throws Exception {
        Map<String, String> before = ClaudeTestHomes.tree(home);
        AuditEngine.Outcome o = audit(0);
        StewardError e = assertThrows(
                StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .apply(new ApplyRequest(
                                o.result().plan_id(),
                                Map.of(),
                                Map.of(),
                                Map.of(id("B_medium"), "New name"),
                                false,
                                null)));
        assertTrue(e.getMessage().contains("does not rename Claude Code sessions"), e.getMessage());
        assertEquals(before, ClaudeTestHomes.tree(home));
    }

    @Test
    void bothHomesInOnePlanOneBackupAndAFailingHermesPartTakesTheClaudePartBack() throws Exception {
        Path hermes = TestHomes.copyFixture(tmp);
        paths = StewardPaths.of(hermes, home);
        String current = TestHomes.manifest().get("current_session_id").asString();
        List<String> hermesBefore = TestHomes.logicalDump(hermes.resolve("state.db"));
        Map<String, String> claudeBefore = ClaudeTestHomes.tree(home);
        AuditEngine.Outcome o = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500));
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .apply(new ApplyRequest(o.result().plan_id(), Map.of(), Map.of(), Map.of(), false, current));
        assertTrue(executed(r).contains(id("B_high")));
        assertTrue(r.executed().size() > 6, "Hermes items ran too");
        String bid = r.backup().backup_id();
        assertTrue(Files.isRegularFile(paths.stateDir().resolve("backups/sessions/" + bid + ".jsonl")));
        assertTrue(Files.isRegularFile(paths.stateDir().resolve("backups/sessions/" + bid + ".claude.jsonl")));
        new RestoreEngine(paths, TestHomes.CLOCK).restore(bid, null);
        assertEquals(claudeBefore, ClaudeTestHomes.tree(home));
        assertEquals(
                hermesBefore,
                TestHomes.logicalDump(hermes.resolve("state.db")),
                "restored with new message row ids, as Hermes' import does");

        // a second audit, then the Hermes database breaks (same file, garbage inside): nothing may stay moved
        AuditEngine.Outcome o2 = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500));
        Files.deleteIfExists(hermes.resolve("state.db-wal"));
        Files.deleteIfExists(hermes.resolve("state.db-shm"));
        Files.write(hermes.resolve("state.db"), new byte[4096], StandardOpenOption.TRUNCATE_EXISTING);
        assertThrows(
                StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .callerCwd(ClaudeTestHomes.CALLER_CWD)
                        .apply(new ApplyRequest(o2.result().plan_id(), Map.of(), Map.of(), Map.of(), false, current)));
        assertEquals(claudeBefore, ClaudeTestHomes.tree(home), "the Claude Code part was moved back");
        try (var l = Files.list(paths.stateDir().resolve("backups/sessions"))) {
            assertTrue(
                    l.allMatch(f -> f.getFileName().toString().startsWith(bid)),
                    "the failed apply left no backup behind, only the first apply's is there");
        }
    }

    /**
     * A plan of Claude Code only with nothing in it (a home with nothing to clean) applies as nothing to do, as a plan
     * whose items were all rejected does: it never opens Hermes' state.db, which a Claude Code-only user does not have
     * (it failed with "state.db: no such file").
     */
    @Test
    void anEmptyClaudeOnlyPlanAppliesAsNothingToDoWithoutAHermesHome() throws Exception {
        Path claude = tmp.resolve("only-current/.claude");
        Path project = Files.createDirectories(claude.resolve("projects")
                .resolve(steward.claude.ClaudeHome.encodeCwd(ClaudeTestHomes.CALLER_CWD.toString())));
        Path t = project.resolve("3f2a1b0c-0000-4000-8000-000000000001.jsonl");
        Files.writeString(
                t,
                "{\"type\":\"user\",\"sessionId\":\"3f2a1b0c-0000-4000-8000-000000000001\",\"cwd\":\""
                        + ClaudeTestHomes.CALLER_CWD + "\",\"message\":{\"role\":\"user\",\"content\":\"hi\"},"
                        + "\"uuid\":\"u1\",\"timestamp\":\"2026-08-10T11:58:00.000Z\"}\n"
                        + "{\"type\":\"ai-title\",\"aiTitle\":\"Current work\",\"sessionId\":\"3f2a1b0c-0000-4000-8000-000000000001\"}\n");
        Files.setLastModifiedTime(t, FileTime.from(TestHomes.NOW.minusSeconds(60)));
        Path noHermes = tmp.resolve("only-current/no-hermes");
        paths = StewardPaths.claudeOnly(noHermes, claude);
        AuditEngine.Outcome o = new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, "claude", 0));
        assertTrue(
                o.result().decision_groups().isEmpty(),
                o.result().decision_groups().toString());
        String plan = o.result().plan_id();
        ApplyResult dry = new ApplyEngine(paths, TestHomes.CLOCK)
                .store("claude")
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .apply(new ApplyRequest(plan, Map.of(), Map.of(), Map.of(), true, null));
        assertTrue(dry.executed().isEmpty());
        ApplyResult r = new ApplyEngine(paths, TestHomes.CLOCK)
                .store("claude")
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .apply(new ApplyRequest(plan, Map.of(), Map.of(), Map.of(), false, null));
        assertTrue(r.executed().isEmpty());
        assertTrue(r.skipped().isEmpty());
        assertEquals(null, r.backup());
        assertTrue(
                r.checklist().stream().allMatch(ApplyResult.Check::ok),
                r.checklist().toString());
        assertEquals(1, r.after().all());
        assertTrue(Files.exists(t));
        assertFalse(Files.exists(noHermes), "nothing of Hermes was opened or created");
        // the plan ran: applying it again is refused as used
        StewardError again = assertThrows(
                StewardError.class,
                () -> new ApplyEngine(paths, TestHomes.CLOCK)
                        .callerCwd(ClaudeTestHomes.CALLER_CWD)
                        .apply(new ApplyRequest(plan, Map.of(), Map.of(), Map.of(), false, null)));
        assertTrue(again.getMessage().contains("used"), again.getMessage());
    }
}
