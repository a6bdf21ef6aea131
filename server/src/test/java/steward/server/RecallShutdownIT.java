package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.TestHomes;

/**
 * The real server stopped while its background indexer works in ONNX Runtime (making the model's session, or embedding
 * texts): the process ends with its normal status and never dies in native code. Before the fix, a SIGTERM or a closed
 * stdin at that moment let ONNX Runtime's own shutdown hook free the runtime under the indexer (SIGSEGV, hs_err file).
 */
class RecallShutdownIT {
    @TempDir
    Path tmp;

    /** A running server: its stderr collected, and a latch for a line it printed. */
    record Server(Process process, StringBuffer stderr, CountDownLatch loading, CountDownLatch loaded, Path dir) {}

    Server start(String name) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Path home = TestHomes.copyFixture(dir);
        List<String> cmd = new ArrayList<>(List.of(
                StewardProcess.java(),
                "-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"),
                "-jar",
                StewardProcess.jar().toString(),
                "serve",
                "--hermes-home",
                home.toString(),
                "--state-dir",
                dir.resolve("state").toString(),
                "--log-level",
                "debug"));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).start();
        StringBuffer err = new StringBuffer();
        CountDownLatch loading = new CountDownLatch(1), loaded = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    err.append(line).append('\n');
                    if (line.contains("recall: loading the embedding model")) loading.countDown();
                    if (line.contains("recall: embedding model loaded")) loaded.countDown();
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        t.setDaemon(true);
        t.start();
        Thread drain = new Thread(() -> {
            try {
                p.getInputStream().transferTo(OutputStream.nullOutputStream());
            } catch (IOException ignored) {
                // the process ended
            }
        });
        drain.setDaemon(true);
        drain.start();
        return new Server(p, err, loading, loaded, dir);
    }

    void assertCleanExit(Server s, int expected, String how) throws Exception {
        assertTrue(
                s.process().waitFor(90, TimeUnit.SECONDS), how + ": the server did not exit; stderr:\n" + s.stderr());
        Thread.sleep(200); // the stderr reader's last lines
        String err = s.stderr().toString();
        assertFalse(
                err.contains("SIGSEGV") || err.contains("hs_err") || err.contains("fatal error has been detected"),
                how + ":\n" + err);
        try (Stream<Path> files = Files.list(s.dir())) {
            assertEquals(
                    List.of(),
                    files.map(f -> f.getFileName().toString())
                            .filter(f -> f.startsWith("hs_err"))
                            .toList(),
                    how);
        }
        assertEquals(expected, s.process().exitValue(), how + ":\n" + err);
        // the order that avoids the crash (which happens only sometimes): Steward stopped recall before the JVM's hooks
        // ran
        if (expected == 143)
            assertTrue(err.contains("SIGTERM: stopping recall before the shutdown hooks"), how + ":\n" + err);
        if (expected == 129)
            assertTrue(err.contains("SIGHUP: stopping recall before the shutdown hooks"), how + ":\n" + err);
        assertTrue(
                err.contains("recall stopped: the embedding model is closed and nothing native runs"),
                how + ":\n" + err);
    }

    /** SIGTERM alone (Process.destroy would also close the pipes: a stdin EOF racing the signal, and no stderr to read). */
    static void sigterm(Server s) throws Exception {
        signal(s, "TERM");
    }

    static void signal(Server s, String name) throws Exception {
        Process kill = new ProcessBuilder(
                        "kill", "-" + name, Long.toString(s.process().pid()))
                .inheritIO()
                .start();
        assertEquals(0, kill.waitFor());
    }

    @Test
    void sigtermWhileTheIndexerMakesTheModelSessionEndsCleanly() throws Exception {
        Server s = start("term-loading");
        assertTrue(s.loading().await(5, TimeUnit.MINUTES), "the indexer never began to load the model:\n" + s.stderr());
        sigterm(s); // while the session is being made
        assertCleanExit(s, 143, "SIGTERM while loading");
    }

    @Test
    void stdinClosedWhileTheIndexerMakesTheModelSessionEndsCleanly() throws Exception {
        Server s = start("eof-loading");
        assertTrue(s.loading().await(5, TimeUnit.MINUTES), "the indexer never began to load the model:\n" + s.stderr());
        s.process().getOutputStream().close(); // the client went away
        assertCleanExit(s, 0, "stdin closed while loading");
    }

    @Test
    void sigtermWhileTheIndexerEmbedsEndsCleanly() throws Exception {
        Server s = start("term-embedding");
        assertTrue(s.loaded().await(5, TimeUnit.MINUTES), "the indexer never loaded the model:\n" + s.stderr());
        Thread.sleep(300); // texts are being embedded now (the fixture has hundreds waiting)
        sigterm(s);
        assertCleanExit(s, 143, "SIGTERM while embedding");
    }

    @Test
    void sighupWhileTheIndexerMakesTheModelSessionEndsCleanly() throws Exception {
        // a terminal that closes sends SIGHUP; a test runner that ignores it (nohup) passes that on to the server
        assumeFalse(hupIgnored(), "SIGHUP is ignored in this process (nohup?), and so in the server: skipped");
        Server s = start("hup-loading");
        assertTrue(s.loading().await(5, TimeUnit.MINUTES), "the indexer never began to load the model:\n" + s.stderr());
        signal(s, "HUP");
        assertCleanExit(s, 129, "SIGHUP while loading");
    }

    /** Whether this process ignores SIGHUP (children inherit that); false when it cannot be told. */
    static boolean hupIgnored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:"))
                    return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 1L) != 0;
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux
        }
        return false;
    }
}
