package steward.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import steward.Work;
import steward.config.StewardPaths;
import steward.server.tools.ToolContext;

/** Test helpers of the server module (the repository root and fixture copies are {@link steward.testing.TestHomes}). */
public final class TestSupport {
    private TestSupport() {}

    public static ToolContext context(Path home) {
        return new ToolContext(StewardPaths.of(home), Clock.systemUTC(), Work.NONE);
    }

    /**
     * A digest of every file under {@code dir}: path → bytes hash, to prove that nothing was written.
     * SQLite's own coordination files ({@code -wal}, {@code -shm}), which any reader of a WAL database
     * may create, are not data and are left out.
     */
    public static Map<String, Integer> snapshotTree(Path dir) throws IOException {
        Map<String, Integer> m = new TreeMap<>();
        if (!Files.exists(dir)) return m;
        try (var s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String n = p.getFileName().toString();
                if (n.endsWith(".db-wal") || n.endsWith(".db-shm")) continue;
                if (Files.isRegularFile(p)) m.put(dir.relativize(p).toString(), Arrays.hashCode(Files.readAllBytes(p)));
                else m.put(dir.relativize(p) + "/", 0);
            }
        }
        return m;
    }
}
