package steward.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Steward's own settings in the {@code steward:} section of Hermes' {@code config.yaml} (Hermes ignores keys it does
 * not know), as {@link StewardConfig} resolves them. Today one: {@code steward.subagent_keep_days}, how many days a
 * finished subagent session is kept before rule A may delete it (default 3; 0 turns the grace period off). A missing
 * file or key means the default; a malformed value is reported in {@link #warnings()} (naming the file and the key)
 * and the default is used: never fatal. These warnings also carry the file's own trouble (unreadable, malformed YAML),
 * once.
 */
public record StewardSettings(double subagentKeepDays, Origin subagentKeepDaysOrigin, List<String> warnings) {
    public static final double DEFAULT_SUBAGENT_KEEP_DAYS = 3;
    public static final double MAX_SUBAGENT_KEEP_DAYS = 365;
    static final String KEY = "steward.subagent_keep_days";

    public static StewardSettings defaults() {
        return new StewardSettings(DEFAULT_SUBAGENT_KEEP_DAYS, Origin.DEFAULT, List.of());
    }

    /** Reads config.yaml through {@link StewardConfig} (one parse) and returns this part. */
    public static StewardSettings load(Path configYaml) {
        return StewardConfig.load(configYaml).steward();
    }

    static StewardSettings resolve(Path file, StewardConfig.Read read, Map<String, Origin> origins) {
        StewardSettings s = resolve(file, read);
        origins.put(KEY, s.subagentKeepDaysOrigin());
        return s;
    }

    private static StewardSettings resolve(Path file, StewardConfig.Read read) {
        switch (read.state()) {
            case MISSING:
                return defaults();
            case UNREADABLE:
                return warn("config.yaml: cannot read " + file + ": " + read.detail());
            case MALFORMED:
                return warn(file + ": malformed YAML; Steward settings use their defaults");
            default:
                break;
        }
        Map<?, ?> top = read.top();
        if (top == null || top.get("steward") == null) return defaults();
        if (!(top.get("steward") instanceof Map<?, ?> st))
            return warn(file + ": 'steward' is not a mapping; using defaults");
        Object v = st.get("subagent_keep_days");
        if (v == null) return defaults();
        if (v instanceof Number n
                && !(v instanceof Double d && (d.isNaN() || d.isInfinite()))
                && n.doubleValue() >= 0
                && n.doubleValue() <= MAX_SUBAGENT_KEEP_DAYS) {
            return new StewardSettings(n.doubleValue(), Origin.CONFIG_FILE, List.of());
        }
        return warn(StewardConfig.where(file, KEY) + " must be a number of days from 0 to "
                + (int) MAX_SUBAGENT_KEEP_DAYS + " (" + v + "); using " + (int) DEFAULT_SUBAGENT_KEEP_DAYS);
    }

    private static StewardSettings warn(String w) {
        // the value is there but cannot be read: the default is used, and rules that depend on it never run on their
        // own
        return new StewardSettings(DEFAULT_SUBAGENT_KEEP_DAYS, Origin.UNREADABLE, List.of(w));
    }
}
