package steward.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;
import steward.config.StewardPaths;
import steward.server.McpServerFactory;
import steward.state.TempSweep;

/** The launcher: {@code steward [serve|call|tools|demo|bench|schedule|repair-index]}; with no command it serves MCP on stdio. */
@Command(
        name = "steward",
        mixinStandardHelpOptions = true,
        version = "steward " + McpServerFactory.VERSION,
        description = "Steward: an MCP tool server that keeps an agent's sessions and memory in order.",
        subcommands = {
            ServeCommand.class,
            CallCommand.class,
            ToolsCommand.class,
            BackupsCommand.class,
            DemoCommand.class,
            BenchCommand.class,
            ScheduleCommand.class,
            RepairIndexCommand.class,
            IndexCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Main implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    public static void main(String[] args) {
        Logging.configure(args, System.getenv()); // before the first logger exists
        // JNA (flock) unpacks its native library into ~/.cache/JNA unless told otherwise: Steward writes only in the
        // homes and its state dir, so the library goes to the system temp dir
        if (System.getProperty("jna.tmpdir") == null) {
            System.setProperty(
                    "jna.tmpdir",
                    java.nio.file.Path.of(
                                    System.getProperty("java.io.tmpdir"),
                                    "steward-jna-" + System.getProperty("user.name", "user"))
                            .toString());
        }
        // DJL (the recall tokenizer) unpacks its native library into ~/.djl.ai unless told otherwise
        if (System.getProperty("DJL_CACHE_DIR") == null && System.getenv("DJL_CACHE_DIR") == null) {
            System.setProperty(
                    "DJL_CACHE_DIR",
                    java.nio.file.Path.of(
                                    System.getProperty("java.io.tmpdir"),
                                    "steward-djl-" + System.getProperty("user.name", "user"))
                            .toString());
        }
        Printer.install(); // from here on only the Printer reaches the real stdout
        NativeExit.install(
                steward.recall.RecallRuntime.process()); // SIGTERM/SIGINT stop recall before ONNX Runtime's hook runs
        int status = commandLine().execute(args);
        NativeExit.exit(steward.recall.RecallRuntime.process(), status);
    }

    /** The command tree as {@link #main} runs it (tests parse with it too). */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        DevExtension.find()
                .ifPresent(dev -> dev.benchmarks().forEach(cl.getSubcommands().get("bench")::addSubcommand));
        Set<CommandSpec> unused = new HashSet<>();
        complete(cl, unused);
        // ARGS of `steward call` may be @file: Steward reads that file itself (picocli would split its JSON on spaces)
        cl.setExpandAtFiles(false);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(new PrintWriter(Printer.out(), true));
        cl.setErr(new PrintWriter(System.err, true));
        cl.setExecutionStrategy(pr -> {
            noteUnused(pr, unused);
            sweep(pr, unused);
            return new CommandLine.RunLast().execute(pr);
        });
        return cl;
    }

    /**
     * Every command gets --help/--version and the common options, including the benchmarks the bench module adds:
     * a script may always append --hermes-home, --state-dir and --log-level. Commands that do not read a home get
     * the options too (recorded in {@code unused}, so that giving them there is noted, not silently ignored).
     */
    private static void complete(CommandLine cl, Set<CommandSpec> unused) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            if (spec.userObject() instanceof CommandLine.HelpCommand) continue;
            spec.mixinStandardHelpOptions(true);
            if (!spec.mixins().containsKey("common")) {
                spec.addMixin("common", CommandSpec.forAnnotatedObject(new CommonOptions()));
                unused.add(spec);
            }
            complete(sub, unused);
        }
    }

    /**
     * Every command that works on a home first removes the temp files a killed Steward left there (once per process,
     * bounded; see {@link TempSweep}). Commands that work on their own temporary copies do not look at the homes.
     */
    private static void sweep(ParseResult pr, Set<CommandSpec> unused) {
        ParseResult last = pr;
        while (last.hasSubcommand()) last = last.subcommand();
        if (unused.contains(last.commandSpec()) || last.isUsageHelpRequested() || last.isVersionHelpRequested()) return;
        CommandSpec m = last.commandSpec().mixins().get("common");
        if (m == null || !(m.userObject() instanceof CommonOptions c)) return;
        try {
            StewardPaths p = c.paths();
            TempSweep.atStart(p.stateDir(), p.hermesHome());
        } catch (RuntimeException e) {
            // housekeeping only: the command reports a bad path itself
        }
    }

    private static void noteUnused(ParseResult pr, Set<CommandSpec> unused) {
        ParseResult last = pr;
        while (last.hasSubcommand()) last = last.subcommand();
        if (!unused.contains(last.commandSpec())) return;
        for (String o : List.of("--hermes-home", "--state-dir")) {
            if (last.hasMatchedOption(o)) {
                System.err.println(
                        "steward " + last.commandSpec().qualifiedName().replaceFirst("^steward ", "") + ": " + o
                                + " is not used by this command (it works on its own temporary copies)");
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        ServeCommand serve = new ServeCommand();
        return new CommandLine(serve).execute(forward());
    }

    private String[] forward() {
        List<String> a = new ArrayList<>();
        if (common.hermesHomeFlag() != null) {
            a.add("--hermes-home");
            a.add(common.hermesHomeFlag());
        }
        if (common.claudeHomeFlag() != null) {
            a.add("--claude-home");
            a.add(common.claudeHomeFlag());
        }
        if (common.stateDirFlag() != null) {
            a.add("--state-dir");
            a.add(common.stateDirFlag());
        }
        return a.toArray(new String[0]);
    }
}
