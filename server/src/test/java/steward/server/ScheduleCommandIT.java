package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.FakeSchedulers;
import steward.testing.TestHomes;

/**
 * {@code steward schedule} as a child process in a temporary HOME whose crontab and systemd are fakes
 * ({@code STEWARD_CRONTAB}, {@code STEWARD_SYSTEMCTL}): print, install, run, report, remove. The real crontab is never touched.
 */
class ScheduleCommandIT {
    @TempDir
    Path tmp;

    record Run(int exit, String stdout, String stderr) {}

    Run run(Path home, String... args) throws Exception {
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(StewardProcess.command(args)).redirectError(err.toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().remove("XDG_CONFIG_HOME");
        pb.environment().put("STEWARD_CRONTAB", home.resolve("bin/crontab").toString());
        pb.environment().put("STEWARD_SYSTEMCTL", home.resolve("bin/systemctl").toString());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Run(p.exitValue(), out, Files.readString(err));
    }

    @Test
    void printInstallRunReportRemove() throws Exception {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        FakeSchedulers.crontab(home);
        FakeSchedulers.systemctl(home, 0);
        Path hermes = TestHomes.copyFixture(tmp);
        Files.writeString(home.resolve("crontab.txt"), "5 4 * * * /usr/bin/backup\n");

        Run print = run(home, "schedule", "--hermes-home", hermes.toString());
        assertEquals(0, print.exit(), print.stderr());
        assertTrue(
                print.stdout().contains("0 9 * * 1 ")
                        && print.stdout().contains("'schedule' '--run'")
                        && print.stdout().contains("(not installed"),
                print.stdout());
        assertEquals(
                "5 4 * * * /usr/bin/backup\n",
                Files.readString(home.resolve("crontab.txt")),
                "printing changes nothing");

        Run install = run(home, "schedule", "--install", "--hermes-home", hermes.toString());
        assertEquals(0, install.exit(), install.stderr());
        List<String> lines = Files.readAllLines(home.resolve("crontab.txt"));
        assertEquals(3, lines.size());
        assertTrue(lines.get(2).contains("--hermes-home' '" + hermes + "'"), lines.get(2));

        Run runNow = run(home, "schedule", "--run", "--hermes-home", hermes.toString());
        assertEquals(0, runNow.exit(), runNow.stderr());
        assertTrue(runNow.stdout().contains("steward housekeeping (headless, rule A only): ok"), runNow.stdout());
        Run audit = run(home, "call", "session_audit", "{}", "--hermes-home", hermes.toString());
        assertEquals(0, audit.exit(), audit.stderr());
        assertTrue(audit.stdout().contains("\"scheduled_runs\" : {"), audit.stdout());

        Run remove = run(home, "schedule", "--remove", "--hermes-home", hermes.toString());
        assertEquals(0, remove.exit(), remove.stderr());
        assertEquals("5 4 * * * /usr/bin/backup\n", Files.readString(home.resolve("crontab.txt")));

        Run systemd = run(home, "schedule", "--kind", "systemd", "--install", "--hermes-home", hermes.toString());
        assertEquals(0, systemd.exit(), systemd.stderr());
        assertTrue(Files.exists(home.resolve(".config/systemd/user/steward-housekeeping.timer")));
        assertEquals(
                0,
                run(home, "schedule", "--remove", "--hermes-home", hermes.toString())
                        .exit());
        assertTrue(!Files.exists(home.resolve(".config/systemd/user/steward-housekeeping.timer")));
        Run bad = run(home, "schedule", "--kind", "launchd", "--hermes-home", hermes.toString());
        assertEquals(1, bad.exit());
        assertTrue(bad.stderr().contains("--kind must be cron, systemd or auto"), bad.stderr());
    }
}
