package steward.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The JVM flags the {@code steward} launcher script uses; kept here so the startup benchmark measures the same. */
public final class LaunchFlags {
    private LaunchFlags() {}

    public static List<String> jvmFlags(Path cdsArchive) {
        List<String> f = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k",
                "-XX:CICompilerCount=1", "-Xshare:auto"));
        if (cdsArchive != null) f.add("-XX:SharedArchiveFile=" + cdsArchive);
        return f;
    }
}
