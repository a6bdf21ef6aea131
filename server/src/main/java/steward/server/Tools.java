package steward.server;

import java.util.List;

import steward.server.tools.MemoryPendingTool;
import steward.server.tools.MemoryPrecheckTool;
import steward.server.tools.MemoryWriteTool;
import steward.server.tools.SessionApplyTool;
import steward.server.tools.SessionAuditTool;
import steward.server.tools.SessionPrecheckTool;
import steward.server.tools.SessionPreferencesTool;
import steward.server.tools.SessionRestoreTool;
import steward.server.tools.StewardStatusTool;
import steward.server.tools.StewardTool;

/** The explicit, ordered registry of production tools. Add a tool here and nowhere else. */
public final class Tools {
    private Tools() {}

    public static ToolRegistry registry() {
        return new ToolRegistry(List.<StewardTool>of(
                new StewardStatusTool(),
                new SessionAuditTool(),
                new SessionApplyTool(),
                new SessionRestoreTool(),
                new SessionPrecheckTool(),
                new SessionPreferencesTool(),
                new MemoryWriteTool(),
                new MemoryPrecheckTool(),
                new MemoryPendingTool(),
                new steward.server.tools.MemoryLogTool(),
                new steward.server.tools.MemoryHealthTool(),
                new steward.server.tools.MemoryConsolidateTool(),
                new steward.server.tools.MemoryHistoryTool(),
                new steward.server.tools.RecallSearchTool(),
                new steward.server.tools.RecallInjectTool(),
                new steward.server.tools.RecallFeedbackTool()));
    }
}
