package steward.sessions.rules;

import java.util.ArrayList;
import java.util.List;
import steward.config.HousekeepingSettings;
import steward.config.StewardSettings;
import steward.learning.Preferences;
import steward.sessions.store.SessionRow;

/**
 * Session rows for rule tests, as text blocks: one row per line, columns separated by {@code |}:
 * {@code id | source | title | parent | messages | active/ended | archived(0/1) | idle days | end_reason}.
 * {@code -} means NULL. Time is pinned to {@link #NOW}.
 */
public final class RuleFixtures {
    private RuleFixtures() {}

    public static final double NOW = 1786363200.0; // 2026-08-10T12:00:00Z

    public static List<SessionRow> rows(String table) {
        List<SessionRow> out = new ArrayList<>();
        for (String line : table.strip().split("\n")) {
            if (line.isBlank() || line.strip().startsWith("#")) continue;
            String[] c = line.split("\\|", -1);
            if (c.length != 9) throw new IllegalArgumentException("9 columns expected: " + line);
            for (int i = 0; i < c.length; i++) c[i] = c[i].strip();
            String title = nul(c[2]);
            String parent = nul(c[3]);
            int msgs = Integer.parseInt(c[4]);
            boolean active = c[5].equals("active");
            double last = NOW - Double.parseDouble(c[7]) * 86400.0;
            String mc = c[1].equals("subagent") && parent != null ? "{\"_delegate_from\": \"" + parent + "\"}" : null;
            out.add(new SessionRow(
                    c[0],
                    c[1],
                    title,
                    parent,
                    last - 3600,
                    active ? null : last + 60,
                    nul(c[8]),
                    msgs,
                    msgs,
                    c[6].equals("1"),
                    false,
                    false,
                    mc,
                    last,
                    0,
                    null));
        }
        return out;
    }

    /** The same rows as sessions of a Claude Code home (one project). */
    public static List<SessionRow> claude(List<SessionRow> rows) {
        List<SessionRow> out = new ArrayList<>();
        for (SessionRow r : rows)
            out.add(copy(r, r.pinned(), new SessionRow.Place("claude", "-home-u-app", 1000, true, false)));
        return out;
    }

    /** The same row, pinned by the user (a column of newer Hermes schemas). */
    public static SessionRow pinned(SessionRow r) {
        return copy(r, true, r.place());
    }

    private static SessionRow copy(SessionRow r, boolean pinned, SessionRow.Place place) {
        return new SessionRow(
                r.id(),
                r.source(),
                r.title(),
                r.parentSessionId(),
                r.startedAt(),
                r.endedAt(),
                r.endReason(),
                r.messageCount(),
                r.storedMessageCount(),
                r.archived(),
                pinned,
                r.hidden(),
                r.modelConfig(),
                r.lastActivity(),
                r.maxMessageId(),
                place);
    }

    private static String nul(String s) {
        return s.equals("-") ? null : s;
    }

    public static RuleContext context(List<SessionRow> rows, String current) {
        return RuleContext.of(NOW, current, rows, Preferences.empty());
    }

    /** A context with housekeeping settings: default machine idle times and cron retention, Hermes' auto-prune as given. */
    public static RuleContext context(
            List<SessionRow> rows,
            String current,
            Preferences prefs,
            boolean autoPrune,
            double pruneDays,
            Double lastAutoPrune) {
        var hk = new HousekeepingSettings(
                HousekeepingSettings.DEFAULT_IDLE_HOURS,
                HousekeepingSettings.DEFAULT_CRON_RETENTION_DAYS,
                autoPrune,
                pruneDays,
                24,
                List.of());
        return RuleContext.of(
                NOW,
                current,
                rows,
                prefs,
                StewardSettings.DEFAULT_SUBAGENT_KEEP_DAYS,
                hk,
                lastAutoPrune,
                java.util.Set.of());
    }

    public static SessionRow row(List<SessionRow> rows, String id) {
        return rows.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }
}
