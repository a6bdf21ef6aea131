package steward.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.testing.TestHomes;

/** A writer killed with SIGKILL mid-way leaves the old or the new file, never a torn one. */
class CrashSafetyTest {
    @TempDir
    Path tmp;

    @Test
    void killedWriterNeverLeavesATornFile() throws Exception {
        StewardPaths paths = TestHomes.home(tmp, 50_000_000, 1000);
        Path mem = paths.memoriesDir().resolve("MEMORY.md");
        String java = ProcessHandle.current().info().command().orElse("java");
        int pad = 200_000; // big entries make a non-atomic write very likely to be caught half-way
        int checked = 0;
        for (int round = 0; round < 4; round++) {
            Process p = new ProcessBuilder(
                            java,
                            "-cp",
                            System.getProperty("java.class.path"),
                            WriterMain.class.getName(),
                            tmp.toString(),
                            "r" + round,
                            "1000",
                            String.valueOf(pad))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            // kill it while it writes: once this round's first entry is in the file, after a random pause
            String prefix = "r" + round + "-";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!(Files.exists(mem) && Files.readString(mem).contains(prefix))
                    && p.isAlive()
                    && System.nanoTime() < deadline) Thread.sleep(20);
            assertTrue(p.isAlive(), "the writer was still writing when it was killed (round " + round + ")");
            Thread.sleep(ThreadLocalRandom.current().nextInt(400));
            p.destroyForcibly();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            List<String> entries = MemoryDocument.read(mem).rawEntries();
            for (String e : entries) {
                assertTrue(e.matches("r\\d+-\\d+x{" + pad + "}"), "every entry is complete");
            }
            String text = Files.readString(mem);
            assertEquals(
                    String.join(MemoryDocument.DELIMITER, entries),
                    text,
                    "the file is exactly a clean list of complete entries");
            assertTrue(
                    entries.stream().anyMatch(e -> e.startsWith(prefix)),
                    "round " + round + " checked a file its writer had written");
            checked += entries.size();
        }
        assertTrue(checked >= 4, "entries checked over the rounds: " + checked);
    }
}
