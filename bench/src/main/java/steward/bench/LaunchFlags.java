package steward.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The JVM flags the {@code steward} launcher script uses; kept here so the startup benchmark measures the same. */
public final class LaunchFlags {
    private LaunchFlags() {}

    public static List<String> jvmFlags(Path cdsArchive) {
        List<String> f = new ArrayList<>(List.of(
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-XX:CICompilerCount=1", "-Xshare:auto"));
        if (cdsArchive != null) f.add("-XX:SharedArchiveFile=" + cdsArchive);
        return f;
    }

    /** The extra flags of a one-shot {@code steward call}: a small heap (the JVM's default sizes it from the machine). */
    public static final List<String> ONE_SHOT = List.of("-Xms8m", "-Xmx160m");

    /**
     * The extra flag of {@code steward serve}: the heap starts small and grows as needed (the JVM's default initial heap
     * is 1/64 of the machine's memory, 384 MiB here, and the server's resident size followed it).
     */
    public static final List<String> SERVE = List.of("-Xms16m");

    /** The flags of {@code steward serve}. */
    public static List<String> serve(Path cdsArchive) {
        List<String> f = jvmFlags(cdsArchive);
        f.addAll(SERVE);
        return f;
    }

    /** The flags of a one-shot {@code steward call}. */
    public static List<String> oneShot(Path cdsArchive) {
        List<String> f = jvmFlags(cdsArchive);
        f.addAll(ONE_SHOT);
        return f;
    }
}
