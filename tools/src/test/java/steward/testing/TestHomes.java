package steward.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test helper: a private, writable copy of {@code fixtures/hermes-home}. */
public final class TestHomes {
    private TestHomes() {}

    public static Path repo() {
        String p = System.getProperty("steward.repo");
        Path base = p != null ? Path.of(p) : Path.of("").toAbsolutePath();
        for (Path b = base.toAbsolutePath(); b != null; b = b.getParent()) {
            if (Files.isDirectory(b.resolve("fixtures/hermes-home"))) return b;
        }
        throw new IllegalStateException("repository root with fixtures/hermes-home not found from " + base);
    }

    public static Path fixtureHome() {
        return repo().resolve("fixtures/hermes-home");
    }

    public static Path copyFixture(Path tempDir) throws IOException {
        Path from = fixtureHome();
        Path to = tempDir.resolve("hermes-home");
        steward.state.FileTrees.copy(from, to);
        return to;
    }
}
