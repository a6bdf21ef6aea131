package steward.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code steward bench <name>}: benchmarks that print numbers (never timed assertions in tests). The benchmarks
 * live in the bench module, not in the shipped jar; {@link Main} adds them as subcommands when
 * {@link DevExtension} finds that module on the class path.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Run a benchmark and print its figures (from a checkout: ./steward bench <name>).")
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", hidden = true)
    List<String> unknown = new ArrayList<>();

    @Override
    public Integer call() {
        if (spec.subcommands().isEmpty()) {
            System.err.println(
                    "steward bench: the benchmarks are not part of this jar; from a Steward checkout run ./steward bench <name> "
                            + "(it builds bench/ and puts bench/target/steward-bench.jar on the class path)");
            return 2;
        }
        String usage = "usage: steward bench <"
                + String.join("|", spec.subcommands().keySet()) + ">  (see steward bench --help)";
        if (!unknown.isEmpty()) {
            System.err.println("steward bench: unknown benchmark " + unknown.get(0) + "; " + usage);
            return 2;
        }
        Printer.println(usage);
        return 0;
    }
}
