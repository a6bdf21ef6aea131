package steward.server;

import java.util.List;
import steward.server.tools.MemoryConsolidateTool;
import steward.server.tools.MemoryHealthTool;
import steward.server.tools.MemoryHistoryTool;
import steward.server.tools.MemoryLogTool;
import steward.server.tools.MemoryPendingTool;
import steward.server.tools.MemoryPrecheckTool;
import steward.server.tools.MemoryWriteTool;
import steward.server.tools.RecallFeedbackTool;
import steward.server.tools.RecallInjectTool;
import steward.server.tools.RecallSearchTool;
import steward.server.tools.SessionApplyTool;
import steward.server.tools.SessionAuditTool;
import steward.server.tools.SessionInspectTool;
import steward.server.tools.SessionPrecheckTool;
import steward.server.tools.SessionPreferencesTool;
import steward.server.tools.SessionRestoreTool;
import steward.server.tools.StewardStatusTool;
import steward.server.tools.StewardTool;

/** The explicit, ordered registry of production tools. Add a tool here and nowhere else; the order is tools/list's. */
public final class Tools {
    private Tools() {}

    public static ToolRegistry registry() {
        return new ToolRegistry(List.<StewardTool<?>>of(
                new StewardStatusTool(),
                new SessionAuditTool(),
                new SessionApplyTool(),
                new SessionRestoreTool(),
                new SessionPrecheckTool(),
                new SessionPreferencesTool(),
                new SessionInspectTool(),
                new MemoryWriteTool(),
                new MemoryPrecheckTool(),
                new MemoryPendingTool(),
                new MemoryLogTool(),
                new MemoryHealthTool(),
                new MemoryConsolidateTool(),
                new MemoryHistoryTool(),
                new RecallSearchTool(),
                new RecallInjectTool(),
                new RecallFeedbackTool()));
    }
}
