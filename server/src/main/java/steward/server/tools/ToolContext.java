package steward.server.tools;

import java.time.Clock;
import steward.Work;
import steward.config.StewardPaths;
import steward.recall.RecallRuntime;

/**
 * What a tool call may use: the resolved paths, the clock, its progress/cancellation channel, and the process's recall
 * runtime (settings, shared model, warm engines, background indexer).
 */
public record ToolContext(StewardPaths paths, Clock clock, Work work, RecallRuntime recall) {
    /** With the process's recall runtime. */
    public ToolContext(StewardPaths paths, Clock clock, Work work) {
        this(paths, clock, work, RecallRuntime.process());
    }

    public ToolContext withWork(Work w) {
        return new ToolContext(paths, clock, w, recall);
    }
}
