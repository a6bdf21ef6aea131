package steward.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import steward.text.Numbers;

/**
 * What housekeeping reads from Hermes' {@code config.yaml} besides {@link StewardSettings} (both resolved by
 * {@link StewardConfig}, which parses the file once): Steward's own
 * {@code steward.machine_idle_hours.<kind>} (rule M: hours without activity after which a machine session of that kind
 * is proposed "mark as ended"; 0 turns the kind off) and {@code steward.cron_retention_days} (rule T; 0 turns it off),
 * and Hermes' own {@code sessions.auto_prune} / {@code sessions.retention_days} / {@code sessions.min_interval_hours}
 * (what Hermes prunes itself, rule H) and {@code session_reset.mode} / {@code idle_minutes} (when Hermes' gateway
 * replaces an idle chat session by a new one). A missing file or key means the default; a malformed value is
 * reported in {@link #warnings()} and the default is used: never fatal.
 */
public record HousekeepingSettings(
        Map<String, Double> machineIdleHours,
        double cronRetentionDays,
        boolean autoPrune,
        double pruneRetentionDays,
        double pruneIntervalHours,
        List<String> warnings) {
    /**
     * Defaults, in hours. cron: a cron run is one unattended agent turn that writes a message at every step, and each run
     * opens a new session: two hours without one means the run is over. subagent: a subagent works inside its parent's
     * turn; a day without a message means that turn is long over. gateway: Hermes' gateway replaces a chat session idle
     * for {@code session_reset.idle_minutes} (1440) or at the daily reset (04:00) by a new one on the next message; twice
     * that is past any reset. api: an API server or webhook request is one exchange; clients continue within a day.
     */
    public static final Map<String, Double> DEFAULT_IDLE_HOURS =
            Map.of("cron", 2.0, "subagent", 24.0, "gateway", 48.0, "api", 24.0);

    public static final double DEFAULT_CRON_RETENTION_DAYS = 14;
    public static final double DEFAULT_PRUNE_RETENTION_DAYS = 90;
    public static final double DEFAULT_PRUNE_INTERVAL_HOURS = 24;
    static final double MAX_HOURS = 24 * 365, MAX_DAYS = 3650;
    static final String IDLE_KEY = "steward.machine_idle_hours", CRON_KEY = "steward.cron_retention_days";

    public HousekeepingSettings {
        machineIdleHours = Map.copyOf(machineIdleHours);
        warnings = List.copyOf(warnings);
    }

    public static HousekeepingSettings defaults() {
        return new HousekeepingSettings(
                DEFAULT_IDLE_HOURS,
                DEFAULT_CRON_RETENTION_DAYS,
                false,
                DEFAULT_PRUNE_RETENTION_DAYS,
                DEFAULT_PRUNE_INTERVAL_HOURS,
                List.of());
    }

    /** The idle hours of a machine-session kind (cron, subagent, gateway, api); 0 = not proposed. */
    public double idleHours(String kind) {
        return machineIdleHours.getOrDefault(kind, 0.0);
    }

    /** Reads config.yaml through {@link StewardConfig} (one parse) and returns this part. */
    public static HousekeepingSettings load(Path configYaml) {
        return StewardConfig.load(configYaml).housekeeping();
    }

    /** This part of a read config.yaml; malformed YAML is reported once, by {@link StewardSettings}. */
    static HousekeepingSettings resolve(Path file, StewardConfig.Read read, Map<String, Origin> origins) {
        return switch (read.state()) {
            case MISSING, MALFORMED -> parse(file, null, List.of(), origins);
            case UNREADABLE ->
                parse(file, null, List.of("config.yaml: cannot read " + file + ": " + read.detail()), origins);
            case READ -> parse(file, read.top(), List.of(), origins);
        };
    }

    /** From a parsed config.yaml ({@code null}: defaults); records where each value came from in {@code origins}. */
    static HousekeepingSettings parse(Path file, Map<?, ?> top, List<String> initial, Map<String, Origin> origins) {
        List<String> w = new ArrayList<>(initial);
        Map<String, Double> idle = new LinkedHashMap<>(DEFAULT_IDLE_HOURS);
        double cronDays = DEFAULT_CRON_RETENTION_DAYS;
        boolean autoPrune = false;
        double pruneDays = DEFAULT_PRUNE_RETENTION_DAYS, pruneHours = DEFAULT_PRUNE_INTERVAL_HOURS;
        for (String kind : DEFAULT_IDLE_HOURS.keySet()) origins.put(IDLE_KEY + "." + kind, Origin.DEFAULT);
        for (String k :
                List.of(CRON_KEY, "sessions.auto_prune", "sessions.retention_days", "sessions.min_interval_hours"))
            origins.put(k, Origin.DEFAULT);
        if (top == null) return new HousekeepingSettings(idle, cronDays, false, pruneDays, pruneHours, w);
        boolean gatewaySet = false;
        if (top.get("steward") instanceof Map<?, ?> st) {
            Object mi = st.get("machine_idle_hours");
            if (mi instanceof Map<?, ?> m) {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    String kind = String.valueOf(e.getKey());
                    if (!DEFAULT_IDLE_HOURS.containsKey(kind)) {
                        w.add(StewardConfig.where(file, IDLE_KEY + "." + kind)
                                + " is not a kind (cron, subagent, gateway, api); ignored");
                        continue;
                    }
                    Double v = number(e.getValue(), MAX_HOURS);
                    if (v == null) {
                        origins.put(IDLE_KEY + "." + kind, Origin.UNREADABLE);
                        w.add(StewardConfig.where(file, IDLE_KEY + "." + kind) + " must be hours from 0 to "
                                + (int) MAX_HOURS + " (" + e.getValue() + "); using "
                                + Numbers.plain(DEFAULT_IDLE_HOURS.get(kind)));
                    } else {
                        idle.put(kind, v);
                        origins.put(IDLE_KEY + "." + kind, Origin.CONFIG_FILE);
                        if (kind.equals("gateway")) gatewaySet = true;
                    }
                }
            } else if (mi != null) {
                for (String kind : DEFAULT_IDLE_HOURS.keySet()) origins.put(IDLE_KEY + "." + kind, Origin.UNREADABLE);
                w.add(StewardConfig.where(file, IDLE_KEY) + " must be a mapping of kind to hours; using the defaults");
            }
            Object cr = st.get("cron_retention_days");
            if (cr != null) {
                Double v = number(cr, MAX_DAYS);
                if (v == null) {
                    origins.put(CRON_KEY, Origin.UNREADABLE);
                    w.add(StewardConfig.where(file, CRON_KEY) + " must be days from 0 to " + (int) MAX_DAYS + " (" + cr
                            + "); using " + Numbers.plain(DEFAULT_CRON_RETENTION_DAYS));
                } else {
                    cronDays = v;
                    origins.put(CRON_KEY, Origin.CONFIG_FILE);
                }
            }
        }
        if (top.get("sessions") instanceof Map<?, ?> ss) {
            autoPrune = truthy(ss.get("auto_prune"));
            if (ss.get("auto_prune") != null) origins.put("sessions.auto_prune", Origin.CONFIG_FILE);
            Double d = ss.get("retention_days") == null ? null : number(ss.get("retention_days"), MAX_DAYS);
            // Hermes: int(retention_days or 90), at least 1 day
            if (d != null) {
                pruneDays = Math.max(1, Math.floor(d == 0 ? DEFAULT_PRUNE_RETENTION_DAYS : d));
                origins.put("sessions.retention_days", Origin.CONFIG_FILE);
            }
            Double h = ss.get("min_interval_hours") == null ? null : number(ss.get("min_interval_hours"), MAX_HOURS);
            if (h != null) {
                pruneHours = Math.floor(h);
                origins.put("sessions.min_interval_hours", Origin.CONFIG_FILE);
            }
        }
        if (!gatewaySet
                && origins.get(IDLE_KEY + ".gateway") != Origin.UNREADABLE
                && top.get("session_reset") instanceof Map<?, ?> sr) {
            // the gateway idle time follows Hermes' own reset policy: off when it never resets, past its idle time
            // otherwise
            Object mode = sr.get("mode");
            if ("none".equals(mode)) {
                idle.put("gateway", 0.0);
                origins.put(IDLE_KEY + ".gateway", Origin.DERIVED); // from session_reset
            }
            Double minutes = number(sr.get("idle_minutes"), MAX_HOURS * 60);
            if (minutes != null && !"none".equals(mode) && !"daily".equals(mode)) {
                idle.put("gateway", Math.max(DEFAULT_IDLE_HOURS.get("gateway"), 2 * minutes / 60.0));
                origins.put(IDLE_KEY + ".gateway", Origin.DERIVED); // from session_reset.idle_minutes
            }
        }
        return new HousekeepingSettings(idle, cronDays, autoPrune, pruneDays, pruneHours, w);
    }

    private static Double number(Object v, double max) {
        if (v instanceof Number n
                && !(v instanceof Double d && (d.isNaN() || d.isInfinite()))
                && n.doubleValue() >= 0
                && n.doubleValue() <= max) {
            return n.doubleValue();
        }
        return null;
    }

    /** Python truthiness of a YAML value, as Hermes' {@code sess_cfg.get("auto_prune", False)}. */
    private static boolean truthy(Object v) {
        if (v == null) return false;
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) return n.doubleValue() != 0;
        if (v instanceof String s) return !s.isEmpty();
        return true;
    }
}
