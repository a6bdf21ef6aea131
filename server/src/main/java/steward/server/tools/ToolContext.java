package steward.server.tools;

import java.time.Clock;

import steward.Work;
import steward.config.StewardPaths;

/** What a tool call may use: the resolved paths, the clock, and its progress/cancellation channel. */
public record ToolContext(StewardPaths paths, Clock clock, Work work) {
    public ToolContext withWork(Work w) {
        return new ToolContext(paths, clock, w);
    }
}
