package steward.recall;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import steward.config.Origin;

/**
 * Every recall setting, resolved once per process from the environment (and system properties, for tests and
 * benches), each with where its value came from, as {@link steward.config.StewardPaths} does for paths. A value that
 * cannot be read falls back to the default and leaves a warning; nothing else in recall reads the environment.
 */
public record RecallSettings(
        Setting<Boolean> dense,
        Setting<String> mode,
        Setting<Boolean> background,
        Setting<Integer> pollMillis,
        Setting<Integer> embedChars,
        List<String> warnings) {
    /** One resolved value: what it is, where it came from, and the variable or property that set it (null for a default). */
    public record Setting<T>(T value, Origin origin, String from) {
        public String originName() {
            return origin.name().toLowerCase(Locale.ROOT);
        }
    }

    public static final String ENV_DENSE = "STEWARD_RECALL_DENSE",
            ENV_MODE = "STEWARD_RECALL_MODE",
            ENV_BACKGROUND = "STEWARD_RECALL_BACKGROUND",
            ENV_POLL_MS = "STEWARD_RECALL_POLL_MS",
            ENV_EMBED_CHARS = "STEWARD_RECALL_EMBED_CHARS";
    public static final List<String> MODES = List.of("shadow", "canary", "active");
    /** How often a long-lived server checks the sources for changes (one cheap check per poll). */
    public static final int DEFAULT_POLL_MS = 2000;
    /**
     * Characters of an item's text that are embedded (the rest is matched lexically only). bge-small reads at most 512
     * tokens and its cost grows with the square of the length: a 2,400-character message took 140–370 ms to embed on
     * this machine, one of 800 characters (about 200 tokens) 15–25 ms.
     */
    public static final int DEFAULT_EMBED_CHARS = 800;

    /** The defaults, as if no variable were set. */
    public static final RecallSettings DEFAULTS = resolve(Map.of(), Map.of());

    /** Resolves from the process environment and system properties. */
    public static RecallSettings fromEnvironment() {
        Map<String, String> props = new LinkedHashMap<>();
        for (String k : System.getProperties().stringPropertyNames())
            if (k.startsWith("steward.recall.")) props.put(k, System.getProperty(k));
        return resolve(System.getenv(), props);
    }

    /**
     * Environment variables first, then the system properties {@code steward.recall.dense}, {@code steward.recall.mode},
     * {@code steward.recall.background}, {@code steward.recall.poll-ms}, {@code steward.recall.embed-chars}, else defaults.
     */
    public static RecallSettings resolve(Map<String, String> env, Map<String, String> props) {
        List<String> warnings = new ArrayList<>();
        Setting<Boolean> dense = onOff(env, props, ENV_DENSE, "steward.recall.dense", true, warnings);
        Setting<Boolean> background = onOff(env, props, ENV_BACKGROUND, "steward.recall.background", true, warnings);
        Setting<String> mode;
        String[] raw = raw(env, props, ENV_MODE, "steward.recall.mode");
        if (raw == null) {
            mode = new Setting<>("shadow", Origin.DEFAULT, null);
        } else if (MODES.contains(raw[1].strip().toLowerCase(Locale.ROOT))) {
            mode = new Setting<>(raw[1].strip().toLowerCase(Locale.ROOT), origin(raw[0]), raw[0]);
        } else {
            warnings.add(raw[0] + "=" + raw[1] + " is not one of " + MODES + "; using shadow");
            mode = new Setting<>("shadow", Origin.DEFAULT, null);
        }
        Setting<Integer> poll =
                number(env, props, ENV_POLL_MS, "steward.recall.poll-ms", DEFAULT_POLL_MS, 100, 600_000, warnings);
        Setting<Integer> chars = number(
                env, props, ENV_EMBED_CHARS, "steward.recall.embed-chars", DEFAULT_EMBED_CHARS, 64, 4000, warnings);
        return new RecallSettings(dense, mode, background, poll, chars, List.copyOf(warnings));
    }

    /** A copy with dense retrieval set by the caller (benches, tests). */
    public RecallSettings withDense(boolean on) {
        return new RecallSettings(
                new Setting<>(on, Origin.FLAG, "caller"), mode, background, pollMillis, embedChars, warnings);
    }

    /** A copy without the background indexer (one-shot commands). */
    public RecallSettings withBackground(boolean on) {
        return new RecallSettings(
                dense, mode, new Setting<>(on, Origin.FLAG, "caller"), pollMillis, embedChars, warnings);
    }

    /** A setting as steward_status shows it: its value in words, where it came from (lower case) and what set it. */
    public record Shown(String value, String origin, String from) {
        static Shown of(Object value, Setting<?> s) {
            return new Shown(String.valueOf(value), s.originName(), s.from());
        }
    }

    /** name → {value, origin, from} for steward_status. */
    public Map<String, Shown> describe() {
        Map<String, Shown> out = new LinkedHashMap<>();
        out.put("dense", Shown.of(dense.value() ? "on" : "off", dense));
        out.put("mode", Shown.of(mode.value(), mode));
        out.put("background", Shown.of(background.value() ? "on" : "off", background));
        out.put("poll_ms", Shown.of(pollMillis.value(), pollMillis));
        out.put("embed_chars", Shown.of(embedChars.value(), embedChars));
        return out;
    }

    private static String[] raw(Map<String, String> env, Map<String, String> props, String var, String prop) {
        String v = env.get(var);
        if (v != null && !v.isBlank()) return new String[] {var, v};
        v = props.get(prop);
        if (v != null && !v.isBlank()) return new String[] {"-D" + prop, v};
        return null;
    }

    private static Origin origin(String from) {
        return from.startsWith("-D") ? Origin.FLAG : Origin.ENVIRONMENT;
    }

    private static Setting<Boolean> onOff(
            Map<String, String> env,
            Map<String, String> props,
            String var,
            String prop,
            boolean dflt,
            List<String> warnings) {
        String[] raw = raw(env, props, var, prop);
        if (raw == null) return new Setting<>(dflt, Origin.DEFAULT, null);
        String v = raw[1].strip().toLowerCase(Locale.ROOT);
        if (List.of("on", "true", "1", "yes").contains(v)) return new Setting<>(true, origin(raw[0]), raw[0]);
        if (List.of("off", "false", "0", "no").contains(v)) return new Setting<>(false, origin(raw[0]), raw[0]);
        warnings.add(raw[0] + "=" + raw[1] + " is neither on nor off; using " + (dflt ? "on" : "off"));
        return new Setting<>(dflt, Origin.DEFAULT, null);
    }

    private static Setting<Integer> number(
            Map<String, String> env,
            Map<String, String> props,
            String var,
            String prop,
            int dflt,
            int min,
            int max,
            List<String> warnings) {
        String[] raw = raw(env, props, var, prop);
        if (raw == null) return new Setting<>(dflt, Origin.DEFAULT, null);
        try {
            int n = Integer.parseInt(raw[1].strip());
            if (n >= min && n <= max) return new Setting<>(n, origin(raw[0]), raw[0]);
        } catch (NumberFormatException ignored) {
            // reported below
        }
        warnings.add(raw[0] + "=" + raw[1] + " is not a number in " + min + "–" + max + "; using " + dflt);
        return new Setting<>(dflt, Origin.DEFAULT, null);
    }
}
