package steward.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Fixtures;
import steward.cli.Printer;

/**
 * Spawns the server N times and measures, per spawn, the time from process start to the first
 * {@code tools/call} result (initialize → tools/list → tools/call steward_status), and its peak RSS.
 * The command line is the launcher's (JVM flags and class-data-sharing archive included) unless
 * {@code --plain} asks for a bare {@code java -jar} baseline in the same run.
 */
@Command(name = "startup", description = "Median time from spawn to the first tools/call result, and peak RSS.")
public final class StartupBench implements Callable<Integer> {
    @Option(names = "-n", defaultValue = "15", description = "spawns per variant (default 15)")
    int n;

    @Option(names = "--jar", description = "the steward jar (default: the running one)")
    Path jar;

    @Option(
            names = "--cds",
            description = "class-data-sharing archive to use (default: steward.jsa beside the jar, if present)")
    Path cds;

    @Override
    public Integer call() throws Exception {
        Path jarPath = jar != null ? jar : Fixtures.runningJar();
        Path archive = cds != null ? cds : jarPath.resolveSibling("steward.jsa");
        Path home = Fixtures.copyHermesHome(Files.createTempDirectory("steward-bench-startup-"));
        String java = ProcessHandle.current().info().command().orElse("java");

        List<String> plain = List.of(java, "-jar", jarPath.toString(), "serve", "--hermes-home", home.toString());
        List<String> tuned = new ArrayList<>(List.of(java));
        tuned.addAll(LaunchFlags.jvmFlags(Files.isRegularFile(archive) ? archive : null));
        tuned.addAll(List.of("-jar", jarPath.toString(), "serve", "--hermes-home", home.toString()));

        Printer.println("steward bench startup: " + n
                + " spawns per variant, initialize → tools/list → tools/call steward_status");
        Result base = run(plain);
        Result fast = run(tuned);
        Printer.println(String.format("%-34s %10s %10s %12s", "variant", "median ms", "p90 ms", "peak RSS MiB"));
        Printer.println(String.format(
                "%-34s %10.0f %10.0f %12.1f", "plain java -jar (baseline)", base.median, base.p90, base.rssMiB));
        Printer.println(String.format(
                "%-34s %10.0f %10.0f %12.1f",
                "launcher flags" + (Files.isRegularFile(archive) ? " + AppCDS" : " (no CDS archive)"),
                fast.median,
                fast.p90,
                fast.rssMiB));
        Printer.println(
                String.format("ratio launcher/baseline: %.2f   target: median <= 600 ms", fast.median / base.median));
        return 0;
    }

    record Result(double median, double p90, double rssMiB) {}

    Result run(List<String> cmd) throws IOException, InterruptedException {
        List<Double> times = new ArrayList<>();
        double peakRss = 0;
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            OutputStream in = p.getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            StdioLines.send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}");
            StdioLines.await(out, "\"id\":1");
            StdioLines.send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            StdioLines.send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            StdioLines.await(out, "\"id\":2");
            StdioLines.send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{}}}");
            StdioLines.await(out, "\"id\":3");
            times.add((System.nanoTime() - t0) / 1e6);
            peakRss = Math.max(peakRss, vmHwmKiB(p.pid()) / 1024.0);
            in.close();
            p.waitFor();
        }
        Collections.sort(times);
        return new Result(
                times.get(times.size() / 2),
                times.get(Math.min(times.size() - 1, (int) Math.ceil(times.size() * 0.9) - 1)),
                peakRss);
    }

    static long vmHwmKiB(long pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | NumberFormatException ignored) {
            // not Linux, or the process is gone
        }
        return 0;
    }
}
