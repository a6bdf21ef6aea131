package steward.server.http;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import steward.testing.TestHomes;

/** {@code steward serve --http} from the real jar in a child process, on a free loopback port. */
final class HttpServerProcess implements AutoCloseable {
    static final String TOKEN = "it-token-0123456789abcdef";
    final Path home;
    final int port;
    final Process process;
    final Path log;

    @SuppressWarnings("try") // the connect is the probe; the socket is never used
    HttpServerProcess(Path tmp, boolean withToken, String... extra) throws Exception {
        this.home = TestHomes.copyFixture(tmp);
        this.port = freePort();
        this.log = tmp.resolve("server.log");
        List<String> cmd = new ArrayList<>(List.of(
                javaBin(),
                "-jar",
                jar(),
                "serve",
                "--http",
                "--port",
                String.valueOf(port),
                "--hermes-home",
                home.toString()));
        if (withToken) {
            Path tf = tmp.resolve("token");
            Files.writeString(tf, TOKEN + "\n");
            cmd.add("--token-file");
            cmd.add(tf.toString());
        }
        cmd.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove(BearerToken.ENV);
        this.process = pb.start();
        long deadline =
                System.nanoTime() + 120_000_000_000L; // a shared 2-core machine under load starts the JVM slowly
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) throw new IllegalStateException("server exited: " + Files.readString(log));
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        process.destroyForcibly(); // not left running behind a failed test
        throw new IllegalStateException("server did not listen in time: " + Files.readString(log));
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    static String jar() {
        String j = System.getProperty("steward.jar");
        if (j == null) throw new IllegalStateException("system property steward.jar not set (run through failsafe)");
        return j;
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (
                InterruptedException
                        e) { // close() does not throw it (AutoCloseable's advice): the process goes, the flag stays set
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
