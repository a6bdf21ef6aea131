package steward.bench;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import steward.testing.TestHomes;

/** For end-to-end tests of this module: the shipped jar with the bench module's jar next to it, as a child process. */
public final class DevProcess {
    private DevProcess() {}

    public static Path stewardJar() {
        return built("steward.jar", "server/target/steward.jar");
    }

    public static Path benchJar() {
        return built("steward.bench.jar", "bench/target/steward-bench.jar");
    }

    private static Path built(String property, String fallback) {
        String p = System.getProperty(property);
        Path jar = p != null ? Path.of(p) : TestHomes.repo().resolve(fallback);
        if (!jar.toFile().isFile())
            throw new IllegalStateException("not built: " + jar + " (run through failsafe: mvn verify)");
        return jar;
    }

    public static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** {@code java -cp steward.jar:steward-bench.jar steward.cli.Main <args>}, as the launcher runs {@code steward bench}. */
    public static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(
                List.of(java(), "-cp", stewardJar() + File.pathSeparator + benchJar(), "steward.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }
}
