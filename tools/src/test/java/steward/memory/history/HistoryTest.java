package steward.memory.history;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.memory.MemoryRequest;
import steward.memory.MemoryWriter;

class HistoryTest {
    @TempDir
    Path tmp;

    StewardPaths home() throws Exception {
        Path h = tmp.resolve("home");
        Files.createDirectories(h.resolve("memories"));
        Files.createDirectories(h.resolve("skills/ops/x"));
        return StewardPaths.of(h);
    }

    static Clock at(String t) {
        return Clock.fixed(Instant.parse(t), ZoneOffset.UTC);
    }

    /**
     * Crash bench (issue 12): a SIGKILL while JGit moved the branch left {@code refs/heads/main.lock}; every later version
     * then failed with LOCK_FAILURE (the write went on, its version was lost). Under the history's own lock no other
     * writer can hold a ref lock: a left one is stale and removed.
     */
    @Test
    void aRefLockLeftByAKilledWriterDoesNotStopLaterVersions() throws Exception {
        StewardPaths p = home();
        Files.writeString(p.memoriesDir().resolve("MEMORY.md"), "[env] first");
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "[env] second"));
        VersionStore store = new VersionStore(p.stateDir());
        assertEquals(2, store.count("memories/MEMORY.md"));
        Path git = store.repoDir();
        Files.writeString(git.resolve("refs/heads/main.lock"), "0000000000000000000000000000000000000000\n");
        Files.writeString(git.resolve("HEAD.lock"), "ref: refs/heads/main\n");
        Files.writeString(git.resolve("packed-refs.lock"), "");
        w.write(MemoryRequest.add("memory", "[env] third"));
        assertEquals(3, store.count("memories/MEMORY.md"), "the write after the kill is a version too");
        assertFalse(Files.exists(git.resolve("refs/heads/main.lock")));
        assertFalse(Files.exists(git.resolve("packed-refs.lock")));
    }

    /**
     * Probe: a branch ref left empty (a crash before the file system wrote it) or garbled made the history read as "0
     * versions", and the next write started a new history from scratch: every earlier version became unreachable.
     */
    @Test
    void aDamagedBranchRefIsRecoveredFromTheNewestVersionAndTheHistoryGoesOn() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] first");
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "[env] second"));
        new MemoryWriter(p, at("2026-08-10T12:01:00Z")).write(MemoryRequest.add("memory", "[env] third"));
        VersionStore store = new VersionStore(p.stateDir());
        List<VersionStore.Version> before = store.list("memories/MEMORY.md", 10);
        assertEquals(3, before.size());
        Path ref = store.repoDir().resolve("refs/heads/main");
        for (String damage : List.of("", "garbage\n")) {
            Files.writeString(ref, damage);
            assertEquals(
                    before.stream().map(VersionStore.Version::id).toList(),
                    store.list("memories/MEMORY.md", 10).stream()
                            .map(VersionStore.Version::id)
                            .toList(),
                    "the versions are still listed with a damaged ref '" + damage.strip() + "'");
        }
        new MemoryWriter(p, at("2026-08-10T12:02:00Z")).write(MemoryRequest.add("memory", "[env] fourth"));
        List<VersionStore.Version> after = store.list("memories/MEMORY.md", 10);
        assertEquals(4, after.size(), "the next version continues the history: " + after);
        assertEquals(before.get(0).id(), after.get(1).id());
        History h = new History(p, at("2026-08-10T12:03:00Z"));
        h.rollback("memories/MEMORY.md", before.get(2).id(), true);
        assertEquals("[env] first", Files.readString(mem));
    }

    @Test
    void everyMemoryWriteIsAVersionAndRollbackRestoresTheExactBytesAsANewVersion() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] first\n§\n[env] second  ");
        byte[] original = Files.readAllBytes(mem);
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "[env] third"));
        w.write(MemoryRequest.remove("memory", "first"));
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        History.ListResult l = h.list("memories/MEMORY.md", null);
        assertEquals(3, l.total(), "baseline (the bytes Steward first saw) + two writes: " + l.versions());
        assertEquals("baseline: first version Steward saw", l.versions().get(2).message());
        assertTrue(l.versions().get(0).message().startsWith("memory_write: remove"));
        String baseline = l.versions().get(2).id();
        History.DiffResult d = h.diff("memories/MEMORY.md", baseline, null);
        assertTrue(d.diff().contains("-[env] first") && d.diff().contains("+[env] third"), d.diff());
        assertFalse(d.identical());

        History.RollbackResult r = h.rollback("memories/MEMORY.md", baseline, true);
        assertTrue(r.changed());
        assertArrayEquals(original, Files.readAllBytes(mem), "exact bytes, trailing spaces included");
        assertTrue(Files.exists(Path.of(r.backup())), "the bytes it replaced are backed up");
        assertEquals(4, h.list("memories/MEMORY.md", null).total(), "the rollback is itself a version");
        assertTrue(h.list("memories/MEMORY.md", 1)
                .versions()
                .get(0)
                .message()
                .startsWith("rollback memories/MEMORY.md to " + baseline));
        assertTrue(h.diff("memories/MEMORY.md", baseline, null).identical());
        // rolling forward again is possible: nothing is ever lost
        String afterRemove =
                h.list("memories/MEMORY.md", null).versions().get(1).id();
        h.rollback("memories/MEMORY.md", afterRemove, true);
        assertEquals("[env] second\n§\n[env] third", Files.readString(mem));
    }

    /**
     * Probe: a rollback whose version could not be recorded (a broken history store) still left the memory file
     * changed: applied but in no version, so it could not be undone through the history. Now all or nothing: the bytes
     * before it are put back and the error says why.
     */
    @Test
    void aRollbackThatCannotBeRecordedLeavesTheFileAsItWas() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] first");
        new MemoryWriter(p, at("2026-08-10T12:00:00Z")).write(MemoryRequest.add("memory", "[env] second"));
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        String baseline = h.list("memories/MEMORY.md", null).versions().get(1).id();
        byte[] now = Files.readAllBytes(mem);
        // the history's lock file is a directory: reading versions works, recording one fails
        Path lock = p.stateDir().resolve("history/.lock");
        Files.deleteIfExists(lock);
        Files.createDirectories(lock);
        StewardError e = assertThrows(StewardError.class, () -> h.rollback("memories/MEMORY.md", baseline, true));
        assertArrayEquals(now, Files.readAllBytes(mem), "the file is as it was");
        assertTrue(e.getMessage().startsWith("memory_history: "), e.getMessage());
        assertTrue(e.getMessage().contains("not applied"), e.getMessage());
        // a file that was absent stays absent
        Files.delete(mem);
        assertThrows(StewardError.class, () -> h.rollback("memories/MEMORY.md", baseline, true));
        assertFalse(Files.exists(mem), "no file appeared");
        // with the store repaired the same rollback works and is a version
        Files.delete(lock);
        Files.write(mem, now);
        assertTrue(h.rollback("memories/MEMORY.md", baseline, true).changed());
        assertEquals("[env] first", Files.readString(mem));
        assertEquals(3, h.list("memories/MEMORY.md", null).total());
    }

    /** A memory file kept in a dotfiles checkout (a symlink): memory_write writes through it, and so does a rollback. */
    @Test
    void aRollbackOfASymlinkedMemoryFileWritesThroughTheLink() throws Exception {
        StewardPaths p = home();
        Path target = p.stateDir().getParent().resolve("dotfiles/MEMORY.md");
        Files.createDirectories(target.getParent());
        Files.writeString(target, "[env] first");
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.createSymbolicLink(mem, target);
        new MemoryWriter(p, at("2026-08-10T12:00:00Z")).write(MemoryRequest.add("memory", "[env] second"));
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        String baseline = h.list("memories/MEMORY.md", null).versions().get(1).id();
        assertTrue(h.rollback("memories/MEMORY.md", baseline, true).changed());
        assertTrue(Files.isSymbolicLink(mem), "the link stays");
        assertEquals("[env] first", Files.readString(target), "the file it points at is rolled back");
    }

    @Test
    void rollbackOfAnyFileUnderSkillsKeepsNonUtf8BytesAndRefusesBadArguments() throws Exception {
        StewardPaths p = home();
        Path skill = p.skillsDir().resolve("ops/x/SKILL.md");
        byte[] v1 = new byte[] {'a', '\r', '\n', (byte) 0xff, (byte) 0xfe, 'z'};
        Files.write(skill, v1);
        Map<Path, byte[]> before = new HashMap<>();
        before.put(skill, v1);
        Files.writeString(skill, "v2");
        History h = new History(p, at("2026-08-10T12:00:00Z"));
        h.record("skill edit", before);
        List<VersionStore.Version> vs = h.list("skills/ops/x/SKILL.md", null).versions();
        assertEquals(2, vs.size());
        h.rollback("skills/ops/x/SKILL.md", vs.get(1).id(), true);
        assertArrayEquals(v1, Files.readAllBytes(skill));
        for (String bad : List.of("../etc/passwd", "/etc/passwd", "state.db", "memories/../state.db")) {
            assertThrows(StewardError.class, () -> h.list(bad, null), bad);
        }
        assertThrows(StewardError.class, () -> h.rollback("skills/ops/x/SKILL.md", "zzzz", true));
        assertThrows(StewardError.class, () -> h.rollback("skills/ops/x/SKILL.md", "0000000", true));
        assertFalse(Files.exists(p.hermesHome().resolve(".git")), "the repository never lives inside the user's files");
        assertTrue(Files.isDirectory(p.stateDir().resolve("history/repo.git")));
    }

    /**
     * Probe: "memories/MEMORY.md/" passed validation; rollback restored the bytes, then JGit refused the path when
     * recording, so the tool reported an internal error for a change it had made and the change was not in the
     * history. "memories/./MEMORY.md" listed 0 versions and "memories/" listed the directory's tree as a file.
     */
    @Test
    void aFileArgumentIsReadAsItsNormalPathAndADirectoryIsRefused() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] first");
        byte[] first = Files.readAllBytes(mem);
        new MemoryWriter(p, at("2026-08-10T12:00:00Z")).write(MemoryRequest.add("memory", "[env] second"));
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        for (String odd :
                List.of("memories/./MEMORY.md", "memories//MEMORY.md", "memories\\MEMORY.md", " memories/MEMORY.md/")) {
            History.ListResult l = h.list(odd, null);
            assertEquals("memories/MEMORY.md", l.file(), odd);
            assertEquals(2, l.total(), odd);
        }
        String baseline = h.list("memories/MEMORY.md", null).versions().get(1).id();
        History.RollbackResult r = h.rollback("memories/MEMORY.md/", baseline, true);
        assertEquals("memories/MEMORY.md", r.file());
        assertArrayEquals(first, Files.readAllBytes(mem));
        assertEquals(3, h.list("memories/MEMORY.md", null).total(), "the rollback is recorded");
        for (String dir : List.of("memories/", "memories/.", "skills/ops")) {
            assertThrows(StewardError.class, () -> h.list(dir, null), dir);
            assertThrows(StewardError.class, () -> h.rollback(dir, baseline, true), dir);
        }
    }

    /**
     * Review of 2026-12-05: a rollback silently dropped the entries written after the version it restored (by Steward or
     * by Hermes' own memory tool) and said only "restored … as version …". One that would remove entries present now
     * changes nothing without confirm and names them; with confirm it rolls back and names what it removed.
     */
    @Test
    void aRollbackThatWouldRemoveEntriesWaitsForConfirmAndNamesThem() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] one");
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "stewA"));
        // Hermes' own memory tool rewrites the file as its entries joined by the delimiter (no version: not opted in)
        Files.writeString(mem, "[env] one\n§\nstewA\n§\nhermesH1-0");
        w.write(MemoryRequest.add("memory", "stewB"));
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        List<VersionStore.Version> vs = h.list("memories/MEMORY.md", null).versions();
        String stewA = vs.get(1).id();
        byte[] now = Files.readAllBytes(mem);

        History.RollbackResult asked = h.rollback("memories/MEMORY.md", stewA, false);
        assertFalse(asked.changed());
        assertTrue(asked.needs_confirm());
        assertEquals(List.of("hermesH1-0", "stewB"), asked.would_remove());
        assertEquals(0, asked.would_remove_left_out());
        assertEquals(List.of(), asked.would_restore());
        assertEquals(null, asked.removed_entries());
        assertArrayEquals(now, Files.readAllBytes(mem), "nothing changed without confirm");
        assertEquals(3, h.list("memories/MEMORY.md", null).total(), "and no version was made");

        History.RollbackResult done = h.rollback("memories/MEMORY.md", stewA, true);
        assertTrue(done.changed());
        assertFalse(done.needs_confirm());
        assertEquals(List.of("hermesH1-0", "stewB"), done.removed_entries());
        assertEquals("[env] one\n§\nstewA", Files.readString(mem));
        assertEquals(List.of(), done.warnings());
    }

    /**
     * memory_consolidate adds and rewrites confidence prefixes: "[0.7] x" and "x" are the same fact. A rollback that only
     * changes prefixes removes no entry (it listed each as removed and restored, and asked for confirm).
     */
    @Test
    void anEntryThatOnlyChangedItsConfidencePrefixIsNotRemoved() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] one");
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "deploys on Tuesdays"));
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        String plain = h.list("memories/MEMORY.md", null).versions().get(0).id();
        Files.writeString(mem, "[env] one\n§\n[0.7] deploys on Tuesdays"); // as a consolidation apply writes it
        History.RollbackResult r = h.rollback("memories/MEMORY.md", plain, false);
        assertTrue(r.changed(), r.toString());
        assertFalse(r.needs_confirm(), "no fact is removed");
        assertEquals(List.of(), r.removed_entries());
        assertEquals("[env] one\n§\ndeploys on Tuesdays", Files.readString(mem));
        // a fact really gone is still asked about, named as it is now
        Files.writeString(mem, "[env] one\n§\n[0.7] deploys on Tuesdays\n§\n[0.5] the VPN is wireguard");
        History.RollbackResult asked = h.rollback("memories/MEMORY.md", plain, false);
        assertTrue(asked.needs_confirm());
        assertEquals(List.of("[0.5] the VPN is wireguard"), asked.would_remove());
        assertEquals(List.of(), asked.would_restore());
    }

    @Test
    void aRollbackThatRemovesNoEntryNeedsNoConfirm() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] one");
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "[env] two"));
        w.write(MemoryRequest.remove("memory", "[env] one"));
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        String both = h.list("memories/MEMORY.md", null).versions().get(1).id();
        History.RollbackResult r = h.rollback("memories/MEMORY.md", both, false);
        assertTrue(r.changed(), "it only brings [env] one back");
        assertFalse(r.needs_confirm());
        assertEquals(List.of(), r.removed_entries());
        assertEquals("[env] one\n§\n[env] two", Files.readString(mem));
        History.RollbackResult same = h.rollback("memories/MEMORY.md", both, false);
        assertFalse(same.changed());
        assertFalse(same.needs_confirm(), "identical: nothing to confirm");
        // entries reordered or re-spaced are the same entries
        Files.writeString(mem, "[env] two\n§\n  [env] one  \n");
        assertTrue(h.rollback("memories/MEMORY.md", both, false).changed());
        // a skill file has no entries: its rollback is as before
        Path skill = p.skillsDir().resolve("ops/x/SKILL.md");
        Files.writeString(skill, "v1");
        Map<Path, byte[]> before = new HashMap<>();
        before.put(skill, "v1".getBytes());
        Files.writeString(skill, "v2");
        h.record("skill edit", before);
        String v1 = h.list("skills/ops/x/SKILL.md", null).versions().get(1).id();
        History.RollbackResult sk = h.rollback("skills/ops/x/SKILL.md", v1, false);
        assertTrue(sk.changed());
        assertEquals(null, sk.removed_entries());
    }

    @Test
    void manyEntriesToRemoveAreListedUpToTheCapWithACount() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] kept");
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "[env] first added"));
        StringBuilder hermes = new StringBuilder("[env] kept\n§\n[env] first added");
        for (int i = 0; i < History.MAX_LISTED + 5; i++)
            hermes.append("\n§\nhermes-").append(i);
        Files.writeString(mem, hermes);
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        String baseline = h.list("memories/MEMORY.md", null).versions().get(1).id();
        History.RollbackResult r = h.rollback("memories/MEMORY.md", baseline, false);
        assertTrue(r.needs_confirm());
        assertEquals(History.MAX_LISTED, r.would_remove().size());
        assertEquals("[env] first added", r.would_remove().get(0));
        assertEquals(6, r.would_remove_left_out());
        History.RollbackResult done = h.rollback("memories/MEMORY.md", baseline, true);
        assertEquals(History.MAX_LISTED, done.removed_entries().size());
        assertEquals(6, done.removed_entries_left_out());
        assertEquals("[env] kept", Files.readString(mem));
    }

    @Test
    void changesMadeOutsideStewardAreRecordedOnlyWhenTheUserOptsIn() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "[env] one"));
        Files.writeString(mem, "[env] one\n§\n[env] hand edit");
        w.write(MemoryRequest.add("memory", "[env] two"));
        History h = new History(p, at("2026-08-10T12:00:00Z"));
        assertEquals(2, h.list("memories/MEMORY.md", null).total(), "default: Steward's own writes only");
        Files.writeString(p.stateDir().resolve("settings.json"), "{\"history\": {\"record_external\": true}}");
        Files.writeString(mem, "[env] one\n§\n[env] hand edit\n§\n[env] two\n§\n[env] another hand edit");
        w.write(MemoryRequest.add("memory", "[env] three"));
        List<VersionStore.Version> vs = h.list("memories/MEMORY.md", null).versions();
        assertEquals(4, vs.size());
        assertEquals("external change (made outside Steward)", vs.get(1).message());
        assertEquals("external", vs.get(1).client());
        assertTrue(h.list("memories/MEMORY.md", null).record_external());
    }

    /**
     * Probe: a hand edit (or Hermes' own memory tool) made since the last version and then replaced by a rollback was not
     * recorded unless the user had opted in to recording external changes: its only copy was the rollback's backup, which
     * the next two writes rotated away (review of 2026-12-04: "IMPORTANT: prod DB is db07" gone from home and state dir).
     * A rollback now records what it replaces first, with or without the opt-in.
     */
    @Test
    void aRollbackRecordsTheExternalChangeItReplaces() throws Exception {
        for (boolean optIn : new boolean[] {false, true}) {
            Path t = tmp.resolve("optin-" + optIn);
            Files.createDirectories(t.resolve("memories"));
            StewardPaths p = StewardPaths.of(t);
            rollbackKeepsAHandEdit(p, optIn);
        }
    }

    private void rollbackKeepsAHandEdit(StewardPaths p, boolean optIn) throws Exception {
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] one");
        MemoryWriter w = new MemoryWriter(p, at("2026-08-10T12:00:00Z"));
        w.write(MemoryRequest.add("memory", "[env] two"));
        if (optIn)
            Files.writeString(p.stateDir().resolve("settings.json"), "{\"history\": {\"record_external\": true}}");
        Files.writeString(mem, "[env] one\n§\n[env] two\n§\n[env] hand edit");
        byte[] hand = Files.readAllBytes(mem);
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        String baseline = h.list("memories/MEMORY.md", null).versions().get(1).id();
        h.rollback("memories/MEMORY.md", baseline, true);
        List<VersionStore.Version> vs = h.list("memories/MEMORY.md", null).versions();
        assertEquals(4, vs.size(), vs.toString());
        assertEquals("external", vs.get(1).client(), "the hand edit is a version of its own, before the rollback");
        h.rollback("memories/MEMORY.md", vs.get(1).id(), true);
        assertArrayEquals(hand, Files.readAllBytes(mem), "the rollback is undone to the hand edit's exact bytes");
        // the next writes rotate the backups; the hand edit stays a version
        w.write(MemoryRequest.add("memory", "[env] three"));
        w.write(MemoryRequest.add("memory", "[env] four"));
        w.write(MemoryRequest.add("memory", "[env] five"));
        assertArrayEquals(
                hand,
                new VersionStore(p.stateDir())
                        .read("memories/MEMORY.md", vs.get(1).id()));
    }

    /**
     * Probe: rolling back to the newest version's bytes over a hand edit answered {@code changed: true, version: null}:
     * the file changed, and no version said so. The hand edit is now a version, so the rollback is one too.
     */
    @Test
    void aRollbackToTheNewestVersionOverAHandEditIsAVersion() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] one");
        new MemoryWriter(p, at("2026-08-10T12:00:00Z")).write(MemoryRequest.add("memory", "[env] two"));
        byte[] newest = Files.readAllBytes(mem);
        History h = new History(p, at("2026-08-10T12:05:00Z"));
        String top = h.list("memories/MEMORY.md", null).versions().get(0).id();
        Files.writeString(mem, "[env] one\n§\n[env] two\n§\n[env] IMPORTANT: prod DB is db07");
        History.RollbackResult r = h.rollback("memories/MEMORY.md", top, true);
        assertTrue(r.changed());
        assertTrue(r.version() != null, "the rollback is a version");
        assertArrayEquals(newest, Files.readAllBytes(mem));
        assertEquals(
                "external", h.list("memories/MEMORY.md", null).versions().get(1).client());
    }

    @Test
    void anExternalChangeIsRecordedAsItsOwnVersionByExternalWhenAsked() throws Exception {
        StewardPaths p = home();
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "[env] one");
        History h = new History(p, at("2026-08-10T12:00:00Z"));
        assertEquals(List.of(), h.recordExternalChanges("test"), "not opted in: nothing");
        assertEquals(0, h.list("memories/MEMORY.md", null).total());

        Files.createDirectories(p.stateDir());
        Files.writeString(p.stateDir().resolve("settings.json"), "{\"history\": {\"record_external\": true}}");
        assertEquals(1, h.recordExternalChanges("test").size(), "no history yet: a baseline");
        assertEquals(
                "baseline: first version Steward saw",
                h.list("memories/MEMORY.md", null).versions().get(0).message());
        assertEquals(List.of(), h.recordExternalChanges("test"), "unchanged: nothing");

        Files.writeString(mem, "[env] one\n§\n[env] hand edit");
        assertEquals(1, h.recordExternalChanges("seen by the watcher").size());
        VersionStore.Version v = h.list("memories/MEMORY.md", null).versions().get(0);
        assertEquals("external", v.client());
        assertEquals("external change to memories/MEMORY.md (seen by the watcher)", v.message());
        assertArrayEquals(Files.readAllBytes(mem), h.store().read("memories/MEMORY.md", v.id()));

        // Steward's own write records itself (under Hermes' lock): nothing is left for the external recorder
        new MemoryWriter(p, at("2026-08-10T12:05:00Z")).write(MemoryRequest.add("memory", "[env] two"));
        assertEquals(List.of(), h.recordExternalChanges("test"));
        assertEquals(
                "steward", h.list("memories/MEMORY.md", null).versions().get(0).client());

        Files.delete(mem);
        assertEquals(1, h.recordExternalChanges("test").size());
        assertTrue(h.list("memories/MEMORY.md", null).versions().get(0).deleted(), "a deletion is a version too");
    }

    @Test
    void theExternalRecorderNeverCreatesAMissingMemoriesDir() throws Exception {
        Path home = tmp.resolve("bare");
        Files.createDirectories(home);
        StewardPaths p = StewardPaths.of(home);
        Files.createDirectories(p.stateDir());
        Files.writeString(p.stateDir().resolve("settings.json"), "{\"history\": {\"record_external\": true}}");
        assertEquals(List.of(), new History(p, at("2026-08-10T12:00:00Z")).recordExternalChanges("test"));
        assertFalse(Files.exists(p.memoriesDir()));
    }
}
