package steward.state;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.stream.Stream;

/** Whole-directory copies and removals, for the demo, the benchmarks and the tests' private fixture homes. */
public final class FileTrees {
    private FileTrees() {}

    /** Copies the tree at {@code from} into {@code to} (created as needed); copied files are writable by their owner. */
    public static void copy(Path from, Path to) throws IOException {
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
    }

    /** Deletes {@code root} and everything below it; a missing root is nothing to do. */
    public static void delete(Path root) throws IOException {
        if (!Files.exists(root)) return;
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
