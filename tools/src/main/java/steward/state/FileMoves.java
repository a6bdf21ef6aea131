package steward.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Moving a user's files into a backup and back: a rename when source and target share a file system, else a
 * copy (links copied as links, attributes kept), fsynced and compared byte for byte by SHA-256, and only then the
 * source removed. Directories are fsynced after every change of their entries. Nothing is ever overwritten.
 */
public final class FileMoves {
    private FileMoves() {}

    /** Moves {@code from} (a file, a link or a whole directory tree) to {@code to}, which must not exist. */
    public static void move(Path from, Path to) throws IOException {
        if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)) throw new FileAlreadyExistsException(to.toString());
        AtomicFiles.ensurePrivateDir(to.getParent());
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            copyTree(from, to);
            verifySame(from, to);
            deleteTree(from);
        }
        AtomicFiles.fsyncDir(to.getParent());
        AtomicFiles.fsyncDir(from.getParent());
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectory(to);
            try (Stream<Path> s = Files.list(from)) {
                for (Path p : s.toList()) copyTree(p, to.resolve(p.getFileName().toString()));
            }
            AtomicFiles.fsyncDir(to);
            return;
        }
        Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        if (Files.isRegularFile(to, LinkOption.NOFOLLOW_LINKS)) fsyncFile(to);
    }

    private static void verifySame(Path a, Path b) throws IOException {
        for (Path f : files(a)) {
            Path g = b.resolve(a.relativize(f).toString());
            if (!sha256(f).equals(sha256(g))) throw new IOException("copy of " + f + " differs from the original");
        }
    }

    /** Regular files in {@code root} (itself when it is a file), links not followed, in a stable order. */
    public static List<Path> files(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.isRegularFile(root, LinkOption.NOFOLLOW_LINKS)) out.add(root);
            return out;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .sorted()
                    .forEach(out::add);
        }
        return out;
    }

    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return;
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(root);
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    public static void fsyncFile(Path f) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** Forces every regular file below {@code root} (or {@code root} itself) and every directory to disk. */
    public static void fsyncTree(Path root) throws IOException {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.isRegularFile(root, LinkOption.NOFOLLOW_LINKS)) fsyncFile(root);
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) fsyncFile(p);
                else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) AtomicFiles.fsyncDir(p);
            }
        }
    }

    public static String sha256(Path f) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
            int n;
            while ((n = in.read(buf)) > 0) md.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /**
     * Whether regular file {@code file} begins with every byte of regular file {@code prefix} (equal files too): a
     * transcript written at its path again holds its backed-up bytes only when it does. Links are not followed.
     */
    public static boolean startsWith(Path file, Path prefix) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                || !Files.isRegularFile(prefix, LinkOption.NOFOLLOW_LINKS)) return false;
        if (Files.size(file) < Files.size(prefix)) return false;
        byte[] a = new byte[1 << 16], b = new byte[1 << 16];
        try (InputStream p = Files.newInputStream(prefix, LinkOption.NOFOLLOW_LINKS);
                InputStream f = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            int n;
            while ((n = p.readNBytes(a, 0, a.length)) > 0) {
                if (f.readNBytes(b, 0, n) != n || !java.util.Arrays.equals(a, 0, n, b, 0, n)) return false;
            }
        }
        return true;
    }

    public static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
