package steward.cli;

import java.util.Locale;
import java.util.Map;

/**
 * What reaches stderr: Steward's own log lines at the level the user chose ({@code --log-level}, else
 * {@code $STEWARD_LOG_LEVEL}, else info), other libraries' lines at error only (no CUDA probe or tokenizer
 * warnings on every model load). It must run before the first logger is created, so {@link Main} calls it on
 * the raw arguments before picocli builds the commands.
 */
public final class Logging {
    public static final String ENV = "STEWARD_LOG_LEVEL";

    /** Levels of slf4j-simple, plus off. */
    public enum Level {
        off,
        error,
        warn,
        info,
        debug,
        trace
    }

    private Logging() {}

    /** The level asked for; an unknown value is left for picocli to report (env: ignored with a note on stderr). */
    static Level resolve(String[] args, Map<String, String> env) {
        for (int i = 0; i < args.length; i++) {
            String v = null;
            if (args[i].equals("--log-level") && i + 1 < args.length) v = args[i + 1];
            else if (args[i].startsWith("--log-level=")) v = args[i].substring("--log-level=".length());
            if (v != null) {
                Level l = parse(v);
                if (l != null) return l;
            }
        }
        String e = env.get(ENV);
        if (e != null && !e.isBlank()) {
            Level l = parse(e);
            if (l != null) return l;
            System.err.println(
                    "steward: " + ENV + "=" + e + " is not a level (off, error, warn, info, debug, trace); using info");
        }
        return Level.info;
    }

    static Level parse(String v) {
        try {
            return Level.valueOf(v.trim().toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static void configure(String[] args, Map<String, String> env) {
        Level l = resolve(args, env);
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        System.setProperty("org.slf4j.simpleLogger.log.steward", l.name());
    }
}
