package steward.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.testing.TestHomes;

/** Many writers at once (threads of this JVM and separate processes): every entry lands exactly once. */
class ConcurrentWritersTest {
    @TempDir
    Path tmp;

    @Test
    void threadsAndProcessesAddingDistinctEntriesLoseNothing() throws Exception {
        StewardPaths paths = TestHomes.home(tmp, 1_000_000, 1_000_000);
        int threads = 6, perThread = 15, procs = 3, perProc = 12;
        List<Process> processes = new ArrayList<>();
        String java = ProcessHandle.current().info().command().orElse("java");
        for (int p = 0; p < procs; p++) {
            processes.add(new ProcessBuilder(
                            java,
                            "-cp",
                            System.getProperty("java.class.path"),
                            WriterMain.class.getName(),
                            tmp.toString(),
                            "proc" + p,
                            String.valueOf(perProc))
                    .inheritIO()
                    .start());
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            futures.add(pool.submit(() -> {
                MemoryWriter w = new MemoryWriter(paths, Clock.systemUTC());
                for (int i = 0; i < perThread; i++) {
                    MemoryResult r = w.write(MemoryRequest.add("memory", "thread" + id + "-" + i));
                    if (!r.success()) throw new AssertionError(r.record().toString());
                }
                return null;
            }));
        }
        for (Future<?> f : futures) f.get(120, TimeUnit.SECONDS);
        pool.shutdown();
        for (Process p : processes) {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue());
        }
        List<String> entries =
                MemoryDocument.read(paths.memoriesDir().resolve("MEMORY.md")).rawEntries();
        Set<String> expected = new HashSet<>();
        for (int t = 0; t < threads; t++) for (int i = 0; i < perThread; i++) expected.add("thread" + t + "-" + i);
        for (int p = 0; p < procs; p++) for (int i = 0; i < perProc; i++) expected.add("proc" + p + "-" + i);
        assertEquals(expected.size(), entries.size(), "no entry lost or duplicated");
        assertEquals(expected, new HashSet<>(entries));
    }
}
