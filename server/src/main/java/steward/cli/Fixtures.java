package steward.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import steward.claude.fixture.ClaudeHomeFixture;
import steward.state.FileTrees;

/**
 * Finds {@code fixtures/hermes-home} and {@code fixtures/claude-home} next to the jar's repository (or under the working
 * directory) and copies them.
 */
public final class Fixtures {
    private Fixtures() {}

    public static Path locateHermesHome() {
        return locate("fixtures/hermes-home", "state.db");
    }

    public static Path locateClaudeHome() {
        return locate("fixtures/claude-home", "manifest.json");
    }

    private static Path locate(String dir, String marker) {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path base = cwd; base != null; base = base.getParent()) {
            Path p = base.resolve(dir);
            if (Files.isRegularFile(p.resolve(marker))) return p;
        }
        try {
            Path jar = runningJar().toAbsolutePath();
            for (Path base = jar.getParent(); base != null; base = base.getParent()) {
                Path p = base.resolve(dir);
                if (Files.isRegularFile(p.resolve(marker))) return p;
            }
        } catch (URISyntaxException | SecurityException ignored) {
            // fall through
        }
        throw new IllegalStateException(dir + " not found: run from the Steward repository");
    }

    /** A copy of {@code fixtures/claude-home} at {@code <targetParent>/claude-home}, file times set from its manifest. */
    public static Path installClaudeHome(Path targetParent) throws IOException {
        return ClaudeHomeFixture.install(locateClaudeHome(), targetParent.resolve("claude-home"), false);
    }

    /** The jar (or classes directory) this code runs from. */
    public static Path runningJar() throws URISyntaxException {
        return Path.of(Fixtures.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    }

    public static Path copyHermesHome(Path targetParent) throws IOException {
        Path home = targetParent.resolve("hermes-home");
        FileTrees.copy(locateHermesHome(), home);
        return home;
    }
}
