package steward.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Steward's own settings in the {@code steward:} section of Hermes' {@code config.yaml} (Hermes ignores keys it does
 * not know). Today one: {@code steward.subagent_keep_days}, how many days a finished subagent session is kept before
 * rule A may delete it (default 3; 0 turns the grace period off). A missing file or key means the default; a malformed
 * value is reported in {@link #warnings()} and the default is used: never fatal.
 */
public record StewardSettings(double subagentKeepDays, Origin subagentKeepDaysOrigin, List<String> warnings) {
    public static final double DEFAULT_SUBAGENT_KEEP_DAYS = 3;
    public static final double MAX_SUBAGENT_KEEP_DAYS = 365;

    public static StewardSettings defaults() {
        return new StewardSettings(DEFAULT_SUBAGENT_KEEP_DAYS, Origin.DEFAULT, List.of());
    }

    public static StewardSettings load(Path configYaml) {
        String text;
        try {
            text = new String(Files.readAllBytes(configYaml), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return defaults();
        } catch (IOException e) {
            return warn("config.yaml: cannot read " + configYaml + ": " + e.getMessage());
        }
        Object root;
        try {
            root = new Load(LoadSettings.builder().setAllowDuplicateKeys(true).build()).loadFromString(text);
        } catch (RuntimeException e) {
            return warn("config.yaml: malformed YAML; Steward settings use their defaults");
        }
        if (!(root instanceof Map<?, ?> top) || top.get("steward") == null) return defaults();
        if (!(top.get("steward") instanceof Map<?, ?> st))
            return warn("config.yaml: 'steward' is not a mapping; using defaults");
        Object v = st.get("subagent_keep_days");
        if (v == null) return defaults();
        if (v instanceof Number n
                && !(v instanceof Double d && (d.isNaN() || d.isInfinite()))
                && n.doubleValue() >= 0
                && n.doubleValue() <= MAX_SUBAGENT_KEEP_DAYS) {
            return new StewardSettings(n.doubleValue(), Origin.CONFIG_FILE, List.of());
        }
        List<String> w = new ArrayList<>();
        w.add("config.yaml: steward.subagent_keep_days must be a number of days from 0 to "
                + (int) MAX_SUBAGENT_KEEP_DAYS + " (" + v + "); using " + (int) DEFAULT_SUBAGENT_KEEP_DAYS);
        return new StewardSettings(DEFAULT_SUBAGENT_KEEP_DAYS, Origin.DEFAULT, List.copyOf(w));
    }

    private static StewardSettings warn(String w) {
        return new StewardSettings(DEFAULT_SUBAGENT_KEEP_DAYS, Origin.DEFAULT, List.of(w));
    }
}
