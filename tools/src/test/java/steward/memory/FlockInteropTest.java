package steward.memory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.testing.TestHomes;

/** Steward's lock is a real flock(2): an external flock holder (util-linux flock, python3 fcntl.flock) excludes it. */
class FlockInteropTest {
    @TempDir
    Path tmp;

    @Test
    void writeWaitsForUtilLinuxFlockHolderAndAppliesOnTopOfItsWrite() throws Exception {
        StewardPaths paths = TestHomes.home(tmp, 5000, 5000);
        Path mem = paths.memoriesDir().resolve("MEMORY.md");
        Files.writeString(mem, "Entry one");
        Path marker = tmp.resolve("holding");
        Path released = tmp.resolve("released");
        Process p = new ProcessBuilder(
                        "flock",
                        paths.memoriesDir().resolve("MEMORY.md.lock").toString(),
                        "sh",
                        "-c",
                        "touch '" + marker + "'; sleep 1.5; printf 'Entry one\\n§\\nExternal entry' > '" + mem
                                + "'; date +%s%N > '" + released + "'")
                .inheritIO()
                .start();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(marker));
        MemoryWriter w = new MemoryWriter(paths, Clock.systemUTC());
        CompletableFuture<MemoryResult> f =
                CompletableFuture.supplyAsync(() -> w.write(MemoryRequest.add("memory", "Steward entry")));
        MemoryResult r = f.get(20, TimeUnit.SECONDS);
        long doneNs = System.currentTimeMillis() * 1_000_000L;
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertTrue(r.success(), r.record().toString());
        assertTrue(Files.exists(released), "the external holder finished before Steward's write returned");
        assertTrue(
                doneNs >= Long.parseLong(Files.readString(released).trim()),
                "the write completed only after the external lock was released");
        assertEquals(
                "Entry one\n§\nExternal entry\n§\nSteward entry",
                Files.readString(mem),
                "applied on top of the external write");
    }

    @Test
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    void aHolderThatNeverLetsGoGivesAClearErrorInsteadOfAHang() throws Exception {
        StewardPaths paths = TestHomes.home(tmp, 5000, 5000);
        Path lock = paths.memoriesDir().resolve("MEMORY.md.lock");
        Path marker = tmp.resolve("holding");
        Process p = new ProcessBuilder("flock", lock.toString(), "sh", "-c", "touch '" + marker + "'; sleep 5")
                .inheritIO()
                .start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(marker));
            IOException e =
                    org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> Flock.exclusive(lock, 300));
            assertTrue(e.getMessage().contains("locked by another process"), e.getMessage());
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        try (Flock l = Flock.exclusive(lock, 5000)) {
            assertTrue(Files.exists(lock), "free again once the holder is gone");
        }
    }

    @Test
    void writeWaitsForPythonFcntlFlockHolder() throws Exception {
        StewardPaths paths = TestHomes.home(tmp, 5000, 5000);
        Path mem = paths.memoriesDir().resolve("MEMORY.md");
        Path marker = tmp.resolve("holding");
        String py = "import fcntl,sys,time,pathlib\n"
                + "fd=open(sys.argv[1],'a+'); fcntl.flock(fd, fcntl.LOCK_EX)\n"
                + "pathlib.Path(sys.argv[2]).touch(); time.sleep(1.0)\n"
                + "pathlib.Path(sys.argv[3]).write_text('From python', encoding='utf-8')\n";
        Process p = new ProcessBuilder(
                        "python3",
                        "-c",
                        py,
                        paths.memoriesDir().resolve("MEMORY.md.lock").toString(),
                        marker.toString(),
                        mem.toString())
                .inheritIO()
                .start();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(marker));
        MemoryResult r = new MemoryWriter(paths, Clock.systemUTC()).write(MemoryRequest.add("memory", "From Steward"));
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertTrue(r.success());
        assertEquals(
                List.of("From python", "From Steward"), MemoryDocument.read(mem).entries());
    }
}
