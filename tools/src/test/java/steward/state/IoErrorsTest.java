package steward.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of 2026-12-04: with `memories` a file, memory_write said "not a directory: …/memories/MEMORY.md" and memory_log
 * "cannot write …/logs/2026-12-04.md: …/memories" (a bare path): both now name the file in the way.
 */
class IoErrorsTest {
    @TempDir
    Path tmp;

    @Test
    void aFileInTheWayOfAFolderIsNamed() throws Exception {
        Path memories = Files.writeString(tmp.resolve("memories"), "oops");
        Exception read = org.junit.jupiter.api.Assertions.assertThrows(
                Exception.class, () -> Files.readAllBytes(memories.resolve("MEMORY.md")));
        assertEquals("not a directory: " + memories, IoErrors.describe(read));
        Exception mkdirs = org.junit.jupiter.api.Assertions.assertThrows(
                Exception.class, () -> Files.createDirectories(memories.resolve("logs")));
        assertEquals("not a directory: " + memories, IoErrors.describe(mkdirs));
    }
}
