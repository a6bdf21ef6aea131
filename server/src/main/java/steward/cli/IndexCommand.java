package steward.cli;

import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import steward.Work;
import steward.recall.RecallEngine;
import steward.recall.RecallRuntime;

/**
 * {@code steward index}: brings the recall index up to date and embeds every text still waiting for a vector, in the
 * foreground with progress on stderr: what a long-lived {@code steward serve} does in the background, for users who only
 * call Steward one shot at a time (cron, scripts).
 */
@Command(
        name = "index",
        mixinStandardHelpOptions = true,
        description = {
            "Build or update the recall index and embed what waits for a vector (progress on stderr).",
            "A running 'steward serve' does this in the background; one-shot calls never embed."
        })
public final class IndexCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--no-embed", description = "update the lexical index only")
    boolean noEmbed;

    @Option(
            names = "--max-embed",
            paramLabel = "N",
            defaultValue = "-1",
            description = "embed at most N texts (default: all)")
    int maxEmbed;

    @Override
    public Integer call() {
        RecallRuntime runtime = RecallRuntime.process();
        RecallEngine engine = runtime.engine(common.paths(), Clock.systemUTC());
        long t0 = System.nanoTime();
        Work progress = new Work() {
            long last;

            @Override
            public void progress(double done, double total, String message) {
                long now = System.nanoTime();
                if (now - last < 1_000_000_000L && done < total) return;
                last = now;
                System.err.printf("steward index: %s %.0f/%.0f%n", message, done, total);
            }

            @Override
            public boolean cancelled() {
                return false;
            }
        };
        var report = engine.sync(progress);
        System.err.printf(
                "steward index: lexical index %s in %d ms (%d items written)%n",
                report.built() ? "built" : "updated", report.millis(), report.written());
        for (var e : report.errors().entrySet())
            System.err.println("steward index: " + e.getKey() + " not indexed: " + e.getValue());
        int embedded = 0;
        if (!noEmbed && engine.denseEnabled()) {
            int pending = engine.densePending();
            int goal = maxEmbed < 0 ? pending : Math.min(maxEmbed, pending);
            long e0 = System.nanoTime(), last = e0;
            while (embedded < goal) {
                int n = engine.embedPending(Math.min(32, goal - embedded), progress);
                if (n == 0) break;
                embedded += n;
                if (System.nanoTime() - last > 2_000_000_000L) {
                    last = System.nanoTime();
                    System.err.printf(
                            "steward index: embedded %d/%d (%.1f texts/s)%n",
                            embedded, goal, embedded / ((last - e0) / 1e9));
                }
            }
            if (engine.model().failure() != null)
                System.err.println("steward index: dense retrieval unavailable: "
                        + engine.model().failure());
        }
        Printer.println(String.format(
                "indexed %s; %d texts embedded, %d waiting; %d ms",
                engine.counts(),
                embedded,
                engine.denseEnabled() ? engine.densePending() : 0,
                (System.nanoTime() - t0) / 1_000_000));
        runtime.close();
        return 0;
    }
}
