package steward.sessions.apply;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import steward.claude.SessionsIndex;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.learning.Preferences;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.backup.SessionBackup;
import steward.state.FileMoves;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Claude Code part of a session_apply killed at each phase (a child process halted at a named point, as SIGKILL
 * would): the next call's recovery takes it back from its journal, so that every transcript is at its place with its
 * {@code sessions-index.json} entry (byte for byte as before), nothing of the part stays in the backup, the journal is
 * gone and the plan can be applied again. A file written at a moved one's place since is never overwritten.
 */
class ClaudeApplyCrashTest {
    static final String API_CHAIN_ROOT = "01f3d249-6835-3151-a125-68086d92ab04";
    static final String API_B_HIGH = "39f47039-b781-37ee-89a0-3beb2725164d";

    @TempDir
    Path tmp;

    Path claude;
    StewardPaths paths;
    Map<String, String> before;
    /** Every usable sessions-index.json (relative path) → its bytes before the apply. */
    Map<String, byte[]> indexesBefore = new LinkedHashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        claude = ClaudeTestHomes.install(tmp, false);
        paths = ClaudeTestHomes.claudeOnly(tmp, claude);
        // a second usable index (the notes one cannot be parsed): the part rewrites two, so a kill can fall between
        Path api = claude.resolve("projects/-home-dev-api");
        ObjectNode idx = Json.MAPPER.createObjectNode();
        idx.put("version", 1);
        idx.put("originalPath", "/home/dev/api");
        ArrayNode entries = idx.putArray("entries");
        for (String id : List.of(API_CHAIN_ROOT, API_B_HIGH)) {
            ObjectNode e = entries.addObject();
            e.put("sessionId", id);
            e.put("fullPath", "/home/dev/.claude/projects/-home-dev-api/" + id + ".jsonl");
            e.put(
                    "fileMtime",
                    Files.getLastModifiedTime(api.resolve(id + ".jsonl")).toMillis());
            e.put("messageCount", 6);
            e.put("projectPath", "/home/dev/api");
            e.put("isSidechain", false);
        }
        Files.writeString(api.resolve(SessionsIndex.FILE), SessionsIndex.stringify(idx, 2) + "\n");
        Files.setLastModifiedTime(
                api.resolve(SessionsIndex.FILE), FileTime.from(TestHomes.NOW.minusSeconds(4 * 86400)));
        before = ClaudeTestHomes.tree(claude);
        for (String p : List.of("projects/-home-dev-webapp", "projects/-home-dev-api")) {
            String rel = p + "/" + SessionsIndex.FILE;
            indexesBefore.put(rel, Files.readAllBytes(claude.resolve(rel)));
        }
    }

    Plan audit() {
        return new AuditEngine(paths, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(null, TestHomes.NOW, "interactive", "en", 500, null, 0.0))
                .plan();
    }

    /** Applies the plan in a child process halted at {@code crashpoint}; returns its exit status. */
    int child(String crashpoint, String planId) throws Exception {
        return sessionsMain(
                crashpoint, "apply-claude", claude.toString(), ClaudeTestHomes.CALLER_CWD.toString(), planId);
    }

    /** Runs {@link SessionsMain} on this Claude Code home (no Hermes home), halted at {@code crashpoint}. */
    int sessionsMain(String crashpoint, String... args) throws Exception {
        return ApplyCrashTest.sessionsMain(tmp.resolve("no-hermes"), crashpoint, args);
    }

    ApplyResult apply(String planId) {
        return new ApplyEngine(paths, TestHomes.CLOCK)
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .apply(new ApplyRequest(planId, Map.of(), Map.of(), Map.of(), false, null));
    }

    Path journalDir() {
        return paths.stateDir().resolve("journal");
    }

    Path backups() {
        return paths.stateDir().resolve("backups/sessions");
    }

    /** The backup id of the one Claude Code journal the killed child left. */
    String journalBackupId() throws Exception {
        List<String> ids = new ArrayList<>();
        for (String f : ApplyFailureTest.tree(journalDir()).keySet())
            if (f.endsWith(".claude.json")) ids.add(f.substring(0, f.length() - ".claude.json".length()));
        assertEquals(1, ids.size(), "one Claude Code journal: " + ApplyFailureTest.tree(journalDir()));
        return ids.get(0);
    }

    /** Every session the plan's HIGH items delete: its transcript's path in the home. */
    Map<String, Path> transcripts(Plan plan) {
        Map<String, Path> out = new TreeMap<>();
        for (Plan.PlanItem i : plan.items()) {
            if (!i.storeName().equals("claude") || !i.action().equals("delete") || !i.automatic()) continue;
            if (i.session_id().contains("/")) continue; // a subagent: moves inside its session's directory
            try (Stream<Path> s = Files.walk(claude.resolve("projects"))) {
                s.filter(p -> p.getFileName().toString().equals(i.session_id() + ".jsonl"))
                        .findFirst()
                        .ifPresent(p -> out.put(i.session_id(), p));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        return out;
    }

    void assertEverythingBackAsBefore(String backupId) throws Exception {
        assertEquals(before, ClaudeTestHomes.tree(claude), "every file back at its place, byte for byte");
        for (Map.Entry<String, byte[]> e : indexesBefore.entrySet())
            assertArrayEquals(e.getValue(), Files.readAllBytes(claude.resolve(e.getKey())), e.getKey());
        assertEquals(Map.of(), ApplyFailureTest.tree(journalDir()), "journal and lock file gone once settled");
        SessionBackup bk = new SessionBackup(paths.stateDir());
        assertFalse(Files.exists(bk.claudeFile(backupId)), "the backup's Claude Code part is gone");
        assertFalse(Files.exists(bk.filesDir(backupId)), "nothing of it left in the backup");
        assertTrue(
                new ApplyJournal(paths, TestHomes.CLOCK).recover().notices().isEmpty(), "settling twice does nothing");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "apply.claude-claimed",
                "apply.claude-prepared",
                "apply.claude-moved-one",
                "apply.claude-moved",
                "apply.claude-index-one",
                "apply.claude-indexes"
            })
    void aPartKilledAtAnyPhaseIsTakenBackWholeByTheNextCall(String point) throws Exception {
        Plan plan = audit();
        Map<String, Path> moved = transcripts(plan);
        assertTrue(moved.containsKey(API_B_HIGH) && moved.size() >= 3, moved.toString());
        assertEquals(137, child(point, plan.plan_id()), "the child halted at " + point);
        String backupId = journalBackupId();
        if (!point.equals("apply.claude-claimed") && !point.equals("apply.claude-prepared"))
            assertNotEquals(before, ClaudeTestHomes.tree(claude), "the kill left the home half-changed");
        if (point.equals("apply.claude-index-one")) {
            int rewritten = 0;
            for (Map.Entry<String, byte[]> e : indexesBefore.entrySet())
                if (!java.util.Arrays.equals(e.getValue(), Files.readAllBytes(claude.resolve(e.getKey())))) rewritten++;
            assertEquals(1, rewritten, "one index rewritten, the other not");
        }
        List<String> waiting = ApplyCrashTest.interrupted(paths);
        assertTrue(waiting.size() == 1 && waiting.get(0).contains(backupId + ".claude.json"), waiting.toString());

        ApplyJournal.Recovery rec = new ApplyJournal(paths, TestHomes.CLOCK).recover();
        assertEquals(List.of(), ApplyCrashTest.interrupted(paths), "settled: status no longer says so");
        assertEquals(1, rec.notices().size(), rec.notices().toString());
        String notice = rec.notices().get(0);
        assertTrue(
                notice.contains("was interrupted while it moved Claude Code sessions into backup " + backupId)
                        && notice.contains("taken back")
                        && notice.contains("the plan can be applied again"),
                notice);
        assertEverythingBackAsBefore(backupId);
        for (Map.Entry<String, Path> e : moved.entrySet()) {
            assertTrue(Files.isRegularFile(e.getValue()), e.getKey());
            SessionsIndex.Read idx = SessionsIndex.read(e.getValue().resolveSibling(SessionsIndex.FILE));
            if (idx.usable()
                    && indexesBefore.containsKey(claude.relativize(idx.file()).toString()))
                assertTrue(idx.sessionIds().contains(e.getKey()), "listed again: " + e.getKey());
        }

        // the plan was released: applying it now moves its sessions, and their entries leave the indexes
        ApplyResult r = apply(plan.plan_id());
        assertTrue(r.backup() != null, String.valueOf(r.backup()));
        Set<String> executed = new java.util.TreeSet<>();
        r.executed().forEach(x -> executed.add(x.session_id()));
        assertTrue(executed.contains(API_B_HIGH), executed.toString());
        for (Map.Entry<String, Path> e : moved.entrySet()) {
            if (!executed.contains(e.getKey())) continue; // skipped (its project's index cannot be parsed)
            assertFalse(Files.exists(e.getValue()), e.getKey());
            SessionsIndex.Read idx = SessionsIndex.read(e.getValue().resolveSibling(SessionsIndex.FILE));
            if (idx.usable()) assertFalse(idx.sessionIds().contains(e.getKey()), e.getKey());
        }
        assertEquals(Map.of(), ApplyFailureTest.tree(journalDir()), "a complete part leaves no journal");
    }

    int recoverChild(String crashpoint) throws Exception {
        return sessionsMain(crashpoint, "recover-claude", claude.toString());
    }

    /** Settling is idempotent: a recovery killed with the files back and the indexes not, run again, ends as one run. */
    @Test
    void aRecoveryKilledMidwayEndsRunAgainAsIfItHadNotBeen() throws Exception {
        Plan plan = audit();
        assertEquals(137, child("apply.claude-index-one", plan.plan_id()));
        String backupId = journalBackupId();
        assertEquals(137, recoverChild("recover.claude-files-back"), "the recovery halted with the files back");
        assertEquals(backupId, journalBackupId(), "the journal stays until the part is settled");

        ApplyJournal.Recovery rec = new ApplyJournal(paths, TestHomes.CLOCK).recover();
        assertEquals(1, rec.notices().size(), rec.notices().toString());
        String notice = rec.notices().get(0);
        assertTrue(
                notice.contains("taken back")
                        && notice.contains("1 " + SessionsIndex.FILE + " restored")
                        && notice.contains("the plan can be applied again"),
                notice);
        assertEverythingBackAsBefore(backupId);
        assertTrue(apply(plan.plan_id()).backup() != null, "the plan applies again");
    }

    @Test
    void withoutAJournalRecoveryCreatesNothing() throws Exception {
        Map<String, String> state = ApplyFailureTest.tree(paths.stateDir());
        assertTrue(new ApplyJournal(paths, TestHomes.CLOCK).recover().notices().isEmpty());
        assertEquals(state, ApplyFailureTest.tree(paths.stateDir()), "nothing created in the state dir");
        assertEquals(before, ClaudeTestHomes.tree(claude));
    }

    @Test
    void aFileWrittenAtAMovedOnesPlaceSinceIsNeverOverwrittenBothAreKept() throws Exception {
        Plan plan = audit();
        Path resumed = transcripts(plan).get(API_B_HIGH);
        String rel = claude.relativize(resumed).toString();
        assertEquals(137, child("apply.claude-moved", plan.plan_id()));
        String backupId = journalBackupId();
        Path inBackup = new SessionBackup(paths.stateDir())
                .filesDir(backupId)
                .resolve("claude")
                .resolve(rel);
        assertFalse(Files.exists(resumed));
        assertTrue(Files.isRegularFile(inBackup));
        // Claude Code resumes the session after the crash: a new transcript at the moved one's place
        Files.writeString(resumed, "{\"type\":\"user\",\"written\":\"after the crash\"}\n");
        String resumedSha = FileMoves.sha256(resumed);

        ApplyJournal.Recovery rec = new ApplyJournal(paths, TestHomes.CLOCK).recover();
        assertEquals(1, rec.notices().size(), rec.notices().toString());
        String notice = rec.notices().get(0);
        assertTrue(notice.contains("1 stay in backup " + backupId) && notice.contains(rel), notice);
        assertEquals(resumedSha, FileMoves.sha256(resumed), "the new file is left as it is");
        assertEquals(before.get(rel), FileMoves.sha256(inBackup), "the moved one stays whole in the backup");
        Map<String, String> now = ClaudeTestHomes.tree(claude);
        Map<String, String> want = new TreeMap<>(before);
        want.put(rel, resumedSha);
        assertEquals(want, now, "everything else back, byte for byte");
        assertArrayEquals(
                indexesBefore.get("projects/-home-dev-api/" + SessionsIndex.FILE),
                Files.readAllBytes(claude.resolve("projects/-home-dev-api/" + SessionsIndex.FILE)),
                "the index lists the session at its place again");
        SessionBackup bk = new SessionBackup(paths.stateDir());
        assertTrue(Files.isRegularFile(bk.claudeFile(backupId)), "the backup still names what it keeps");
        assertFalse(Files.exists(ClaudeJournal.file(paths, backupId)), "settled: the journal is gone");
        assertTrue(new ApplyJournal(paths, TestHomes.CLOCK).recover().notices().isEmpty());
    }

    @Test
    void anIndexClaudeCodeRewroteSinceGetsTheRemovedEntriesBackAndKeepsItsNewOnes() throws Exception {
        Plan plan = audit();
        assertEquals(137, child("apply.claude-index-one", plan.plan_id()));
        String backupId = journalBackupId();
        String rewritten = null;
        for (Map.Entry<String, byte[]> e : indexesBefore.entrySet())
            if (!java.util.Arrays.equals(e.getValue(), Files.readAllBytes(claude.resolve(e.getKey()))))
                rewritten = e.getKey();
        assertTrue(rewritten != null, "one index was rewritten before the kill");
        Path file = claude.resolve(rewritten);
        // Claude Code adds a new session to it meanwhile
        Set<String> listedBefore =
                SessionsIndex.parse(file, indexesBefore.get(rewritten)).sessionIds();
        SessionsIndex.Read now = SessionsIndex.read(file);
        ObjectNode root = now.root().deepCopy();
        ((ArrayNode) root.get("entries"))
                .addObject()
                .put("sessionId", "0e0e0e0e-0000-4000-8000-000000000001")
                .put("isSidechain", false);
        Files.writeString(file, SessionsIndex.stringify(root, 2) + "\n");

        ApplyJournal.Recovery rec = new ApplyJournal(paths, TestHomes.CLOCK).recover();
        assertEquals(1, rec.notices().size(), rec.notices().toString());
        SessionsIndex.Read after = SessionsIndex.read(file);
        assertTrue(after.usable());
        assertTrue(after.sessionIds().containsAll(listedBefore), "every removed entry is back");
        assertTrue(after.sessionIds().contains("0e0e0e0e-0000-4000-8000-000000000001"), "the new one kept");
        // its entries where they stood, in file order
        List<String> order = new ArrayList<>();
        for (JsonNode e : after.root().get("entries"))
            order.add(e.get("sessionId").asString());
        List<String> orderBefore = new ArrayList<>();
        for (JsonNode e :
                SessionsIndex.parse(file, indexesBefore.get(rewritten)).root().get("entries"))
            orderBefore.add(e.get("sessionId").asString());
        assertEquals(orderBefore, order.subList(0, orderBefore.size()));
        Map<String, String> tree = ClaudeTestHomes.tree(claude);
        tree.remove(rewritten);
        Map<String, String> want = new TreeMap<>(before);
        want.remove(rewritten);
        assertEquals(want, tree, "every transcript back, byte for byte");
        assertEquals(Map.of(), ApplyFailureTest.tree(journalDir()));
        assertFalse(Files.exists(new SessionBackup(paths.stateDir()).claudeFile(backupId)));
    }

    @Test
    void aPartKilledWhileAFailedHermesPartTookItBackIsTakenBackByTheNextCall() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StewardPaths both = StewardPaths.of(home, claude);
        paths = both;
        String current = TestHomes.manifest().get("current_session_id").asString();
        Plan plan = new AuditEngine(both, TestHomes.CLOCK, Preferences.empty())
                .callerCwd(ClaudeTestHomes.CALLER_CWD)
                .audit(new AuditRequest(current, TestHomes.NOW, "interactive", "en", 500))
                .plan();
        assertTrue(plan.items().stream().anyMatch(i -> i.storeName().equals("claude") && i.automatic()));
        ApplyFailureTest.breakHermes(both.stateDb(), "constraint");
        List<String> dbBefore = TestHomes.dump(both.stateDb());
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dsteward.crashpoint=apply.claude-undo-one",
                "-cp",
                System.getProperty("java.class.path"),
                SessionsMain.class.getName(),
                home.toString(),
                "apply-both",
                claude.toString(),
                ClaudeTestHomes.CALLER_CWD.toString(),
                plan.plan_id(),
                current);
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(137, p.exitValue(), "halted while the Claude Code part was being taken back");
        String backupId = journalBackupId();
        assertNotEquals(before, ClaudeTestHomes.tree(claude), "not all of it was back yet");

        ApplyJournal.Recovery rec = new ApplyJournal(both, TestHomes.CLOCK).recover();
        assertEquals(1, rec.notices().size(), rec.notices().toString());
        assertTrue(
                rec.notices().get(0).contains("(phase rollback)"), rec.notices().get(0));
        assertEquals(dbBefore, TestHomes.dump(both.stateDb()), "Hermes unchanged");
        assertEverythingBackAsBefore(backupId);
        assertEquals(Map.of(), ApplyFailureTest.tree(backups()), "no backup of an apply that changed nothing");
    }
}
