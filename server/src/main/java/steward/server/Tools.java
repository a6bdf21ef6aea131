package steward.server;

import java.util.List;

import steward.server.tools.MemoryPendingTool;
import steward.server.tools.MemoryPrecheckTool;
import steward.server.tools.MemoryWriteTool;
import steward.server.tools.StewardStatusTool;
import steward.server.tools.StewardTool;

/** The explicit, ordered registry of production tools. Add a tool here and nowhere else. */
public final class Tools {
    private Tools() {}

    public static ToolRegistry registry() {
        return new ToolRegistry(List.<StewardTool>of(
                new StewardStatusTool(),
                new MemoryWriteTool(),
                new MemoryPrecheckTool(),
                new MemoryPendingTool(),
                new steward.server.tools.RecallSearchTool(),
                new steward.server.tools.RecallInjectTool(),
                new steward.server.tools.RecallFeedbackTool()));
    }
}
