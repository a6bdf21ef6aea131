package steward.cli;

import java.time.Clock;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import steward.Work;
import steward.config.StewardPaths;
import steward.server.tools.ToolContext;

/**
 * Options every command takes, before or after its name ({@code steward --hermes-home H call …} and
 * {@code steward call … --hermes-home H} mean the same; the one after the command wins).
 */
public final class CommonOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = "--hermes-home",
            paramLabel = "DIR",
            description = "Hermes home (default: $HERMES_HOME, else ~/.hermes)")
    String hermesHome;

    @Option(
            names = "--claude-home",
            paramLabel = "DIR",
            description = "Claude Code home (default: $CLAUDE_CONFIG_DIR, else ~/.claude)")
    String claudeHome;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            description =
                    "Steward's own state (default: <hermes home>/steward; with a Claude Code home only, <claude home>/steward)")
    String stateDir;

    @Option(
            names = "--log-level",
            paramLabel = "LEVEL",
            description = "Steward's log lines on stderr: off, error, warn, info (default), " + "debug, trace (else $"
                    + Logging.ENV + "); other libraries' lines are shown at error only")
    Logging.Level logLevel;

    /** The same options given before the command's name, on the parent command; null at the top. */
    private CommonOptions parent() {
        if (mixee == null || mixee.parent() == null) return null;
        CommandSpec m = mixee.parent().mixins().get("common");
        return m != null && m.userObject() instanceof CommonOptions c && c != this ? c : null;
    }

    public String hermesHomeFlag() {
        if (hermesHome != null) return hermesHome;
        CommonOptions p = parent();
        return p == null ? null : p.hermesHomeFlag();
    }

    public String claudeHomeFlag() {
        if (claudeHome != null) return claudeHome;
        CommonOptions p = parent();
        return p == null ? null : p.claudeHomeFlag();
    }

    public String stateDirFlag() {
        if (stateDir != null) return stateDir;
        CommonOptions p = parent();
        return p == null ? null : p.stateDirFlag();
    }

    public StewardPaths paths() {
        return StewardPaths.resolve(hermesHomeFlag(), claudeHomeFlag(), stateDirFlag(), System.getenv());
    }

    public ToolContext context() {
        return new ToolContext(paths(), Clock.systemUTC(), Work.NONE);
    }

    public ToolContext context(Work work) {
        return new ToolContext(paths(), Clock.systemUTC(), work);
    }
}
