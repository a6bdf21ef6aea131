package steward.recall;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model file unpacked into {@code <state>/recall/model/}: a damaged one (truncated by a kill, or the same size with
 * other bytes) is unpacked again before it is used; a good one is reused as it is, not rewritten. The tokenizer resource
 * stands in for the 34 MB model: {@link DenseModel#unpack} treats every resource alike.
 */
class ModelUnpackTest {
    static final String NAME = DenseModel.TOKENIZER;
    static byte[] resource;

    @TempDir
    Path dir;

    @BeforeAll
    static void read() throws Exception {
        try (InputStream in = DenseModel.resource(NAME)) {
            resource = in.readAllBytes();
        }
    }

    @Test
    void aMissingFileIsUnpackedWhole() throws Exception {
        Path f = DenseModel.unpack(dir.resolve("model"), NAME);
        assertArrayEquals(resource, Files.readAllBytes(f));
        assertEquals(List.of(f.getFileName().toString()), names(f.getParent()), "no temp file left");
    }

    @Test
    void aGoodFileIsReusedWithoutBeingRewritten() throws Exception {
        Path f = DenseModel.unpack(dir, NAME);
        FileTime old = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));
        Files.setLastModifiedTime(f, old);
        Object inode = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
        Path again = DenseModel.unpack(dir, NAME);
        assertEquals(f, again);
        assertEquals(old, Files.getLastModifiedTime(f), "not rewritten");
        assertEquals(inode, Files.readAttributes(f, BasicFileAttributes.class).fileKey(), "not replaced");
    }

    @Test
    void aTruncatedFileIsUnpackedAgain() throws Exception {
        Path f = DenseModel.unpack(dir, NAME);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(resource.length / 3); // what a kill mid-copy used to leave
        }
        DenseModel.unpack(dir, NAME);
        assertArrayEquals(resource, Files.readAllBytes(f));
    }

    @Test
    void aFileOfTheRightSizeWithOtherBytesIsUnpackedAgain() throws Exception {
        Path f = DenseModel.unpack(dir, NAME);
        byte[] bad = resource.clone();
        bad[bad.length / 2] ^= 0x5a;
        Files.write(f, bad);
        assertEquals(resource.length, Files.size(f));
        DenseModel.unpack(dir, NAME);
        assertArrayEquals(resource, Files.readAllBytes(f));
    }

    @Test
    void aTempAKilledUnpackLeftIsRemoved() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor(30, TimeUnit.SECONDS);
        Path left = dir.resolve("." + NAME + ".tmp-" + p.pid() + "-c0ffee");
        Files.write(left, new byte[] {1, 2, 3});
        DenseModel.unpack(dir, NAME);
        assertFalse(Files.exists(left));
        assertEquals(List.of(NAME), names(dir));
    }

    static List<String> names(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(x -> x.getFileName().toString()).sorted().toList();
        }
    }
}
