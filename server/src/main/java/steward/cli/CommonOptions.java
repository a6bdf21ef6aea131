package steward.cli;

import java.time.Clock;

import picocli.CommandLine.Option;
import steward.Work;
import steward.config.StewardPaths;
import steward.server.tools.ToolContext;

/** Options every command shares. */
public final class CommonOptions {
    @Option(names = "--hermes-home", paramLabel = "DIR", description = "Hermes home (default: $HERMES_HOME, else ~/.hermes)")
    String hermesHome;

    @Option(names = "--claude-home", paramLabel = "DIR", description = "Claude Code home (default: $CLAUDE_CONFIG_DIR, else ~/.claude)")
    String claudeHome;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Steward's own state (default: <hermes home>/steward; with a Claude Code home only, <claude home>/steward)")
    String stateDir;

    public String hermesHomeFlag() {
        return hermesHome;
    }

    public String claudeHomeFlag() {
        return claudeHome;
    }

    public String stateDirFlag() {
        return stateDir;
    }

    public StewardPaths paths() {
        return StewardPaths.resolve(hermesHome, claudeHome, stateDir, System.getenv());
    }

    public ToolContext context() {
        return new ToolContext(paths(), Clock.systemUTC(), Work.NONE);
    }
}
