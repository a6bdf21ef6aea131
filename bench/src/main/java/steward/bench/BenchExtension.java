package steward.bench;

import java.util.List;
import steward.cli.DevExtension;
import steward.conformance.ConformanceFixtures;
import steward.recall.VectorSearchBench;
import steward.server.McpServerFactory;
import steward.server.tools.ToolContext;

/** The bench module's contribution to the CLI (registered in META-INF/services/steward.cli.DevExtension). */
public final class BenchExtension implements DevExtension {
    @Override
    public List<Object> benchmarks() {
        return List.of(
                new StartupBench(),
                new AuditBench(),
                new LearningBench(),
                new MemoryBench(),
                new HttpBench(),
                new LocomoBench(),
                new PrecheckBench(),
                new ConsolidateBench(),
                new GroupingBench(),
                new ConcurrencyBench(),
                new CrashBench(),
                new FuzzBench(),
                new ThreatsBench(),
                new RecallScaleBench(),
                new RecallClaudeBench(),
                new VectorSearchBench());
    }

    @Override
    public McpServerFactory.Extras conformanceFixtures(ToolContext ctx) {
        return ConformanceFixtures.extras(ctx);
    }
}
