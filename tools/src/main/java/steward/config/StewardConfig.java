package steward.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The one reader of Steward's settings in Hermes' {@code config.yaml}: the file is read and parsed once, and every
 * value Steward takes from it is resolved here, each with where it came from ({@link #origins()}, as
 * {@link StewardPaths} does for paths): {@link StewardSettings} ({@code steward.subagent_keep_days}),
 * {@link HousekeepingSettings} (rules M, T, H), {@code steward.backup_retention_days} (Retention) and
 * {@code steward.vacuum_min_free_mb} / {@code steward.vacuum_max_lock_seconds} (StateVacuum). A missing file or key
 * means the default; a bad value keeps the default and leaves a warning that names the file and the key; nothing here
 * is ever fatal.
 */
public record StewardConfig(
        Path file,
        StewardSettings steward,
        HousekeepingSettings housekeeping,
        Setting<Integer> backupRetentionDays,
        Setting<Double> vacuumMinFreeMb,
        Setting<Double> vacuumMaxLockSeconds,
        Map<String, Origin> origins,
        Read read) {

    /** One resolved value: its key, the value, where it came from, and the warning a bad value left (else null). */
    public record Setting<T>(String key, T value, Origin origin, String warning) {}

    /** How the file read: {@code top} is its mapping ({@code null} when missing, unreadable, malformed or not a mapping). */
    public record Read(State state, Map<?, ?> top, String detail) {}

    public enum State {
        MISSING,
        UNREADABLE,
        MALFORMED,
        READ
    }

    public static final int DEFAULT_BACKUP_DAYS = 30;
    public static final int DEFAULT_VACUUM_MIN_FREE_MB = 64;
    public static final int DEFAULT_VACUUM_MAX_LOCK_SECONDS = 10;

    public StewardConfig {
        origins = Collections.unmodifiableMap(new LinkedHashMap<>(origins));
    }

    /**
     * The keys whose value is there but could not be read (origin {@link Origin#UNREADABLE}): a rule that depends on one
     * never runs automatically (rule S).
     */
    public Set<String> unread() {
        Set<String> out = new java.util.TreeSet<>();
        origins.forEach((k, o) -> {
            if (o == Origin.UNREADABLE) out.add(k);
        });
        return Collections.unmodifiableSet(out);
    }

    /** Reads and parses {@code configYaml} once and resolves every setting Steward takes from it. */
    public static StewardConfig load(Path configYaml) {
        Read read = read(configYaml);
        Map<String, Origin> origins = new LinkedHashMap<>();
        StewardSettings steward = StewardSettings.resolve(configYaml, read, origins);
        HousekeepingSettings housekeeping = HousekeepingSettings.resolve(configYaml, read, origins);
        Map<?, ?> st = read.top() != null && read.top().get("steward") instanceof Map<?, ?> m ? m : Map.of();
        Setting<Integer> backupDays = backupDays(configYaml, st.get("backup_retention_days"));
        Setting<Double> minFree = number(
                configYaml,
                "steward.vacuum_min_free_mb",
                st.get("vacuum_min_free_mb"),
                DEFAULT_VACUUM_MIN_FREE_MB,
                1_000_000);
        Setting<Double> maxLock = number(
                configYaml,
                "steward.vacuum_max_lock_seconds",
                st.get("vacuum_max_lock_seconds"),
                DEFAULT_VACUUM_MAX_LOCK_SECONDS,
                86_400);
        for (Setting<?> s : List.of(backupDays, minFree, maxLock)) origins.put(s.key(), s.origin());
        // a file that is there but cannot be read, or a 'steward' section that is not a mapping: none of its values is
        // known (the user may have set any of them)
        boolean stewardUnread = read.top() != null
                && read.top().get("steward") != null
                && st.isEmpty()
                && !(read.top().get("steward") instanceof Map<?, ?>);
        if (read.state() == State.UNREADABLE || read.state() == State.MALFORMED) {
            origins.replaceAll((k, o) -> Origin.UNREADABLE);
        } else if (stewardUnread) {
            origins.replaceAll((k, o) -> k.startsWith("steward.") ? Origin.UNREADABLE : o);
        }
        return new StewardConfig(configYaml, steward, housekeeping, backupDays, minFree, maxLock, origins, read);
    }

    static Read read(Path configYaml) {
        String text;
        try {
            text = new String(Files.readAllBytes(configYaml), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return new Read(State.MISSING, null, null);
        } catch (IOException | RuntimeException e) {
            return new Read(State.UNREADABLE, null, e.getMessage());
        }
        try {
            Object root =
                    new Load(LoadSettings.builder().setAllowDuplicateKeys(true).build()).loadFromString(text);
            return new Read(State.READ, root instanceof Map<?, ?> m ? m : null, null);
        } catch (RuntimeException e) {
            return new Read(State.MALFORMED, null, e.getMessage());
        }
    }

    /** "<file>: <key>", the start of every warning about a value, so that it says where to fix it. */
    static String where(Path file, String key) {
        return file + ": " + key;
    }

    /** A whole number of days from 1 to 36,500 ({@code steward.backup_retention_days}). */
    private static Setting<Integer> backupDays(Path file, Object v) {
        String key = "steward.backup_retention_days";
        if (v == null) return new Setting<>(key, DEFAULT_BACKUP_DAYS, Origin.DEFAULT, null);
        if (v instanceof Number n && n.doubleValue() == n.longValue() && n.longValue() >= 1 && n.longValue() <= 36_500)
            return new Setting<>(key, n.intValue(), Origin.CONFIG_FILE, null);
        return new Setting<>(
                key,
                DEFAULT_BACKUP_DAYS,
                Origin.UNREADABLE,
                where(file, key) + " is not a whole number of days from 1 to 36500 (" + v + "); using "
                        + DEFAULT_BACKUP_DAYS);
    }

    /** A number from 0 to {@code max}. */
    private static Setting<Double> number(Path file, String key, Object v, double dflt, double max) {
        if (v == null) return new Setting<>(key, dflt, Origin.DEFAULT, null);
        if (v instanceof Number n && !Double.isNaN(n.doubleValue()) && n.doubleValue() >= 0 && n.doubleValue() <= max)
            return new Setting<>(key, n.doubleValue(), Origin.CONFIG_FILE, null);
        return new Setting<>(
                key,
                dflt,
                Origin.UNREADABLE,
                where(file, key) + " must be a number from 0 to " + (long) max + " (" + v + "); using " + (long) dflt);
    }

    /** The warnings of these settings, in order (none for good values). */
    public static List<String> warnings(List<Setting<?>> settings) {
        List<String> out = new ArrayList<>();
        for (Setting<?> s : settings) if (s.warning() != null) out.add(s.warning());
        return out;
    }
}
