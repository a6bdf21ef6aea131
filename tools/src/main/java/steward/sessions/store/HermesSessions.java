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
            try (SessionStore store = SessionStore.openReadOnly(db)) {
                rows = store.listSessionsForAudit();
            }
        }
        return rows;
    }

    @Override
    public AuditResult.Current current(List<SessionRow> rows, String argument) {
        if (argument != null && rows.stream().anyMatch(r -> r.id().equals(argument)))
            return new AuditResult.Current(argument, "argument");
        return newestActiveTuiCli(rows);
    }

    /** Hermes' guess: the active tui/cli session with the newest activity. */
    public static AuditResult.Current newestActiveTuiCli(List<SessionRow> rows) {
        return rows.stream()
                .filter(r -> r.active() && ("tui".equals(r.source()) || "cli".equals(r.source())))
                .max(Comparator.comparingDouble(SessionRow::lastActivity).thenComparing(SessionRow::id))
                .map(r -> new AuditResult.Current(r.id(), "newest_active_tui_cli"))
                .orElse(new AuditResult.Current(null, "none"));
    }
}
