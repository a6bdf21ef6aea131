package steward.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.testing.TestHomes;

/**
 * The benchmarks still run end to end on small inputs and print their tables (their figures are read by
 * people, never asserted: these machines are shared and noisy).
 */
class BenchIT {
    @TempDir
    Path tmp;

    private String bench(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bench"));
        cmd.addAll(List.of(args));
        Path err = tmp.resolve("err.txt");
        Process p = new ProcessBuilder(DevProcess.command(cmd.toArray(String[]::new))).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "bench " + cmd + " did not finish");
        assertEquals(0, p.exitValue(), out + "\n" + Files.readString(err));
        return out;
    }

    @Test
    void auditOnASmallDatabase() throws Exception {
        String out = bench("audit", "--sessions", "300", "--messages", "3000", "-n", "1", "--dir", tmp.resolve("audit").toString());
        assertTrue(out.contains("ratio (a)/(b)"), out);
    }

    @Test
    void locomoOnAnotherLocomoFormatFile() throws Exception {
        Path data = TestHomes.repo().resolve("bench/src/test/resources/locomo-mini.json");
        String out = bench("locomo", "--data", data.toString());
        assertTrue(out.contains("R@10"), out);
        assertTrue(out.toLowerCase(java.util.Locale.ROOT).contains("inject"), out);
    }

    @Test
    void consolidateOnASmallRoot() throws Exception {
        String out = bench("consolidate", "--days", "35", "--lines", "5", "--entries", "20", "--runs", "1");
        assertTrue(out.contains("plan (") && out.contains("apply ("), out);
        assertTrue(out.contains("archived 4 logs"), "logs older than 30 days move to archive/: " + out);
    }
}
