package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import steward.testing.TestHomes;

/** stdout belongs to the MCP protocol: no main code may touch it except the CLI's printer. */
class StdoutDisciplineTest {
    @Test
    void onlyThePrinterWritesToStdout() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (String module : List.of("tools/src/main/java", "server/src/main/java", "bench/src/main/java")) {
            Path root = TestHomes.repo().resolve(module);
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.filter(f -> f.toString().endsWith(".java")).toList()) {
                    if (p.endsWith(Path.of("steward/cli/Printer.java"))) continue;
                    List<String> lines = Files.readAllLines(p);
                    for (int i = 0; i < lines.size(); i++) {
                        String l = lines.get(i);
                        if (l.contains("System.out")
                                || l.contains("FileDescriptor.out")
                                || l.contains("printStackTrace()")) {
                            offenders.add(root.relativize(p) + ":" + (i + 1) + ": " + l.strip());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), offenders);
    }
}
