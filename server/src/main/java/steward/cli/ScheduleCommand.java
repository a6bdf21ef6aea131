package steward.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.schedule.Schedule;
import steward.schedule.ScheduleLog;
import steward.schedule.ScheduledRun;
import steward.schedule.SchedulerHost;

@Command(
        name = "schedule",
        mixinStandardHelpOptions = true,
        description = {
            "Weekly session housekeeping for the current user: prints the cron line or systemd user timer that runs the headless audit "
                    + "and apply every Monday at 09:00 (only rule A, finished subagent shells, ever runs; output appended to "
                    + "<state dir>/logs/housekeeping.log). --install installs it, --remove takes it out, --run is what it runs.",
            "The next interactive session_audit reports what the scheduled runs did."
        })
public final class ScheduleCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    static final class Action {
        @Option(
                names = "--install",
                description = "install the entry for the current user (replaces an earlier Steward entry)")
        boolean install;

        @Option(names = "--remove", description = "remove Steward's entry (cron and systemd); nothing else is touched")
        boolean remove;

        @Option(names = "--run", description = "run the headless audit and apply now (what the entry runs)")
        boolean run;
    }

    @ArgGroup(exclusive = true)
    Action action = new Action();

    @Option(
            names = "--kind",
            defaultValue = "auto",
            description = "cron, systemd or auto (cron when a crontab command answers; default auto)")
    String kind;

    @Option(
            names = "--command",
            paramLabel = "PATH",
            description = "how the entry starts Steward (default: this launcher or java -jar this jar)")
    String command;

    @Override
    public Integer call() {
        StewardPaths paths = common.paths();
        try {
            if (action.run) {
                ScheduleLog.Run r = ScheduledRun.run(paths, Clock.systemUTC());
                Printer.println(ScheduledRun.line(r));
                return r.status().equals("ok") ? 0 : 1;
            }
            Schedule s = new Schedule(SchedulerHost.fromEnvironment(System.getenv()), paths, launcher());
            Schedule.Kind k = switch (kind) {
                case "cron" -> Schedule.Kind.cron;
                case "systemd" -> Schedule.Kind.systemd;
                case "auto" -> s.detect();
                default -> throw new StewardError("schedule", "--kind must be cron, systemd or auto, not " + kind);
            };
            if (action.install) Printer.println(s.install(k));
            else if (action.remove) Printer.println(s.remove());
            else {
                List<Schedule.Kind> now = s.installed();
                Printer.println(s.describe(k).stripTrailing());
                Printer.println(
                        now.isEmpty() ? "(not installed: steward schedule --install)" : "(installed: " + now + ")");
            }
            return 0;
        } catch (StewardError e) {
            System.err.println("steward " + e.getMessage());
            return 1;
        }
    }

    /** The launcher script next to the jar's repository, else java -jar with this JVM. */
    List<String> launcher() {
        if (command != null)
            return List.of(Path.of(command).toAbsolutePath().normalize().toString());
        try {
            Path jar = Fixtures.runningJar().toAbsolutePath().normalize();
            if (jar.getParent() != null
                    && jar.getParent().getParent() != null
                    && jar.getParent().getParent().getParent() != null) {
                Path script = jar.getParent().getParent().getParent().resolve("steward");
                if (jar.toString().endsWith("server/target/steward.jar") && Files.isExecutable(script))
                    return List.of(script.toString());
            }
            String java = ProcessHandle.current().info().command().orElse("java");
            return List.of(java, "-jar", jar.toString());
        } catch (URISyntaxException | SecurityException e) {
            return List.of("steward");
        }
    }
}
