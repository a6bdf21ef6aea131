package steward.state;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.Locale;

/** File errors in plain words that name the path: "permission denied: /x/y", never "errno 13" or a bare path. */
public final class IoErrors {
    private IoErrors() {}

    public static String describe(Throwable e) {
        if (e instanceof AccessDeniedException a) return "permission denied: " + a.getFile();
        if (e instanceof NoSuchFileException n) return "no such file or directory: " + n.getFile();
        if (e instanceof NotDirectoryException n) return "not a directory: " + blocking(n.getFile());
        if (e instanceof FileAlreadyExistsException f && f.getFile() != null) {
            // createDirectories on a path where a file stands: name the file in the way
            Path p = Path.of(f.getFile());
            return Files.exists(p) && !Files.isDirectory(p) ? "not a directory: " + p : "already exists: " + p;
        }
        if (e instanceof ReadOnlyFileSystemException) return "read-only file system";
        if (e instanceof FileSystemException f) {
            String reason = f.getReason() == null ? "" : f.getReason();
            String path = f.getFile() == null ? "" : f.getFile();
            if (reason.toLowerCase(Locale.ROOT).contains("read-only")) return "read-only file system: " + path;
            if (reason.isEmpty()) return path;
            if (reason.equalsIgnoreCase("not a directory")) return "not a directory: " + blocking(path);
            return reason.toLowerCase(Locale.ROOT) + (path.isEmpty() ? "" : ": " + path);
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName().replace("Exception", "").toLowerCase(Locale.ROOT) : m;
    }

    /** The nearest ancestor of {@code file} (or the file) that exists and is not a directory; else {@code file}. */
    static String blocking(String file) {
        if (file == null) return null;
        try {
            for (Path p = Path.of(file).getParent(); p != null; p = p.getParent())
                if (Files.exists(p) && !Files.isDirectory(p)) return p.toString();
        } catch (RuntimeException e) {
            return file;
        }
        return file;
    }

    /** The words for a C errno from a native call (flock, open). */
    public static String errno(int code) {
        return switch (code) {
            case 1, 13 -> "permission denied";
            case 2 -> "no such file or directory";
            case 20 -> "not a directory";
            case 21 -> "is a directory";
            case 28 -> "no space left on device";
            case 30 -> "read-only file system";
            case 122 -> "disk quota exceeded";
            default -> "error " + code;
        };
    }
}
