package steward.state;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sweep every Steward process makes once at its start (the server, each CLI command): the temp files a killed
 * Steward left behind ({@link AtomicFiles#removeStaleTemps}) go, in the state dir (down to
 * {@link AtomicFiles#SWEEP_DEPTH} levels) and in the Hermes directories Steward writes into (one level: the memory
 * files, the staged memory writes). Bounded and cheap (a few directory listings); only Steward's own temp names, only
 * stale ones, never outside those directories (links are not followed), never throws.
 */
public final class TempSweep {
    private static final Logger LOG = LoggerFactory.getLogger(TempSweep.class);
    private static final Set<Path> SWEPT = ConcurrentHashMap.newKeySet();

    private TempSweep() {}

    /** The sweep at a process's start: each directory once per process. Returns how many temp files were removed. */
    public static int atStart(Path stateDir, Path hermesHome) {
        int n = 0;
        for (Root r : roots(stateDir, hermesHome)) {
            if (SWEPT.add(r.dir().toAbsolutePath().normalize())) n += sweep(r);
        }
        return n;
    }

    /** The same sweep now, whether or not this process made it already (what the next process does at its start). */
    public static int now(Path stateDir, Path hermesHome) {
        int n = 0;
        for (Root r : roots(stateDir, hermesHome)) n += sweep(r);
        return n;
    }

    private record Root(Path dir, int depth) {}

    private static Root[] roots(Path stateDir, Path hermesHome) {
        if (hermesHome == null) return new Root[] {new Root(stateDir, AtomicFiles.SWEEP_DEPTH)};
        return new Root[] {
            new Root(stateDir, AtomicFiles.SWEEP_DEPTH),
            new Root(hermesHome.resolve("memories"), 1),
            new Root(hermesHome.resolve("pending").resolve("memory"), 1)
        };
    }

    private static int sweep(Root r) {
        int n = AtomicFiles.removeStaleTemps(r.dir(), r.depth());
        if (n > 0) LOG.info("removed {} temp file(s) a stopped Steward process left in {}", n, r.dir());
        return n;
    }
}
