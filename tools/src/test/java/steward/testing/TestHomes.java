package steward.testing;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

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
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path t = to.resolve(from.relativize(file).toString());
                Files.copy(file, t, StandardCopyOption.REPLACE_EXISTING);
                t.toFile().setWritable(true, true);
                return FileVisitResult.CONTINUE;
            }
        });
        return to;
    }
}
