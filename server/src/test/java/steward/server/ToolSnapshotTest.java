package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import steward.json.Json;
import steward.server.tools.StewardTool;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every registered tool's {@code tools/list} entry without its schemas (name, title, description,
 * annotations) equals its committed snapshot in {@code server/src/test/snapshots/<tool>.json}; the schemas
 * are not copied: {@code schemas/} is the contract and is checked by {@link #schemaFilesAndToolsMatchOneToOne}
 * and the schema tests. A missing snapshot fails. {@code mvn test -Dsnapshot.update=true} regenerates them.
 */
class ToolSnapshotTest {
    static Path dir() {
        return TestHomes.repo().resolve("server/src/test/snapshots");
    }

    @Test
    void toolsListEntriesMatchTheirSnapshots() throws IOException {
        boolean update = Boolean.getBoolean("snapshot.update");
        Files.createDirectories(dir());
        for (StewardTool<?> t : Tools.registry().tools()) {
            ObjectNode actual = Json.MAPPER.valueToTree(McpServerFactory.describe(t));
            assertEquals(
                    Schemas.input(t.name()),
                    actual.get("inputSchema"),
                    t.name() + ": tools/list carries schemas/" + t.name() + ".input.json");
            assertEquals(
                    Schemas.output(t.name()),
                    actual.get("outputSchema"),
                    t.name() + ": tools/list carries schemas/" + t.name() + ".output.json");
            actual.remove(List.of("inputSchema", "outputSchema"));
            Path file = dir().resolve(t.name() + ".json");
            String rendered = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(actual) + "\n";
            if (update) {
                Files.writeString(file, rendered);
                continue;
            }
            if (!Files.exists(file))
                fail("no snapshot for " + t.name() + " (run mvn test -Dsnapshot.update=true and review the file)");
            JsonNode expected = Json.MAPPER.readTree(Files.readString(file));
            assertEquals(expected, actual, "tools/list entry of " + t.name() + " differs from " + file);
        }
    }

    @Test
    void snapshotsAndToolsMatchOneToOne() throws IOException {
        if (Boolean.getBoolean("snapshot.update")) {
            Set<String> names =
                    Tools.registry().tools().stream().map(StewardTool::name).collect(Collectors.toSet());
            try (Stream<Path> s = Files.list(dir())) {
                for (Path p : s.toList())
                    if (!names.contains(p.getFileName().toString().replace(".json", ""))) Files.delete(p);
            }
        }
        Set<String> tools =
                Tools.registry().tools().stream().map(StewardTool::name).collect(Collectors.toCollection(TreeSet::new));
        Set<String> snaps;
        try (Stream<Path> s = Files.list(dir())) {
            snaps = s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".json"))
                    .map(n -> n.substring(0, n.length() - 5))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(tools, snaps, "snapshots and registered tools must match one to one");
        assertTrue(!tools.isEmpty());
    }

    @Test
    void schemaFilesAndToolsMatchOneToOne() throws IOException {
        Set<String> expected = new TreeSet<>();
        for (StewardTool<?> t : Tools.registry().tools()) {
            expected.add(t.name() + ".input.json");
            expected.add(t.name() + ".output.json");
        }
        Set<String> files;
        try (Stream<Path> s = Files.list(TestHomes.repo().resolve("schemas"))) {
            files = s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(expected, files, "schemas/ holds exactly one input and one output schema per registered tool");
    }
}
