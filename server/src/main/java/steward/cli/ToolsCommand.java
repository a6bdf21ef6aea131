package steward.cli;

import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import steward.docs.RuleTables;
import steward.json.Json;
import steward.server.McpServerFactory;
import steward.server.Schemas;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.StewardTool;
import tools.jackson.databind.node.ArrayNode;

@Command(name = "tools", description = "List the tools with their annotations and schemas (as tools/list shows them).")
public final class ToolsCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions(); // accepted like everywhere; the list does not depend on the home

    @Option(names = "--names", description = "print only the names")
    boolean namesOnly;

    @Option(
            names = "--stats",
            description =
                    "print what the tool surface costs an agent: characters of descriptions and input schemas, size of tools/list")
    boolean stats;

    @Option(names = "--markdown", description = "print README's tool table")
    boolean markdown;

    @Option(
            names = "--rules-markdown",
            description = "print README's rule tables (session rules, learning rules, recall gates, precheck checks, "
                    + "memory lifecycle rules) between their markers")
    boolean rulesMarkdown;

    @Override
    public Integer call() {
        if (stats) {
            Printer.println(Stats.of(Tools.registry()).line());
            return 0;
        }
        if (markdown) {
            Printer.println(markdownTable(Tools.registry()));
            return 0;
        }
        if (rulesMarkdown) {
            Printer.println(RuleTables.markdown());
            return 0;
        }
        if (namesOnly) {
            for (StewardTool<?> t : Tools.registry().tools()) Printer.println(t.name());
            return 0;
        }
        ArrayNode arr = Json.MAPPER.createArrayNode();
        for (StewardTool<?> t : Tools.registry().tools()) {
            arr.add(Json.MAPPER.valueToTree(McpServerFactory.describe(t)));
        }
        Printer.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(arr));
        return 0;
    }

    /** README's tool table, generated from the registry and the schemas (a test keeps README in sync). */
    public static String markdownTable(ToolRegistry registry) {
        StringBuilder sb = new StringBuilder();
        sb.append("| tool | what it does | arguments (* = required) | hints |\n");
        sb.append("|---|---|---|---|\n");
        for (StewardTool<?> t : registry.tools()) {
            var in = Schemas.input(t.name());
            Set<String> required = new HashSet<>();
            if (in.has("required")) in.get("required").forEach(r -> required.add(r.asString()));
            List<String> args = new ArrayList<>();
            if (in.has("properties")) {
                in.get("properties")
                        .propertyNames()
                        .forEach(n -> args.add("`" + n + "`" + (required.contains(n) ? "*" : "")));
            }
            String d = t.description();
            int dot = d.indexOf(". ");
            String first = (dot > 0 ? d.substring(0, dot + 1) : d).replace("|", "\\|");
            var h = t.hints();
            List<String> hints = new ArrayList<>();
            hints.add(h.readOnly() ? "read-only" : "writes");
            if (h.destructive()) hints.add("destructive");
            if (h.idempotent()) hints.add("idempotent");
            if (h.openWorld()) hints.add("open-world");
            sb.append("| `")
                    .append(t.name())
                    .append("` | ")
                    .append(first)
                    .append(" | ")
                    .append(args.isEmpty() ? "—" : String.join(", ", args))
                    .append(" | ")
                    .append(String.join(", ", hints))
                    .append(" |\n");
        }
        return sb.toString().stripTrailing();
    }

    /**
     * What the surface costs an agent on every turn: the characters of every tool's description and of its input
     * schema (as compact JSON), and the size of the whole tools/list result as the server sends it.
     */
    public record Stats(int tools, int descriptionChars, int inputSchemaChars, int toolsListChars) {
        /** Characters of descriptions plus input schemas that all tools together may cost (issue 15; a test holds it). */
        public static final int BUDGET = 12_000;
        /** Characters one tool's description may take, so that ~18 tools fit {@link #BUDGET} with their schemas. */
        public static final int MAX_DESCRIPTION = 450;

        public static Stats of(ToolRegistry registry) {
            int d = 0, in = 0;
            List<McpSchema.Tool> listed = new ArrayList<>();
            for (StewardTool<?> t : registry.tools()) {
                d += t.description().length();
                in += Json.MAPPER.writeValueAsString(Schemas.input(t.name())).length();
                listed.add(McpServerFactory.describe(t));
            }
            String list;
            try {
                list = McpServerFactory.mapper()
                        .writeValueAsString(
                                McpSchema.ListToolsResult.builder(listed).build());
            } catch (IOException e) {
                throw new IllegalStateException("cannot serialise tools/list", e);
            }
            return new Stats(listed.size(), d, in, list.length());
        }

        public String line() {
            return String.format(
                    Locale.ROOT,
                    "%d tools: descriptions %,d + input schemas %,d = %,d characters (budget %,d); tools/list %,d characters",
                    tools,
                    descriptionChars,
                    inputSchemaChars,
                    total(),
                    BUDGET,
                    toolsListChars);
        }

        /** Descriptions plus input schemas: what every turn of an agent pays for. */
        public int total() {
            return descriptionChars + inputSchemaChars;
        }
    }
}
