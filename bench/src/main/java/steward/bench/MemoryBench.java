package steward.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.Work;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.memory.MemoryRequest;
import steward.memory.MemoryWriter;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import steward.state.AtomicFiles;

/**
 * Median latency of one {@code memory_write} call: in process through the registry (warm; add, replace, batch),
 * against the baseline of one bare atomic write of the same file in the same run, and over stdio (the jar
 * spawned once, many {@code tools/call} round trips).
 */
@Command(
        name = "memory",
        description = "Median latency per memory_write call: in process (add / replace / batch) and over stdio.")
public final class MemoryBench implements Callable<Integer> {
    @Option(names = "-n", defaultValue = "400", description = "measured calls per variant (default 400)")
    int n;

    @Option(names = "--warmup", defaultValue = "300", description = "warm-up calls per variant (default 300)")
    int warmup;

    @Option(
            names = "--dir",
            description =
                    "where to put the temporary Hermes home (default: the system temp dir; try /dev/shm to leave the disk's fsync out)")
    Path dir;

    @Option(names = "--jar", description = "the steward jar for the stdio run (default: the running one)")
    Path jar;

    @Override
    public Integer call() throws Exception {
        Path home = Fixtures.copyHermesHome(
                dir == null
                        ? Files.createTempDirectory("steward-bench-memory-")
                        : Files.createTempDirectory(dir, "steward-bench-memory-"));
        Files.writeString(
                home.resolve("config.yaml"), "memory:\n  memory_char_limit: 10000000\n  user_char_limit: 10000000\n");
        ToolRegistry registry = Tools.registry();
        ToolContext ctx = new ToolContext(StewardPaths.of(home), Clock.systemUTC(), Work.NONE);
        Printer.println("steward bench memory: " + n + " measured calls per variant after " + warmup
                + " warm-up calls; home " + home);

        Path mem = home.resolve("memories/MEMORY.md");
        byte[] bytes = Files.readAllBytes(mem);
        Path scratch = home.resolve("memories/scratch.md");
        double base = median(i -> AtomicFiles.write(scratch, bytes));
        Files.deleteIfExists(scratch);

        int[] seq = {0};
        double add = median(
                i -> invoke(registry, ctx, "{\"action\":\"add\",\"content\":\"[env] bench fact " + (seq[0]++) + "\"}"));
        invoke(registry, ctx, "{\"action\":\"add\",\"content\":\"[ops] bench replace target v0\"}");
        int[] v = {0};
        double replace = median(i -> invoke(
                registry,
                ctx,
                "{\"action\":\"replace\",\"old_text\":\"bench replace target v" + v[0]
                        + "\",\"content\":\"[ops] bench replace target v" + (++v[0]) + "\"}"));
        int[] b = {0};
        invoke(registry, ctx, "{\"action\":\"add\",\"content\":\"[ops] bench batch item 0\"}");
        double batch = median(i -> invoke(
                registry,
                ctx,
                "{\"operations\":[{\"action\":\"remove\",\"old_text\":\"bench batch item " + b[0]
                        + "\"},{\"action\":\"add\",\"content\":\"[ops] bench batch item " + (++b[0]) + "\"}]}"));

        MemoryWriter engine = new MemoryWriter(ctx.paths(), ctx.clock());
        int[] e = {0};
        double engineAdd = median(i -> {
            if (!engine.write(MemoryRequest.add("memory", "[env] engine fact " + (e[0]++)))
                    .success()) {
                throw new IllegalStateException("engine add failed");
            }
        });

        Printer.println(String.format("%-44s %10s", "in process (registry → engine → disk)", "median ms"));
        Printer.println(String.format("%-44s %10.3f", "baseline: one bare atomic write of MEMORY.md", base));
        Printer.println(String.format("%-44s %10.3f   (%.1fx baseline)", "memory_write add", add, add / base));
        Printer.println(String.format(
                "%-44s %10.3f   (%.1fx baseline)",
                "engine only (MemoryWriter add, no JSON)", engineAdd, engineAdd / base));
        Printer.println(
                String.format("%-44s %10.3f   (%.1fx baseline)", "memory_write replace", replace, replace / base));
        Printer.println(String.format(
                "%-44s %10.3f   (%.1fx baseline)", "memory_write batch (remove + add)", batch, batch / base));
        Printer.println("target: <= 2 ms in process");

        double stdio = stdio(home);
        Printer.println(String.format(
                "%-44s %10.3f   (%.1fx in-process add)",
                "over stdio: tools/call memory_write add", stdio, stdio / add));
        return 0;
    }

    interface Call {
        void run(int i) throws Exception;
    }

    double median(Call c) throws Exception {
        for (int i = 0; i < warmup; i++) c.run(i);
        List<Double> t = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            c.run(i);
            t.add((System.nanoTime() - t0) / 1e6);
        }
        Collections.sort(t);
        return t.get(t.size() / 2);
    }

    static void invoke(ToolRegistry r, ToolContext ctx, String json) {
        ToolResult res = r.invoke("memory_write", Json.MAPPER.readTree(json), ctx);
        if (res.isError()) throw new IllegalStateException("bench call failed: " + res.text());
    }

    double stdio(Path home) throws Exception {
        Path jarPath = jar != null ? jar : Fixtures.runningJar();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(LaunchFlags.serve(null));
        cmd.addAll(List.of("-jar", jarPath.toString(), "serve", "--hermes-home", home.toString()));
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            OutputStream in = p.getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            StdioLines.send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}");
            StdioLines.await(out, "\"id\":1");
            StdioLines.send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            int id = 10;
            int[] k = {0};
            List<Double> t = new ArrayList<>();
            for (int i = 0; i < warmup + n; i++) {
                int rid = id++;
                long t0 = System.nanoTime();
                StdioLines.send(
                        in,
                        "{\"jsonrpc\":\"2.0\",\"id\":" + rid
                                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\","
                                + "\"arguments\":{\"action\":\"add\",\"content\":\"[env] stdio bench fact " + (k[0]++)
                                + "\"}}}");
                String line = StdioLines.await(out, "\"id\":" + rid + ",");
                if (line.contains("\"isError\":true")) throw new IllegalStateException("stdio call failed: " + line);
                if (i >= warmup) t.add((System.nanoTime() - t0) / 1e6);
            }
            Collections.sort(t);
            return t.get(t.size() / 2);
        } finally {
            p.getOutputStream().close();
            p.destroy();
        }
    }
}
