package steward.sessions.store;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import steward.sessions.audit.AuditResult;
import steward.sessions.audit.PlanStore;

/** The sessions of a Hermes home's {@code state.db}, read once, read-only. */
public final class HermesSessions implements SessionSource {
    private final Path db;
    private List<SessionRow> rows;

    public HermesSessions(Path stateDb) {
        this.db = stateDb;
    }

    @Override
    public String store() {
        return SessionRow.HERMES;
    }

    @Override
    public String location() {
        return db.toString();
    }

    @Override
    public String key() {
        return PlanStore.databaseKey(db);
    }

    @Override
    public List<SessionRow> rows() {
        if (rows == null) {
            rows = AuditListings.rows(db);
        }
        return rows;
    }

    @Override
    public AuditResult.Current current(List<SessionRow> rows, String argument, double now) {
        if (argument != null && rows.stream().anyMatch(r -> r.id().equals(argument)))
            return new AuditResult.Current(argument, "argument");
        return newestActiveTuiCli(rows, now);
    }

    private static final Comparator<SessionRow> NEWEST =
            Comparator.comparingDouble(SessionRow::lastActivity).thenComparing(SessionRow::id);

    /**
     * Hermes' guess: the active tui/cli session with the newest activity, leaving out sessions dated in the future
     * ({@link SessionRow#futureDated}): their time says nothing about being in use, and would outrank the real one for
     * as long as the wrong clock is ahead. {@code found_by} says when such a session was left out.
     */
    public static AuditResult.Current newestActiveTuiCli(List<SessionRow> rows, double now) {
        SessionRow best = null;
        boolean skipped = false;
        for (SessionRow r : rows) {
            if (!r.active() || !("tui".equals(r.source()) || "cli".equals(r.source()))) continue;
            if (r.futureDated(now)) {
                skipped = true;
                continue;
            }
            if (best == null || NEWEST.compare(r, best) > 0) best = r;
        }
        return best == null
                ? new AuditResult.Current(null, "none")
                : new AuditResult.Current(
                        best.id(), skipped ? "newest_active_tui_cli_skipped_future_dated" : "newest_active_tui_cli");
    }
}
