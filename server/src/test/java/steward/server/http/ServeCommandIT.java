package steward.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.TestHomes;

/** The serve command's refusals (cancellation over stdio is tested with the fixture tools, in the bench module). */
class ServeCommandIT {
    @Test
    void aNonLoopbackBindWithoutATokenIsRefused(@TempDir Path tmp) throws Exception {
        Path home = TestHomes.copyFixture(tmp.resolve("home"));
        ProcessBuilder pb = new ProcessBuilder(
                        HttpServerProcess.javaBin(),
                        "-jar",
                        HttpServerProcess.jar(),
                        "serve",
                        "--http",
                        "--bind",
                        "0.0.0.0",
                        "--port",
                        "0",
                        "--hermes-home",
                        home.toString())
                .redirectErrorStream(true);
        pb.environment().remove(BearerToken.ENV);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("refusing to listen on a non-loopback address without a token"), out);
    }
}
