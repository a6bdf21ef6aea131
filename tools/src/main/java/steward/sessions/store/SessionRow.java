package steward.sessions.store;

import steward.json.Json;

/**
 * One session as the rules see it, whichever home it lives in. For Hermes: one row of the {@code sessions} table,
 * with the last activity computed from {@code messages} (newest message timestamp, else {@code started_at});
 * columns that only newer Hermes schemas have ({@code pinned}, {@code hidden}) are false when absent. Times are
 * epoch seconds. {@code place} is null for a Hermes session; a session of another home says where it lives.
 */
public record SessionRow(
        String id,
        String source,
        String title,
        String parentSessionId,
        double startedAt,
        Double endedAt,
        String endReason,
        int messageCount,
        int storedMessageCount,
        boolean archived,
        boolean pinned,
        boolean hidden,
        String modelConfig,
        double lastActivity,
        long maxMessageId,
        Place place) {

    /**
     * Where a session of a home other than Hermes lives: the store ({@code claude}), its group (the project
     * directory), the size of its file (part of its fingerprint: an append changes it), whether {@code messageCount}
     * is exact or estimated from the parts of a large file that were read, and whether the store can mark it as ended
     * (Claude Code has no such mark).
     */
    public record Place(String store, String group, long sizeBytes, boolean exactCount, boolean markable) {}

    public static final String HERMES = "hermes";

    /** The home this session lives in: {@code hermes} or {@code claude}. */
    public String store() {
        return place == null ? HERMES : place.store();
    }

    /** The group its home counts active sessions in (a Claude Code project), or null for one count over the home. */
    public String group() {
        return place == null ? null : place.group();
    }

    /** Whether Steward can mark it as ended. */
    public boolean markable() {
        return place == null || place.markable();
    }

    public boolean active() {
        return endedAt == null;
    }

    /**
     * How far after "now" a session's time may lie and still be taken as now: 5 minutes. The audit takes its time before
     * it reads the sessions, and Hermes keeps writing while it reads (seconds on a large store); clocks kept by NTP agree
     * within a second, unsynchronised ones drift seconds a day. 5 minutes covers both with room to spare (it is also
     * Kerberos' default clock-skew tolerance, and {@link ClaudeSessions#QUIET_SECONDS}, the time a file counts as being
     * written), while a clock set wrong by hours or days, or a row imported from such a machine, stands out.
     */
    public static final double CLOCK_SKEW_SECONDS = 300;

    /**
     * Dated in the future: its start or last activity lies more than {@link #CLOCK_SKEW_SECONDS} after {@code now}.
     * Nothing tells how long ago such a session was in use: it is never the guessed current session, and the safety
     * guard keeps it while it is active.
     */
    public boolean futureDated(double now) {
        return Math.max(startedAt, lastActivity) > now + CLOCK_SKEW_SECONDS;
    }

    public boolean untitled() {
        return title == null || title.isBlank();
    }

    public boolean subagent() {
        return "subagent".equals(source);
    }

    /** The parent this session was delegated from: {@code model_config._delegate_from}, if any. */
    public String delegateFrom() {
        if (modelConfig == null || !modelConfig.contains("_delegate_from")) return null;
        try {
            var node = Json.MAPPER.readTree(modelConfig);
            var v = node.get("_delegate_from");
            return v != null && v.isString() ? v.asString() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
