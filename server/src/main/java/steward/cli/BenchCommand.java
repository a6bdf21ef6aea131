package steward.cli;

import picocli.CommandLine.Command;
import steward.bench.HttpBench;
import steward.bench.AuditBench;
import steward.bench.LearningBench;
import steward.bench.StartupBench;

/** {@code steward bench <name>}: benchmarks that print numbers (never timed assertions in tests). */
@Command(name = "bench", description = "Run a benchmark and print its figures.",
        subcommands = {StartupBench.class, AuditBench.class, LearningBench.class, steward.bench.MemoryBench.class, HttpBench.class,
                steward.bench.LocomoBench.class, steward.bench.RecallScaleBench.class})
public final class BenchCommand implements Runnable {
    @Override
    public void run() {
        Printer.println("usage: steward bench <startup|audit|learning|memory|http|locomo|recall-scale>  (see steward bench --help)");
    }
}
