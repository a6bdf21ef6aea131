package steward.schedule;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.state.AtomicFiles;

/**
 * The weekly housekeeping entry ({@code steward schedule}): a cron line or a systemd user timer that runs
 * {@code steward schedule --run} (the headless audit and apply: only rule A ever runs) every Monday at 09:00, appending
 * its output to {@code <state dir>/logs/housekeeping.log}. Entries carry the marker {@value #MARKER}; installing replaces
 * an earlier Steward entry and nothing else, removing takes out exactly the marked lines or units.
 */
public final class Schedule {
    public static final String MARKER = "steward-housekeeping";
    public static final String CRON_TIME = "0 9 * * 1";
    public static final String ON_CALENDAR = "Mon *-*-* 09:00:00";
    public static final String SERVICE = MARKER + ".service";
    public static final String TIMER = MARKER + ".timer";
    static final long COMMAND_TIMEOUT_SECONDS = 20;

    public enum Kind {
        cron,
        systemd
    }

    private final SchedulerHost host;
    private final StewardPaths paths;
    private final List<String> command;

    /** @param command how to start Steward (the launcher, or java -jar steward.jar), absolute paths */
    public Schedule(SchedulerHost host, StewardPaths paths, List<String> command) {
        this.host = host;
        this.paths = paths;
        this.command = List.copyOf(command);
    }

    public Path log() {
        return paths.stateDir().resolve("logs").resolve("housekeeping.log");
    }

    /** The command the entry runs: Steward's headless run for this Hermes home and state dir. */
    public List<String> runCommand() {
        List<String> c = new ArrayList<>(command);
        c.addAll(List.of(
                "schedule",
                "--run",
                "--hermes-home",
                paths.hermesHome().toString(),
                "--state-dir",
                paths.stateDir().toString()));
        return c;
    }

    /** The two crontab lines (marker comment and job). */
    public String cronLines() {
        StringBuilder cmd = new StringBuilder();
        for (String a : runCommand()) cmd.append(cmd.length() > 0 ? " " : "").append(cron(shell(a)));
        return "# " + MARKER
                + ": weekly headless session housekeeping by Steward (rule A only); remove with: steward schedule --remove\n"
                + CRON_TIME + " " + cmd + " >> " + cron(shell(log().toString())) + " 2>&1 # " + MARKER + "\n";
    }

    public String serviceUnit() {
        StringBuilder exec = new StringBuilder();
        for (String a : runCommand()) exec.append(exec.length() > 0 ? " " : "").append(systemd(a));
        return "# " + MARKER
                + ": managed by `steward schedule`\n[Unit]\nDescription=Steward weekly session housekeeping (headless: rule A only)\n\n"
                + "[Service]\nType=oneshot\nExecStart=" + exec + "\nStandardOutput=append:" + log()
                + "\nStandardError=append:" + log() + "\n";
    }

    public String timerUnit() {
        return "# " + MARKER
                + ": managed by `steward schedule`\n[Unit]\nDescription=Run Steward session housekeeping weekly (Monday 09:00)\n\n"
                + "[Timer]\nOnCalendar=" + ON_CALENDAR + "\nPersistent=true\n\n[Install]\nWantedBy=timers.target\n";
    }

    /** What {@code steward schedule} prints: the entry for {@code kind} and where it would go. */
    public String describe(Kind kind) {
        if (kind == Kind.cron) return "cron entry (crontab -e, or steward schedule --install):\n" + cronLines();
        return "systemd user timer (" + host.systemdUserDir().resolve(TIMER) + "):\n" + timerUnit() + "\n"
                + host.systemdUserDir().resolve(SERVICE) + ":\n" + serviceUnit()
                + "\nenable with: systemctl --user daemon-reload && systemctl --user enable --now " + TIMER + "\n";
    }

    /** cron when a crontab command answers, else systemd when a user systemd is there, else cron (printed only). */
    public Kind detect() {
        if (runs(host.crontab(), "-l")) return Kind.cron;
        if (Files.isDirectory(host.systemdUserDir()) || runs(host.systemctl(), "--user", "--version"))
            return Kind.systemd;
        return Kind.cron;
    }

    /** Installs (or replaces) the entry; returns what was done. Refuses with a clear error when the scheduler is missing. */
    public String install(Kind kind) {
        try {
            AtomicFiles.ensurePrivateDir(log().getParent());
        } catch (IOException e) {
            throw new StewardError("schedule", "cannot create " + log().getParent() + ": " + e.getMessage(), e);
        }
        if (kind == Kind.cron) {
            List<String> kept = withoutMarker(readCrontab());
            StringBuilder sb = new StringBuilder();
            for (String l : kept) sb.append(l).append('\n');
            sb.append(cronLines());
            writeCrontab(sb.toString());
            if (!readCrontab().stream().anyMatch(l -> l.contains(MARKER) && l.startsWith(CRON_TIME))) {
                throw new StewardError("schedule", "the crontab did not keep the entry (read back without it)");
            }
            return "installed in your crontab: every Monday at 09:00, logging to " + log();
        }
        Path dir = host.systemdUserDir();
        try {
            Files.createDirectories(dir);
            AtomicFiles.writeString(dir.resolve(SERVICE), serviceUnit());
            AtomicFiles.writeString(dir.resolve(TIMER), timerUnit());
        } catch (IOException e) {
            throw new StewardError("schedule", "cannot write the units into " + dir + ": " + e.getMessage(), e);
        }
        String enabled = run(host.systemctl(), "--user", "daemon-reload").ok()
                        && run(host.systemctl(), "--user", "enable", "--now", TIMER)
                                .ok()
                ? "enabled"
                : "written but not enabled (no user systemd answered): run systemctl --user enable --now " + TIMER;
        return "systemd user timer " + dir.resolve(TIMER) + " " + enabled + ": every Monday at 09:00, logging to "
                + log();
    }

    /** Removes Steward's entry (both kinds); says what was there. Other crontab lines and units stay untouched. */
    public String remove() {
        List<String> out = new ArrayList<>();
        if (runs(host.crontab(), "-l")) {
            List<String> lines = readCrontab();
            List<String> kept = withoutMarker(lines);
            if (kept.size() != lines.size()) {
                writeCrontab(kept.isEmpty() ? "" : String.join("\n", kept) + "\n");
                out.add("removed from your crontab");
            }
        }
        Path dir = host.systemdUserDir();
        if (Files.exists(dir.resolve(TIMER)) || Files.exists(dir.resolve(SERVICE))) {
            run(host.systemctl(), "--user", "disable", "--now", TIMER);
            try {
                Files.deleteIfExists(dir.resolve(TIMER));
                Files.deleteIfExists(dir.resolve(SERVICE));
            } catch (IOException e) {
                throw new StewardError("schedule", "cannot remove the units from " + dir + ": " + e.getMessage(), e);
            }
            run(host.systemctl(), "--user", "daemon-reload");
            out.add("removed the systemd user timer from " + dir);
        }
        return out.isEmpty() ? "no Steward housekeeping entry was installed" : String.join("; ", out);
    }

    /** Where an entry is installed now: cron, systemd, both or none. */
    public List<Kind> installed() {
        List<Kind> k = new ArrayList<>();
        if (runs(host.crontab(), "-l") && readCrontab().stream().anyMatch(l -> l.contains(MARKER))) k.add(Kind.cron);
        if (Files.exists(host.systemdUserDir().resolve(TIMER))) k.add(Kind.systemd);
        return k;
    }

    static List<String> withoutMarker(List<String> lines) {
        return lines.stream().filter(l -> !l.contains(MARKER)).toList();
    }

    private List<String> readCrontab() {
        Result r = run(host.crontab(), "-l");
        if (r.ok())
            return r.out().isEmpty()
                    ? List.of()
                    : List.of(r.out().split("\n", -1)).stream()
                            .filter(l -> !l.isEmpty())
                            .toList();
        if (r.err().toLowerCase().contains("no crontab")) return List.of();
        throw new StewardError(
                "schedule",
                "crontab -l failed: "
                        + (r.err().isBlank() ? "exit " + r.code() : r.err().strip()));
    }

    private void writeCrontab(String content) {
        Result r = feed(content, host.crontab(), "-");
        if (!r.ok())
            throw new StewardError(
                    "schedule",
                    "crontab - failed: "
                            + (r.err().isBlank() ? "exit " + r.code() : r.err().strip()));
    }

    record Result(int code, String out, String err) {
        boolean ok() {
            return code == 0;
        }
    }

    private boolean runs(String... cmd) {
        Result r = run(cmd);
        return r.ok() || r.err().toLowerCase().contains("no crontab");
    }

    private static Result run(String... cmd) {
        return feed(null, cmd);
    }

    private static Result feed(String stdin, String... cmd) {
        Path out = null, err = null;
        try {
            out = Files.createTempFile("steward-schedule", ".out");
            err = Files.createTempFile("steward-schedule", ".err");
            ProcessBuilder pb =
                    new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            Process p = pb.start();
            try (var in = p.getOutputStream()) {
                if (stdin != null) in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(124, "", cmd[0] + " did not finish within " + COMMAND_TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            return new Result(127, "", cmd[0] + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(130, "", "interrupted");
        } finally {
            try {
                if (out != null) Files.deleteIfExists(out);
                if (err != null) Files.deleteIfExists(err);
            } catch (IOException ignored) {
                // temporary files of our own
            }
        }
    }

    /** A word for sh: single-quoted. */
    static String shell(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** cron turns an unescaped % into a newline. */
    static String cron(String s) {
        return s.replace("%", "\\%");
    }

    /** A word for systemd's ExecStart: double-quoted, % doubled (specifiers). */
    static String systemd(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("%", "%%") + "\"";
    }
}
