package steward.schedule;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where the current user's schedulers are: the {@code crontab} command, the systemd user unit directory and the
 * {@code systemctl} command. Taken from the environment ({@code STEWARD_CRONTAB}, {@code STEWARD_SYSTEMD_USER_DIR},
 * {@code STEWARD_SYSTEMCTL}, else {@code crontab}, {@code $XDG_CONFIG_HOME/systemd/user} or
 * {@code ~/.config/systemd/user}, and {@code systemctl}) so that tests point them at a temporary HOME and never touch
 * the real crontab.
 */
public record SchedulerHost(String crontab, Path systemdUserDir, String systemctl) {

    public static SchedulerHost fromEnvironment(Map<String, String> env) {
        String crontab = nonBlank(env.get("STEWARD_CRONTAB"), "crontab");
        String systemctl = nonBlank(env.get("STEWARD_SYSTEMCTL"), "systemctl");
        Path dir;
        if (env.get("STEWARD_SYSTEMD_USER_DIR") != null
                && !env.get("STEWARD_SYSTEMD_USER_DIR").isBlank()) {
            dir = Path.of(env.get("STEWARD_SYSTEMD_USER_DIR"));
        } else if (env.get("XDG_CONFIG_HOME") != null
                && !env.get("XDG_CONFIG_HOME").isBlank()) {
            dir = Path.of(env.get("XDG_CONFIG_HOME"), "systemd", "user");
        } else {
            String home = nonBlank(env.get("HOME"), System.getProperty("user.home"));
            dir = Path.of(home, ".config", "systemd", "user");
        }
        return new SchedulerHost(crontab, dir.toAbsolutePath().normalize(), systemctl);
    }

    private static String nonBlank(String v, String fallback) {
        return v == null || v.isBlank() ? fallback : v;
    }
}
