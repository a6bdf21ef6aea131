package steward.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import steward.json.Json;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.ToolResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

@Command(name = "call", description = {
        "Call a tool through the same registry as the MCP server, without an MCP client.",
        "Prints the structured result as JSON on stdout. Exit 0 on success, 1 on an isError result, 2 on a usage error."})
public final class CallCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Parameters(index = "0", paramLabel = "TOOL", description = "tool name, e.g. steward_status")
    String tool;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ARGS", description = "arguments: a JSON object, @file, or - for stdin (default {})")
    String args;

    @Override
    public Integer call() {
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
        ToolResult r = registry.invoke(tool, arguments, common.context());
        Printer.println(render(r));
        if (r.isError()) System.err.println(r.text().lines().findFirst().orElse(""));
        return r.isError() ? 1 : 0;
    }

    static String render(ToolResult r) {
        if (!r.isError()) return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(ToolRegistry.toJson(r.structured()));
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
            throw new IllegalArgumentException("arguments are not valid JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
