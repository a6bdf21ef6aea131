package steward.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.testing.TestHomes;

/** Write approval: what the user approved is what is applied, whatever happened to the file in between. */
class MemoryStagingTest {
    @TempDir
    Path tmp;

    StewardPaths paths;
    MutableClock clock;
    MemoryWriter w;
    MemoryStaging staging;
    Path mem;

    @BeforeEach
    void setUp() throws Exception {
        paths = TestHomes.home(tmp, 2200, 1375);
        Files.writeString(paths.configYaml(), "memory:\n  write_approval: true\n");
        clock = new MutableClock(Instant.parse("2026-08-10T12:00:00Z"));
        w = new MemoryWriter(paths, clock);
        staging = new MemoryStaging(paths, clock);
        mem = paths.memoriesDir().resolve("MEMORY.md");
    }

    String stage(MemoryRequest r) {
        MemoryResult s = w.write(r);
        assertEquals("staged", s.kind());
        return (String) s.record().get("pending_id");
    }

    /**
     * Probe: a remove staged while old_text named the GPU entry, approved after the user had replaced that entry by a
     * rule of their own that old_text also matches, removed the user's new rule, an entry nobody approved removing.
     */
    @Test
    void anApprovalThatWouldNowRemoveAnotherEntryThanTheStagedOneIsRefusedAndKept() throws Exception {
        Files.writeString(mem, "[env] Windows 11\n§\n[env] GPU: RTX 4090, CUDA 12.4");
        String id = stage(MemoryRequest.remove("memory", "GPU: RTX"));
        Files.writeString(mem, "[env] Windows 11\n§\n[rule] Never recommend a GPU: RTX 3050 for training");
        byte[] edited = Files.readAllBytes(mem);
        MemoryResult r = staging.approve(id, w);
        assertFalse(r.success());
        assertEquals("changed_since_staged", r.kind());
        String error = (String) r.record().get("error");
        assertTrue(error.contains("[rule] Never recommend a GPU: RTX 3050"), error);
        assertArrayEquals(edited, Files.readAllBytes(mem), "nothing written");
        assertEquals(1, staging.list().size(), "the staged write is kept: the user can reject it");
    }

    /**
     * The same change made by Hermes while the approval waits for Hermes' lock (after the check before the lock passed):
     * the check is made again on the file as read under the lock.
     */
    @Test
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    void anEntryReplacedWhileTheApprovalWaitsForHermesLockIsNotRemoved() throws Exception {
        Files.writeString(mem, "[env] Windows 11\n§\n[env] GPU: RTX 4090, CUDA 12.4");
        String id = stage(MemoryRequest.remove("memory", "GPU: RTX"));
        java.util.concurrent.CompletableFuture<MemoryResult> approval;
        byte[] edited;
        try (Flock hermes = Flock.exclusive(MemoryTarget.of("memory").lockFile(paths))) {
            approval = java.util.concurrent.CompletableFuture.supplyAsync(() -> staging.approve(id, w));
            Thread.sleep(300); // the approval has passed its first check and waits for the lock Hermes holds
            Files.writeString(mem, "[env] Windows 11\n§\n[rule] Never recommend a GPU: RTX 3050 for training");
            edited = Files.readAllBytes(mem);
        }
        MemoryResult r = approval.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals("changed_since_staged", r.kind(), r.record().toString());
        assertArrayEquals(edited, Files.readAllBytes(mem), "the user's rule is kept");
        assertEquals(1, staging.list().size(), "the staged write is kept: the user can reject it");
    }

    @Test
    void anApprovalStillAppliesWhenOnlyOtherEntriesChangedMeanwhile() throws Exception {
        Files.writeString(mem, "[env] Windows 11\n§\n[env] GPU: RTX 4090, CUDA 12.4");
        String rm = stage(MemoryRequest.remove("memory", "GPU: RTX"));
        String rp = stage(MemoryRequest.replace("memory", "Windows 11", "[env] Windows 11 24H2"));
        // Hermes added an entry meanwhile
        Files.writeString(mem, "[env] Windows 11\n§\n[env] GPU: RTX 4090, CUDA 12.4\n§\n[ops] added by Hermes");
        assertTrue(staging.approve(rm, w).success());
        assertTrue(staging.approve(rp, w).success());
        assertEquals("[env] Windows 11 24H2\n§\n[ops] added by Hermes", Files.readString(mem));
    }

    @Test
    void aStagedWriteThatMatchedNothingNeverRemovesAnEntryThatAppearedLater() throws Exception {
        Files.writeString(mem, "[env] Windows 11");
        String id = stage(MemoryRequest.remove("memory", "staging DB"));
        Files.writeString(mem, "[env] Windows 11\n§\n[ops] the staging DB is db04 (the user's own note)");
        byte[] edited = Files.readAllBytes(mem);
        MemoryResult r = staging.approve(id, w);
        assertFalse(r.success());
        assertArrayEquals(edited, Files.readAllBytes(mem));
    }

    @Test
    void anAddStagedOverTheLimitIsAppliedOnceTheUserMadeRoom() throws Exception {
        Files.writeString(paths.configYaml(), "memory:\n  memory_char_limit: 40\n  write_approval: true\n");
        Files.writeString(mem, "[env] an entry of thirty characters");
        String id = stage(MemoryRequest.add("memory", "[env] new fact"));
        Files.writeString(mem, "[env] shorter");
        assertTrue(staging.approve(id, w).success());
        assertEquals("[env] shorter\n§\n[env] new fact", Files.readString(mem));
    }

    /** A broken config.yaml read as "approval off" let writes through unreviewed that the user may have meant to review. */
    @Test
    void aConfigYamlThatCannotBeReadStagesWritesAndSaysWhy() throws Exception {
        Files.writeString(paths.configYaml(), "memory:\n  write_approval: true\n  oops: [\n");
        Files.writeString(mem, "[env] Windows 11");
        byte[] before = Files.readAllBytes(mem);
        MemoryResult r = w.write(MemoryRequest.add("memory", "[env] new fact"));
        assertEquals("staged", r.kind());
        assertTrue(
                String.valueOf(r.record().get("message")).contains("config.yaml cannot be read"),
                r.record().toString());
        org.junit.jupiter.api.Assertions.assertArrayEquals(before, Files.readAllBytes(mem));
        // once the file is fixed (approval off), writes go through again
        Files.writeString(paths.configYaml(), "memory:\n  write_approval: false\n");
        assertTrue(w.write(MemoryRequest.add("memory", "[env] other fact")).success());
        assertTrue(Files.readString(mem).endsWith("[env] other fact"));
    }
}
