package steward.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.testing.FakeSchedulers;

/** Install and remove round trips in a temporary HOME, with fake crontab / systemctl executables. */
class ScheduleTest {
    @TempDir
    Path home;

    Schedule schedule(SchedulerHost host) {
        return new Schedule(host, StewardPaths.of(home.resolve("hermes home")), List.of("/opt/steward/steward"));
    }

    @Test
    void cronInstallKeepsOtherLinesIsIdempotentAndRemovesOnlyItsOwn() throws Exception {
        Path crontab = FakeSchedulers.crontab(home);
        SchedulerHost host =
                new SchedulerHost(crontab.toString(), home.resolve(".config/systemd/user"), "/nonexistent/systemctl");
        Schedule s = schedule(host);
        assertEquals(Schedule.Kind.cron, s.detect(), "a crontab that answers 'no crontab' is there");
        assertEquals(List.of(), s.installed());
        Files.writeString(home.resolve("crontab.txt"), "MAILTO=me\n5 4 * * * /usr/bin/backup\n");
        String msg = s.install(Schedule.Kind.cron);
        assertTrue(msg.contains("every Monday at 09:00"), msg);
        List<String> lines = Files.readAllLines(home.resolve("crontab.txt"));
        assertEquals("MAILTO=me", lines.get(0));
        assertEquals("5 4 * * * /usr/bin/backup", lines.get(1));
        assertEquals(4, lines.size());
        assertTrue(
                lines.get(3)
                        .startsWith("0 9 * * 1 '/opt/steward/steward' 'schedule' '--run' '--hermes-home' '"
                                + home.resolve("hermes home")),
                lines.get(3));
        assertTrue(lines.get(3)
                .endsWith(">> '" + home.resolve("hermes home/steward/logs/housekeeping.log")
                        + "' 2>&1 # steward-housekeeping"));
        assertTrue(
                Files.isDirectory(home.resolve("hermes home/steward/logs")),
                "the log's folder exists before cron first writes to it");
        assertEquals(List.of(Schedule.Kind.cron), s.installed());
        s.install(Schedule.Kind.cron);
        assertEquals(
                lines, Files.readAllLines(home.resolve("crontab.txt")), "installing twice replaces, never duplicates");
        assertEquals("removed from your crontab", s.remove());
        assertEquals(
                List.of("MAILTO=me", "5 4 * * * /usr/bin/backup"), Files.readAllLines(home.resolve("crontab.txt")));
        assertEquals("no Steward housekeeping entry was installed", s.remove());
        assertEquals(List.of(), s.installed());
    }

    @Test
    void aMissingCrontabIsAClearErrorAndChangesNothing() throws Exception {
        SchedulerHost host = new SchedulerHost(
                home.resolve("no-such-crontab").toString(), home.resolve("units"), "/nonexistent/systemctl");
        StewardError e = assertThrows(StewardError.class, () -> schedule(host).install(Schedule.Kind.cron));
        assertTrue(e.getMessage().startsWith("schedule: crontab -l failed"), e.getMessage());
        assertFalse(Files.exists(home.resolve("units")));
        assertEquals(
                Schedule.Kind.cron, schedule(host).detect(), "nothing answers: the cron line is what gets printed");
    }

    @Test
    void systemdUnitsAreWrittenEnabledAndRemoved() throws Exception {
        Path systemctl = FakeSchedulers.systemctl(home, 0);
        Path units = home.resolve(".config/systemd/user");
        SchedulerHost host = new SchedulerHost(home.resolve("no-crontab").toString(), units, systemctl.toString());
        Schedule s = schedule(host);
        assertEquals(Schedule.Kind.systemd, s.detect());
        String msg = s.install(Schedule.Kind.systemd);
        assertTrue(msg.contains(" enabled"), msg);
        String timer = Files.readString(units.resolve(Schedule.TIMER));
        assertTrue(timer.contains("OnCalendar=Mon *-*-* 09:00:00")
                && timer.contains("Persistent=true")
                && timer.contains("WantedBy=timers.target"));
        String service = Files.readString(units.resolve(Schedule.SERVICE));
        assertTrue(
                service.contains("ExecStart=\"/opt/steward/steward\" \"schedule\" \"--run\" \"--hermes-home\" \""
                        + home.resolve("hermes home") + "\""),
                service);
        assertTrue(
                service.contains("StandardOutput=append:" + home.resolve("hermes home/steward/logs/housekeeping.log")));
        assertEquals(List.of(Schedule.Kind.systemd), s.installed());
        assertEquals("removed the systemd user timer from " + units, s.remove());
        assertFalse(Files.exists(units.resolve(Schedule.TIMER)) || Files.exists(units.resolve(Schedule.SERVICE)));
        assertEquals(
                List.of(
                        "--user --version",
                        "--user daemon-reload",
                        "--user enable --now steward-housekeeping.timer",
                        "--user disable --now steward-housekeeping.timer",
                        "--user daemon-reload"),
                Files.readAllLines(home.resolve("systemctl.log")));
    }

    @Test
    void withoutAUserSystemdTheUnitsAreWrittenAndTheUserToldHowToEnable() throws Exception {
        Path systemctl = FakeSchedulers.systemctl(home, 1);
        Schedule s = schedule(new SchedulerHost("/nonexistent/crontab", home.resolve("units"), systemctl.toString()));
        String msg = s.install(Schedule.Kind.systemd);
        assertTrue(
                msg.contains("not enabled") && msg.contains("systemctl --user enable --now steward-housekeeping.timer"),
                msg);
        assertTrue(Files.exists(home.resolve("units").resolve(Schedule.TIMER)));
    }

    @Test
    void wordsAreQuotedForTheShellCronAndSystemd() {
        assertEquals("'it'\\''s'", Schedule.shell("it's"));
        assertEquals("'50\\%'", Schedule.cron(Schedule.shell("50%")));
        assertEquals("\"a \\\"b\\\" 100%%\"", Schedule.systemd("a \"b\" 100%"));
        SchedulerHost env = SchedulerHost.fromEnvironment(Map.of("HOME", "/home/x"));
        assertEquals(Path.of("/home/x/.config/systemd/user"), env.systemdUserDir());
        assertEquals("crontab", env.crontab());
        assertEquals(
                Path.of("/cfg/systemd/user"),
                SchedulerHost.fromEnvironment(Map.of("HOME", "/home/x", "XDG_CONFIG_HOME", "/cfg"))
                        .systemdUserDir());
        assertEquals(
                "/t/crontab",
                SchedulerHost.fromEnvironment(Map.of("STEWARD_CRONTAB", "/t/crontab"))
                        .crontab());
    }
}
