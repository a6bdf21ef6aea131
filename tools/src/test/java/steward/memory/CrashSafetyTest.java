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
        for (int round = 0; round < 4; round++) {
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), WriterMain.class.getName(),
                    tmp.toString(), "r" + round, "1000", String.valueOf(pad)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            Thread.sleep(900 + ThreadLocalRandom.current().nextInt(600));
            p.destroyForcibly();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            if (!Files.exists(mem)) continue;
            List<String> entries = MemoryDocument.read(mem).rawEntries();
            for (String e : entries) {
                assertTrue(e.matches("r\\d+-\\d+x{" + pad + "}"), "every entry is complete");
            }
            String text = Files.readString(mem);
            assertEquals(String.join(MemoryDocument.DELIMITER, entries), text, "the file is exactly a clean list of complete entries");
        }
    }
}
