package steward.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

import steward.state.FileTrees;

/** Finds {@code fixtures/hermes-home} next to the jar's repository (or under the working directory) and copies it. */
public final class Fixtures {
    private Fixtures() {}

    public static Path locateHermesHome() {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path base = cwd; base != null; base = base.getParent()) {
            Path p = base.resolve("fixtures/hermes-home");
            if (Files.isRegularFile(p.resolve("state.db"))) return p;
        }
        try {
            Path jar = runningJar().toAbsolutePath();
            for (Path base = jar.getParent(); base != null; base = base.getParent()) {
                Path p = base.resolve("fixtures/hermes-home");
                if (Files.isRegularFile(p.resolve("state.db"))) return p;
            }
        } catch (URISyntaxException | SecurityException ignored) {
            // fall through
        }
        throw new IllegalStateException("fixtures/hermes-home not found: run from the Steward repository");
    }

    /** The jar (or classes directory) this code runs from. */
    public static Path runningJar() throws URISyntaxException {
        return Path.of(Fixtures.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    public static Path copyHermesHome(Path targetParent) throws IOException {
        Path home = targetParent.resolve("hermes-home");
        FileTrees.copy(locateHermesHome(), home);
        return home;
    }
}
