package steward.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.json.Json;
import steward.server.McpServerFactory;
import steward.server.Tools;
import steward.server.tools.StewardTool;
import tools.jackson.databind.node.ArrayNode;

@Command(name = "tools", description = "List the tools with their annotations and schemas (as tools/list shows them).")
public final class ToolsCommand implements Callable<Integer> {
    @Option(names = "--names", description = "print only the names")
    boolean namesOnly;

    @Override
    public Integer call() {
        if (namesOnly) {
            for (StewardTool t : Tools.registry().tools()) Printer.println(t.name());
            return 0;
        }
        ArrayNode arr = Json.MAPPER.createArrayNode();
        for (StewardTool t : Tools.registry().tools()) {
            arr.add(Json.MAPPER.valueToTree(McpServerFactory.describe(t)));
        }
        Printer.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(arr));
        return 0;
    }
}
