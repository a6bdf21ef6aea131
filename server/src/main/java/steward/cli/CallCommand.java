package steward.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import steward.json.Json;
import steward.recall.RecallRuntime;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.ToolResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

@Command(
        name = "call",
        description = {
            "Call a tool through the same registry as the MCP server, without an MCP client.",
            "Prints the structured result as JSON on stdout (--text: the readable text). Exit 0 on success, 1 on an isError result, "
                    + "2 on a usage error. Progress of a long call goes to stderr; Ctrl-C stops it at a safe point."
        })
public final class CallCommand implements Callable<Integer> {
    /** How long Ctrl-C waits for the call to reach a safe point before the process ends anyway. */
    static final long CANCEL_WAIT_SECONDS = 30;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Parameters(index = "0", paramLabel = "TOOL", description = "tool name, e.g. steward_status")
    String tool;

    @Parameters(
            index = "1",
            arity = "0..1",
            paramLabel = "ARGS",
            description = "arguments: a JSON object, @file, or - for stdin (default {})")
    String args;

    @Option(
            names = "--text",
            description = "print the result's readable text (what an agent reads) instead of its JSON")
    boolean text;

    @Option(
            names = "--progress",
            paramLabel = "WHEN",
            defaultValue = "auto",
            description =
                    "progress lines on stderr: auto (calls running over a second), always, never (default ${DEFAULT-VALUE})")
    StderrProgress.Mode progress;

    @Override
    public Integer call() {
        RecallRuntime.process().oneShot(); // one query embedded at most: the lean model (RecallRuntime#oneShot)
        ToolRegistry registry = Tools.registry();
        if (registry.find(tool).isEmpty()) {
            ToolResult r = registry.invoke(tool, null, common.context());
            Printer.println(render(r));
            System.err.println("steward call: " + r.text());
            return 2;
        }
        JsonNode arguments;
        try {
            arguments = parseArgs(args);
        } catch (IllegalArgumentException e) {
            System.err.println("steward call: " + e.getMessage());
            return 2;
        }
        ToolResult r;
        try {
            r = invoke(registry, arguments);
        } catch (OutOfMemoryError e) {
            // a one-shot call runs with a small heap (the launcher's); what it had written is settled by the next
            // call (journals) or was never committed (transactions roll back)
            System.err.println("steward call " + tool + ": out of memory (Java heap of "
                    + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                    + " MiB): something in the home is larger than this heap holds (a change it began is settled by"
                    + " the next call); run it through the MCP server (steward serve), or as java -Xmx1g -jar"
                    + " steward.jar call …");
            return 1;
        }
        if (text) {
            Printer.println(r.text() == null ? "" : r.text());
        } else {
            Printer.println(render(r));
            if (r.isError()) System.err.println(r.text().lines().findFirst().orElse(""));
        }
        return r.isError() ? 1 : 0;
    }

    /** Runs the call with progress on stderr; Ctrl-C (or SIGTERM) cancels it and waits for its safe point. */
    private ToolResult invoke(ToolRegistry registry, JsonNode arguments) {
        StderrProgress work = new StderrProgress("steward call " + tool, progress);
        CountDownLatch finished = new CountDownLatch(1);
        Thread onSignal = new Thread(
                () -> {
                    if (finished.getCount() == 0) return;
                    System.err.println("steward call " + tool + ": stopping at the next safe point ...");
                    work.cancel();
                    try {
                        if (!finished.await(CANCEL_WAIT_SECONDS, TimeUnit.SECONDS))
                            System.err.println("steward call " + tool + ": did not stop in time");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "steward-call-cancel");
        Runtime.getRuntime().addShutdownHook(onSignal);
        try {
            return registry.invoke(tool, arguments, common.context(work));
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it has seen finished and returns
            }
        }
    }

    static String render(ToolResult r) {
        if (!r.isError())
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(ToolRegistry.toJson(r.structured()));
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("isError", true);
        n.put("message", r.text());
        if (r.structured() != null) n.set("result", ToolRegistry.toJson(r.structured()));
        return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(n);
    }

    static JsonNode parseArgs(String spec) {
        if (spec == null || spec.isBlank()) return Json.MAPPER.createObjectNode();
        String text;
        try {
            if (spec.equals("-")) text = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            else if (spec.startsWith("@")) text = Files.readString(Path.of(spec.substring(1)));
            else text = spec;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read arguments from " + spec + ": " + e.getMessage());
        }
        try {
            return Json.MAPPER.readTree(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("arguments are not valid JSON: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
