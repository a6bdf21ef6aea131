package steward.memory.lifecycle;

import java.nio.file.Path;
import java.util.List;
import steward.config.StewardPaths;

/** Child process for {@link JournalCrashTest}: applies a plan; the journal stops at its crash point and waits to be killed. */
public final class ApplyCrashMain {
    private ApplyCrashMain() {}

    public static void main(String[] a) {
        StewardPaths paths = StewardPaths.of(Path.of(a[0]));
        Consolidation c = LifecycleHomes.consolidation(paths, LifecycleHomes.at("2026-08-10T12:00:00Z"));
        c.apply(a[1], a.length > 2 ? List.of(a[2].split(",")) : List.of(), "crash-test");
        System.err.println("APPLIED");
    }
}
