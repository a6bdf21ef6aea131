package steward.sessions.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import steward.StewardError;

/**
 * Hermes' full-text search tables ({@code messages_fts}, {@code messages_fts_trigram}: FTS5 tables its triggers keep
 * in step with {@code messages}). {@link #check} runs FTS5's own integrity check through
 * {@code PRAGMA integrity_check(<table>)} on a read-only connection: a WAL reader never blocks Hermes' writers, so the
 * check can take seconds on a large store without Hermes seeing "database is locked".
 */
public final class FtsIndex {
    private FtsIndex() {}

    /** One FTS table's verdict: {@code ok}, or what FTS5 reported. */
    public record TableCheck(String table, boolean ok, String detail) {}

    /** Every FTS5 table's verdict (empty when the database has none). */
    public record Report(List<TableCheck> tables) {
        public boolean ok() {
            return tables.stream().allMatch(TableCheck::ok);
        }

        /** "messages_fts ok, messages_fts_trigram ok" or the failing tables with FTS5's words. */
        public String summary() {
            if (tables.isEmpty()) return "no FTS table";
            List<String> parts = new ArrayList<>();
            for (TableCheck t : tables) parts.add(t.table() + (t.ok() ? " ok" : ": " + t.detail()));
            return String.join(", ", parts);
        }

        public List<String> failing() {
            return tables.stream().filter(t -> !t.ok()).map(TableCheck::table).toList();
        }
    }

    /** The database's FTS5 tables, in name order. */
    public static List<String> tables(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' "
                                + "AND lower(sql) LIKE '%using fts5%' ORDER BY name")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    /** FTS5's integrity check of every FTS5 table of {@code db}, the tables checked in parallel. */
    public static Report check(Path db) {
        List<String> names;
        try (Connection c = Sqlite.openReadOnly(db)) {
            names = tables(c);
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot list the search tables of " + db + ": " + Sqlite.describe(e), e);
        }
        List<CompletableFuture<TableCheck>> runs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String t = names.get(i);
            runs.add(
                    i == names.size() - 1
                            ? CompletableFuture.completedFuture(checkOne(db, t))
                            : CompletableFuture.supplyAsync(() -> checkOne(db, t)));
        }
        List<TableCheck> out = new ArrayList<>();
        for (CompletableFuture<TableCheck> r : runs) {
            try {
                out.add(r.join());
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException re) throw re;
                throw e;
            }
        }
        return new Report(List.copyOf(out));
    }

    static TableCheck checkOne(Path db, String table) {
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA integrity_check(" + quote(table) + ")")) {
            List<String> lines = new ArrayList<>();
            while (rs.next()) lines.add(rs.getString(1));
            boolean ok = lines.size() == 1 && "ok".equals(lines.get(0));
            return new TableCheck(
                    table, ok, ok ? "ok" : String.join("; ", lines.subList(0, Math.min(3, lines.size()))));
        } catch (SQLException e) {
            // FTS5 reports some damage as an error of the check itself (SQLITE_CORRUPT_VTAB)
            return new TableCheck(table, false, Sqlite.describe(e));
        }
    }

    /**
     * Refuses to go on when an FTS table is inconsistent: writing through Hermes' triggers into a damaged index can make it
     * worse. The message names the damage and the explicit repair.
     */
    public static Report requireConsistent(Path db, String context) {
        Report r = check(db);
        if (!r.ok() && alignNulRows(db) > 0) r = check(db);
        if (!r.ok()) {
            throw new StewardError(
                    context,
                    "Hermes' search index is inconsistent (" + r.summary() + "); nothing was changed. " + REPAIR_HINT);
        }
        return r;
    }

    /**
     * Rows that an older SQLite indexed only up to a NUL character (Hermes' list content, see {@link FtsNulRows}) are
     * made to read the same in every SQLite, in one short write transaction; returns the rows aligned (0: none, or no
     * trigram table). Only called when the check failed: it reads every trigram row holding a NUL.
     */
    static int alignNulRows(Path db) {
        try (Connection c = Sqlite.openReadWrite(db)) {
            return Sqlite.immediate(c, FtsNulRows::alignIndexedPrefixes);
        } catch (SQLException e) {
            throw new StewardError("state.db", "cannot open " + db + ": " + Sqlite.describe(e), e);
        }
    }

    /** How the user repairs a damaged index: said wherever Steward finds one. */
    public static final String REPAIR_HINT =
            "Rebuild it from the messages with `steward repair-index` (it backs up state.db first).";

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
