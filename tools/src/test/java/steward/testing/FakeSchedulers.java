package steward.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Real executables standing in for the user's schedulers inside a temporary HOME: a {@code crontab} that keeps its
 * table in {@code <home>/crontab.txt} (with {@code crontab -l}'s "no crontab" answer), and a {@code systemctl} that
 * appends its arguments to {@code <home>/systemctl.log}. The real crontab is never touched.
 */
public final class FakeSchedulers {
    private FakeSchedulers() {}

    public static Path crontab(Path home) throws IOException {
        return script(home, "crontab", """
                #!/bin/sh
                f="%s/crontab.txt"
                case "$1" in
                  -l) if [ -f "$f" ]; then cat "$f"; else echo "no crontab for $(id -un)" >&2; exit 1; fi ;;
                  -) cat > "$f" ;;
                  *) echo "usage: crontab [-l | -]" >&2; exit 2 ;;
                esac
                """.formatted(home));
    }

    public static Path systemctl(Path home, int exit) throws IOException {
        return script(home, "systemctl", """
                #!/bin/sh
                echo "$@" >> "%s/systemctl.log"
                exit %d
                """.formatted(home, exit));
    }

    private static Path script(Path home, String name, String body) throws IOException {
        Path bin = home.resolve("bin");
        Files.createDirectories(bin);
        Path f = bin.resolve(name);
        Files.writeString(f, body);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwx------"));
        return f;
    }
}
