package steward.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real Hermes for tests: its own {@code SessionDB} and memory tool ({@code shared/hermes-src}, Python 3 + PyYAML),
 * driven through small scripts. {@link #require()} skips the calling test, saying why, when python3, PyYAML or the
 * Hermes sources are missing; everything else about it is a real, separate process.
 */
public final class RealHermes {
    private final Path src;

    private RealHermes(Path src) {
        this.src = src;
    }

    /** The Hermes sources: {@code $STEWARD_HERMES_SRC}, else the first {@code shared/hermes-src} above the repository. */
    public static Path locateSource() {
        String env = System.getenv("STEWARD_HERMES_SRC");
        if (env != null && !env.isBlank()) return Path.of(env);
        for (Path b = TestHomes.repo(); b != null; b = b.getParent()) {
            Path p = b.resolve("shared/hermes-src");
            if (Files.isRegularFile(p.resolve("hermes_state.py"))) return p;
        }
        return null;
    }

    /** A usable real Hermes, or the test is skipped with the reason. */
    public static RealHermes require() {
        Path src = locateSource();
        Assumptions.assumeTrue(
                src != null, "real Hermes not found (shared/hermes-src or $STEWARD_HERMES_SRC): test skipped");
        String why = pythonProblem();
        Assumptions.assumeTrue(why == null, () -> why + ": test needs the real Hermes (Python 3 + PyYAML), skipped");
        return new RealHermes(src);
    }

    private static volatile String pythonProblem = "";

    /** Null when {@code python3 -c 'import yaml'} works, else what is missing. */
    static String pythonProblem() {
        if (!"".equals(pythonProblem)) return pythonProblem;
        String p;
        try {
            Process proc = new ProcessBuilder("python3", "-c", "import yaml, sqlite3")
                    .redirectErrorStream(true)
                    .start();
            proc.getInputStream().readAllBytes();
            p = proc.waitFor(30, TimeUnit.SECONDS) && proc.exitValue() == 0
                    ? null
                    : "python3 cannot import yaml (PyYAML missing)";
        } catch (IOException e) {
            p = "python3 not found";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p = "interrupted";
        }
        pythonProblem = p;
        return p;
    }

    public Path source() {
        return src;
    }

    /** A long-lived script from this module's test resources ({@code hermes/<name>}): one command line in, one line out. */
    public Driver start(String script) throws IOException {
        try (var in = RealHermes.class.getResourceAsStream("/hermes/" + script)) {
            if (in == null) throw new IOException("no test resource hermes/" + script);
            return startSource(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** A long-lived script given as Python source, with Hermes on its path: one command line in, one line out. */
    public Driver startSource(String python) throws IOException {
        Path file = Files.writeString(Files.createTempFile("hermes-", ".py"), python);
        ProcessBuilder pb =
                new ProcessBuilder("python3", file.toString()).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("HERMES_SRC", src.toString());
        return new Driver(pb.start(), file);
    }

    /** A running Hermes script; {@link #close()} ends it. */
    public static final class Driver implements AutoCloseable {
        private final Process process;
        private final Path file;
        private final BufferedReader out;
        private final Writer in;

        Driver(Process process, Path file) {
            this.process = process;
            this.file = file;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        }

        /** Sends one command line and returns the answer line. */
        public String send(String... words) throws IOException {
            in.write(String.join(" ", words) + "\n");
            in.flush();
            String line = out.readLine();
            if (line == null) throw new IOException("the Hermes script ended");
            return line;
        }

        @Override
        public void close() throws IOException {
            in.close();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            Files.deleteIfExists(file);
        }
    }

    /** Runs a script from this module's test resources ({@code hermes/<name>}) with Hermes on its path; returns its stdout. */
    public String run(String script, Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path file = Files.createTempFile("hermes-", ".py");
        try {
            try (var in = RealHermes.class.getResourceAsStream("/hermes/" + script)) {
                if (in == null) throw new IOException("no test resource hermes/" + script);
                Files.write(file, in.readAllBytes());
            }
            List<String> cmd = new ArrayList<>(List.of("python3", file.toString()));
            cmd.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().put("HERMES_SRC", src.toString());
            pb.environment().putAll(env);
            Process p = pb.start();
            byte[] err = new byte[0];
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(script + " did not finish");
            }
            if (p.exitValue() != 0) {
                throw new IOException(
                        script + " failed (" + p.exitValue() + "): " + new String(err, StandardCharsets.UTF_8));
            }
            return out.strip();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
