package steward.cli;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import steward.server.McpServerFactory;
import steward.server.tools.ToolContext;

/**
 * What the bench module ({@code bench/}, never part of the shipped jar) adds when its jar is on the class path:
 * the benchmarks of {@code steward bench} and the MCP conformance suite's fixture features of
 * {@code steward serve --conformance-fixtures}. Found with {@link ServiceLoader}; from a checkout, the
 * {@code ./steward} launcher puts {@code bench/target/steward-bench.jar} on the class path for {@code bench}, and
 * {@code .ci/conformance.sh} does for the fixtures.
 */
public interface DevExtension {
    /** picocli commands, each one {@code steward bench <name>}. */
    List<Object> benchmarks();

    /** TEST ONLY: the conformance suite's fixture tools, resources and prompts. */
    McpServerFactory.Extras conformanceFixtures(ToolContext ctx);

    static Optional<DevExtension> find() {
        return ServiceLoader.load(DevExtension.class).findFirst();
    }
}
