package steward.memory;

import java.nio.file.Path;
import java.time.Clock;
import steward.config.StewardPaths;

/** A separate writer process for the concurrency and crash tests: {@code WriterMain <home> <prefix> <count> [padding]}. */
public final class WriterMain {
    public static void main(String[] args) {
        StewardPaths paths = StewardPaths.of(Path.of(args[0]));
        MemoryWriter w = new MemoryWriter(paths, Clock.systemUTC());
        int n = Integer.parseInt(args[2]);
        String pad = args.length > 3 ? "x".repeat(Integer.parseInt(args[3])) : "";
        for (int i = 0; i < n; i++) {
            MemoryResult r = w.write(MemoryRequest.add("memory", args[1] + "-" + i + pad));
            if (!r.success()) {
                System.err.println("write failed: " + r.record());
                System.exit(2);
            }
        }
    }
}
