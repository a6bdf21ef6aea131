package steward.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Option;
import steward.cli.CommonOptions;
import steward.testing.TestHomes;

/** The startup benchmark measures the JVM flags the launcher really uses. */
class LaunchFlagsTest {
    @Test
    void launcherUsesTheFlagsTheStartupBenchmarkMeasures() throws Exception {
        String launcher = Files.readString(TestHomes.repo().resolve("steward"));
        for (String f : LaunchFlags.jvmFlags(null)) assertTrue(launcher.contains(f), "launcher lacks " + f);
        assertTrue(
                launcher.contains("    *) flags+=(" + String.join(" ", LaunchFlags.ONE_SHOT) + ") ;;"),
                "launcher lacks the one-shot heap flags " + LaunchFlags.ONE_SHOT);
        assertTrue(
                launcher.contains("if [ \"$command\" = \"serve\" ]; then flags+=(" + String.join(" ", LaunchFlags.SERVE)
                        + "); fi"),
                "launcher lacks the server's heap flags " + LaunchFlags.SERVE);
    }

    /**
     * Review of 2026-12-04: the launcher found the subcommand by skipping the values of --hermes-home and --state-dir
     * only, so `steward --claude-home C call …` took "C" for the command and the one-shot heap flags were not applied.
     * Every option every command takes (CommonOptions) has its value skipped, in either position.
     */
    @Test
    void theLauncherFindsTheCommandAfterEveryCommonOptionsValue() throws Exception {
        String launcher = Files.readString(TestHomes.repo().resolve("steward"));
        int from = launcher.indexOf("command=\"\"");
        int to = launcher.indexOf("done", from) + "done".length();
        String detect = launcher.substring(from, to) + "\necho \"$command\"\n";
        List<String> valued = new ArrayList<>();
        for (Field f : CommonOptions.class.getDeclaredFields()) {
            Option o = f.getAnnotation(Option.class);
            if (o != null && f.getType() != boolean.class) valued.addAll(List.of(o.names()));
        }
        assertTrue(valued.contains("--claude-home"), valued.toString());
        for (String opt : valued) {
            assertEquals("call", detect(detect, opt, "x", "call", "steward_status"), opt);
            assertEquals("call", detect(detect, "--hermes-home", "h", opt, "x", "call"), opt);
        }
        assertEquals("serve", detect(detect, "--claude-home=c", "serve"));
    }

    /**
     * Review of 2026-12-04: a session holding a 40 MB tool output made a one-shot session_apply die of OutOfMemoryError
     * under the one-shot cap (160 MiB) while backing it up. The tools that copy whole sessions run without the cap; every
     * other call keeps it (the recall figures are measured with it).
     */
    @Test
    void sessionApplyAndRestoreRunWithoutTheOneShotHeapCap() throws Exception {
        String launcher = Files.readString(TestHomes.repo().resolve("steward"));
        int from = launcher.indexOf("flags=(");
        int to = launcher.indexOf("\nfi\n", launcher.indexOf("if [ \"$command\" = \"call\" ]")) + 4;
        String script = launcher.substring(from, to) + "\necho \"${flags[*]}\"\n";
        for (String tool : List.of("session_apply", "session_restore"))
            assertTrue(!run(script, "call", tool, "{}").contains("-Xmx"), tool);
        for (String tool : List.of("session_audit", "recall_search", "steward_status"))
            assertTrue(run(script, "call", tool, "{}").contains("-Xmx160m"), tool);
    }

    private static String run(String script, String... args) throws Exception {
        String command = args[0];
        return detect("command=" + command + "\n" + script, args);
    }

    private static String detect(String script, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", script, "steward"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return out;
    }
}
