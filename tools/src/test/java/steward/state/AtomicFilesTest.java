package steward.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temp files of {@link AtomicFiles#write}: a killed writer's temp goes at the next sweep, a temp being written is
 * kept (its writer holds a lock on it, or it is this process's own), and nothing that is not such a temp is touched.
 */
class AtomicFilesTest {
    @TempDir
    Path tmp;

    private Process sleeper;

    @AfterEach
    void stop() {
        if (sleeper != null) sleeper.destroyForcibly();
    }

    /** A pid that ran and is gone now. */
    static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        long pid = p.pid();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        return pid;
    }

    /** A live process that is not this one (as a pid reused by something else would be). */
    long livePid() throws Exception {
        sleeper = new ProcessBuilder("sleep", "120").start();
        return sleeper.pid();
    }

    static Path temp(Path dir, String name, long pid) throws IOException {
        Path p = dir.resolve("." + name + ".tmp-" + pid + "-5eed");
        Files.writeString(p, "half a file");
        return p;
    }

    static void age(Path p, Duration d) throws IOException {
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(d)));
    }

    @Test
    void aTempOfADeadProcessIsRemovedDownToTheDepth() throws Exception {
        long dead = deadPid();
        Path sources = Files.createDirectories(tmp.resolve("recall/sources"));
        Path a = temp(sources, "hermes-files.json", dead);
        Path b = temp(tmp, "preferences.json", dead);
        Path deep = temp(Files.createDirectories(tmp.resolve("a/b/c/d")), "x.json", dead);
        // directories nothing is written into through AtomicFiles, and that can be large, are not listed
        Path side = temp(Files.createDirectories(tmp.resolve("backups/sessions/s1.files")), "s1.json", dead);
        Path lucene = temp(Files.createDirectories(tmp.resolve("recall/index")), "segments_1", dead);
        Path git = temp(Files.createDirectories(tmp.resolve("history/repo.git")), "HEAD", dead);
        assertEquals(2, AtomicFiles.removeStaleTemps(tmp, 3));
        assertFalse(Files.exists(a));
        assertFalse(Files.exists(b));
        assertTrue(Files.exists(deep), "below the depth: not looked at");
        for (Path p : List.of(side, lucene, git)) assertTrue(Files.exists(p), p + ": not listed");
    }

    @Test
    @SuppressWarnings("try") // the lock is held for the try body
    void aTempLockedByItsWriterIsKeptEvenWhenOldAndItsPidLooksReused() throws Exception {
        Path t = temp(tmp, "MEMORY.md", livePid());
        age(t, Duration.ofHours(1));
        try (FileChannel ch = FileChannel.open(t, StandardOpenOption.WRITE);
                FileLock l = ch.lock()) {
            assertEquals(0, AtomicFiles.removeStaleTemps(tmp));
            assertTrue(Files.exists(t));
        }
    }

    @Test
    void aTempLockedByAWriterInAnotherProcessIsKeptUntilThatProcessIsGone() throws Exception {
        Assumptions.assumeTrue(python(), "python3 not found: the cross-process lock case is skipped");
        // the writer: another process that creates its temp under its own pid and holds a POSIX lock on it, as
        // AtomicFiles does (FileChannel locks are fcntl locks; Python's lockf is one too)
        Process w = new ProcessBuilder(
                        "python3",
                        "-c",
                        "import fcntl,os,sys,time\n"
                                + "p=os.path.join(sys.argv[1], '.MEMORY.md.tmp-%d-abc' % os.getpid())\n"
                                + "f=open(p,'w'); fcntl.lockf(f, fcntl.LOCK_EX)\n"
                                + "t=time.time()-3600; os.utime(p,(t,t))\n"
                                + "print(p, flush=True); time.sleep(120)\n",
                        tmp.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        sleeper = w;
        Path t = Path.of(
                new java.io.BufferedReader(new java.io.InputStreamReader(w.getInputStream(), StandardCharsets.UTF_8))
                        .readLine());
        assertTrue(Files.exists(t));
        assertEquals(0, AtomicFiles.removeStaleTemps(tmp), "locked by a live writer: kept, however old");
        assertTrue(Files.exists(t));
        w.destroyForcibly();
        assertTrue(w.waitFor(30, TimeUnit.SECONDS));
        assertEquals(1, AtomicFiles.removeStaleTemps(tmp), "its writer is gone");
        assertFalse(Files.exists(t));
    }

    @Test
    void anUnlockedTempOfALivePidIsKeptWhileFreshAndRemovedOnceOld() throws Exception {
        Path t = temp(tmp, "USER.md", livePid());
        assertEquals(0, AtomicFiles.removeStaleTemps(tmp), "could be a writer between its create and its lock");
        age(t, AtomicFiles.STALE_AFTER.plusSeconds(5));
        assertEquals(1, AtomicFiles.removeStaleTemps(tmp), "not locked and old: the pid was reused");
        assertFalse(Files.exists(t));
    }

    @Test
    void aTempWithThisProcesssPidThatItIsNotWritingIsStale() throws Exception {
        // a previous process that had this pid left it
        Path t = temp(tmp, "plan.json", ProcessHandle.current().pid());
        assertEquals(1, AtomicFiles.removeStaleTemps(tmp));
        assertFalse(Files.exists(t));
    }

    @Test
    void aTempThisProcessIsWritingIsKept() throws Exception {
        CountDownLatch started = new CountDownLatch(1), release = new CountDownLatch(1);
        InputStream slow = new InputStream() {
            int n;

            @Override
            public int read() throws IOException {
                return read(new byte[1], 0, 1) < 0 ? -1 : 0;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (n++ == 1) {
                    started.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                if (n > 3) return -1;
                b[off] = 'x';
                return 1;
            }
        };
        Path target = tmp.resolve("model.onnx");
        Thread writer = new Thread(() -> {
            try {
                AtomicFiles.write(target, slow);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        assertTrue(started.await(30, TimeUnit.SECONDS));
        Path t = temps(tmp).get(0);
        age(t, Duration.ofHours(1));
        assertEquals(0, AtomicFiles.removeStaleTemps(tmp), "this process's own write in progress");
        release.countDown();
        writer.join(30_000);
        assertEquals("xxx", Files.readString(target));
        assertEquals(List.of(), temps(tmp));
    }

    @Test
    void filesThatAreNotStewardsTempsAreKept() throws Exception {
        long dead = deadPid();
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Path victim = temp(outside, "victim", dead);
        Path root = Files.createDirectories(tmp.resolve("state"));
        List<Path> foreign = List.of(
                Files.writeString(root.resolve(".mem_k2j3h4.tmp"), "Hermes' own temp"),
                Files.writeString(root.resolve(".MEMORY.md.tmp-" + dead + "-xyz"), "not hex"),
                Files.writeString(root.resolve("MEMORY.md.tmp-" + dead + "-abc"), "no leading dot"),
                Files.writeString(root.resolve(".MEMORY.md.tmp-" + dead + "-abc.bak"), "another suffix"),
                Files.writeString(root.resolve(".MEMORY.md.tmp-" + dead + "-"), "no random part"),
                Files.writeString(root.resolve(".tmp-" + dead + "-abc"), "no name"),
                Files.createDirectory(root.resolve(".dir.tmp-" + dead + "-abc")),
                Files.createSymbolicLink(root.resolve(".link.tmp-" + dead + "-abc"), victim));
        Files.createSymbolicLink(root.resolve("linked"), outside);
        for (Path p : foreign) age(p, Duration.ofDays(1));
        age(victim, Duration.ofDays(1));
        assertEquals(0, AtomicFiles.removeStaleTemps(root));
        for (Path p : foreign) assertTrue(Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS), p.toString());
        assertTrue(Files.exists(victim), "a link is not followed out of the swept directory");
    }

    @Test
    void theStartSweepCoversTheStateDirAndHermesMemoryDirsOncePerProcess() throws Exception {
        long dead = deadPid();
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path state = Files.createDirectories(home.resolve("steward"));
        Path backup =
                temp(Files.createDirectories(state.resolve("backups/memory")), "MEMORY.md.20260810T120000000Z", dead);
        Path vectors = temp(Files.createDirectories(state.resolve("recall/vectors")), "header.json", dead);
        Path memory = temp(Files.createDirectories(home.resolve("memories")), "MEMORY.md", dead);
        Path staged = temp(Files.createDirectories(home.resolve("pending/memory")), "p_1.json", dead);
        Path skills = temp(Files.createDirectories(home.resolve("skills")), "SKILL.md", dead);
        assertEquals(4, TempSweep.atStart(state, home));
        for (Path p : List.of(backup, vectors, memory, staged)) assertFalse(Files.exists(p), p.toString());
        assertTrue(Files.exists(skills), "only the directories Steward writes temps into");
        Path again = temp(state, "preferences.json", dead);
        assertEquals(0, TempSweep.atStart(state, home), "once per process");
        assertTrue(Files.exists(again));
        assertEquals(1, TempSweep.now(state, home), "what the next process does at its start");
    }

    @Test
    void aKilledWritersTempGoesBeforeThisProcessFirstWritesIntoItsDirectory() throws Exception {
        long dead = deadPid();
        // a Claude Code auto-memory directory: no start-up sweep lists it
        Path dir = Files.createDirectories(tmp.resolve("claude/projects/-home-u-app/memory"));
        Path left = temp(dir, "MEMORY.md", dead);
        Path keep = Files.writeString(dir.resolve(".keep"), "not a temp");
        Path below = temp(Files.createDirectories(dir.resolve("sub")), "x.md", dead);
        AtomicFiles.write(dir.resolve("MEMORY.md"), "# Memory\n".getBytes(StandardCharsets.UTF_8));
        assertFalse(Files.exists(left), "the killed writer's temp is gone");
        assertTrue(Files.exists(keep));
        assertTrue(Files.exists(below), "only the directory written into");
        assertEquals("# Memory\n", Files.readString(dir.resolve("MEMORY.md")));
        Path later = temp(dir, "topic.md", dead);
        AtomicFiles.write(dir.resolve("topic.md"), "t".getBytes(StandardCharsets.UTF_8));
        assertTrue(Files.exists(later), "each directory is listed once per process");
    }

    static List<Path> temps(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> AtomicFiles.isTempName(p.getFileName().toString()))
                    .toList();
        }
    }

    static boolean python() {
        try {
            return new ProcessBuilder("python3", "-c", "import fcntl").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
