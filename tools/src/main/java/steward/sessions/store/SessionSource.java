package steward.sessions.store;

import java.util.List;
import steward.sessions.audit.AuditResult;

/**
 * One home's sessions, behind the one interface the rules, plans, apply, backups and learning are written
 * against. {@link HermesSessions} reads a Hermes {@code state.db}; {@link ClaudeSessions} a Claude Code home.
 */
public interface SessionSource {
    /** {@code hermes} or {@code claude}. */
    String store();

    /** What the report names as this store's location (the state.db file, the Claude projects directory). */
    String location();

    /** Identity of the store for binding plans to it (a copy elsewhere is another store). */
    String key();

    /** Every session as the rules see it. */
    List<SessionRow> rows();

    /**
     * The current session: {@code argument} when it names a session of this store, else the store's own guess
     * (Hermes: the newest active tui/cli session; Claude Code: the newest live transcript of the caller's project),
     * leaving out sessions dated after {@code now} ({@link SessionRow#futureDated}).
     */
    AuditResult.Current current(List<SessionRow> rows, String argument, double now);
}
