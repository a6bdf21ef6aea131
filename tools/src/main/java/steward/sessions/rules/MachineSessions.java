package steward.sessions.rules;

import java.util.Locale;
import java.util.Map;
import steward.sessions.store.SessionRow;

/**
 * Which sessions are not the user's own conversations, by the {@code source} Hermes writes: {@code cron} (scheduled
 * jobs), {@code subagent} (delegated runs), the gateway's chat platforms (one session per chat thread) and its API
 * server and webhooks. Any other source — {@code cli}, {@code tui}, {@code local}, and sources this list does not
 * know — is treated as interactive. Only Hermes sessions are classified (Claude Code has no ended mark).
 */
public final class MachineSessions {
    private MachineSessions() {}

    /** Hermes' gateway platforms ({@code gateway.config.Platform}) and its other unattended sources, by kind. */
    static final Map<String, String> KINDS = Map.ofEntries(
            Map.entry("cron", "cron"),
            Map.entry("subagent", "subagent"),
            Map.entry("telegram", "gateway"),
            Map.entry("discord", "gateway"),
            Map.entry("whatsapp", "gateway"),
            Map.entry("slack", "gateway"),
            Map.entry("signal", "gateway"),
            Map.entry("mattermost", "gateway"),
            Map.entry("matrix", "gateway"),
            Map.entry("homeassistant", "gateway"),
            Map.entry("email", "gateway"),
            Map.entry("sms", "gateway"),
            Map.entry("dingtalk", "gateway"),
            Map.entry("feishu", "gateway"),
            Map.entry("wecom", "gateway"),
            Map.entry("wecom_callback", "gateway"),
            Map.entry("weixin", "gateway"),
            Map.entry("qqbot", "gateway"),
            Map.entry("bluebubbles", "gateway"),
            Map.entry("api_server", "api"),
            Map.entry("api", "api"),
            Map.entry("webhook", "api"));

    /** The machine kind of a session ({@code cron}, {@code subagent}, {@code gateway}, {@code api}), or null: interactive. */
    public static String kind(SessionRow s) {
        if (s.place() != null || s.source() == null) return null;
        return KINDS.get(s.source().toLowerCase(Locale.ROOT));
    }

    /**
     * The family of sessions what the user teaches about this one applies to (RuleKey): null for Hermes' interactive
     * sessions (tui, cli, local and sources not listed here), {@code gateway} for its chat platforms, {@code machine} for
     * cron, API, webhook and subagent sessions, and the home's name ({@code claude}) for sessions of another home.
     */
    public static String family(SessionRow s) {
        if (!SessionRow.HERMES.equals(s.store())) return s.store();
        String kind = kind(s);
        return kind == null ? null : kind.equals("gateway") ? "gateway" : "machine";
    }

    public static boolean machine(SessionRow s) {
        return kind(s) != null;
    }
}
