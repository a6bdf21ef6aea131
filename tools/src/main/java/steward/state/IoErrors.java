package steward.state;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.Locale;

/** File errors in plain words that name the path: "permission denied: /x/y", never "errno 13" or a bare path. */
public final class IoErrors {
    private IoErrors() {}

    public static String describe(Throwable e) {
        if (e instanceof AccessDeniedException a) return "permission denied: " + a.getFile();
        if (e instanceof NoSuchFileException n) return "no such file or directory: " + n.getFile();
        if (e instanceof NotDirectoryException n) return "not a directory: " + n.getFile();
        if (e instanceof ReadOnlyFileSystemException) return "read-only file system";
        if (e instanceof FileSystemException f) {
            String reason = f.getReason() == null ? "" : f.getReason();
            String path = f.getFile() == null ? "" : f.getFile();
            if (reason.toLowerCase(Locale.ROOT).contains("read-only")) return "read-only file system: " + path;
            if (reason.isEmpty()) return path;
            return reason.toLowerCase(Locale.ROOT) + (path.isEmpty() ? "" : ": " + path);
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName().replace("Exception", "").toLowerCase(Locale.ROOT) : m;
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
