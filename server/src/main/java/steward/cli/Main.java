package steward.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import steward.server.McpServerFactory;

/** The launcher: {@code steward [serve|call|tools|demo|bench]}; with no command it serves MCP on stdio. */
@Command(name = "steward", mixinStandardHelpOptions = true, version = "steward " + McpServerFactory.VERSION,
        description = "Steward: an MCP tool server that keeps an agent's sessions and memory in order.",
        subcommands = {ServeCommand.class, CallCommand.class, ToolsCommand.class, DemoCommand.class, BenchCommand.class, IndexCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        Printer.install(); // from here on only the Printer reaches the real stdout
        CommandLine cl = new CommandLine(new Main());
        DevExtension.find().ifPresent(dev -> dev.benchmarks().forEach(cl.getSubcommands().get("bench")::addSubcommand));
        cl.setOut(new PrintWriter(Printer.out(), true));
        cl.setErr(new PrintWriter(System.err, true));
        int code = cl.execute(args);
        System.exit(code);
    }

    @Override
    public Integer call() throws Exception {
        ServeCommand serve = new ServeCommand();
        return new CommandLine(serve).execute(forward());
    }

    private String[] forward() {
        List<String> a = new ArrayList<>();
        if (common.hermesHomeFlag() != null) { a.add("--hermes-home"); a.add(common.hermesHomeFlag()); }
        if (common.claudeHomeFlag() != null) { a.add("--claude-home"); a.add(common.claudeHomeFlag()); }
        if (common.stateDirFlag() != null) { a.add("--state-dir"); a.add(common.stateDirFlag()); }
        return a.toArray(new String[0]);
    }
}
