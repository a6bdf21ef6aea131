package steward.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import steward.testing.TestHomes;

/** The startup benchmark measures the JVM flags the launcher really uses. */
class LaunchFlagsTest {
    @Test
    void launcherUsesTheFlagsTheStartupBenchmarkMeasures() throws Exception {
        String launcher = Files.readString(TestHomes.repo().resolve("steward"));
        for (String f : LaunchFlags.jvmFlags(null)) assertTrue(launcher.contains(f), "launcher lacks " + f);
        assertTrue(
                launcher.contains("if [ \"$command\" = \"call\" ]; then flags+=("
                        + String.join(" ", LaunchFlags.ONE_SHOT) + "); fi"),
                "launcher lacks the one-shot heap flags " + LaunchFlags.ONE_SHOT);
        assertTrue(
                launcher.contains("if [ \"$command\" = \"serve\" ]; then flags+=(" + String.join(" ", LaunchFlags.SERVE)
                        + "); fi"),
                "launcher lacks the server's heap flags " + LaunchFlags.SERVE);
    }
}
