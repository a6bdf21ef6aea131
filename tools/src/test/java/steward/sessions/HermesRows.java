package steward.sessions;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import steward.sessions.store.Sqlite;

/**
 * Inserts sessions into a Hermes {@code state.db} shaped like the rows Hermes' own {@code SessionDB} writes
 * (schema v21: a {@code sessions} row with {@code message_count}, a subagent's {@code model_config._delegate_from},
 * one {@code messages} row per message, so Hermes' FTS triggers fire), and ends or renames sessions as Hermes does.
 */
public final class HermesRows {
    private final Path db;
    private final List<Row> pending = new ArrayList<>();

    private HermesRows(Path db) {
        this.db = db;
    }

    public static HermesRows into(Path db) {
        return new HermesRows(db);
    }

    /** One session: {@code lastActive} is the newest message's time; an ended one ended 30 s after it. */
    public record Row(
            String id,
            String source,
            String title,
            String parent,
            boolean ended,
            int messages,
            double lastActive,
            boolean archived,
            String endReason) {}

    public HermesRows chat(String id, String source, String title, boolean ended, int messages, double lastActive) {
        pending.add(new Row(id, source, title, null, ended, messages, lastActive, false, ended ? "cli_close" : null));
        return this;
    }

    public HermesRows subagent(String id, String parent, String title, boolean ended, int messages, double lastActive) {
        pending.add(
                new Row(id, "subagent", title, parent, ended, messages, lastActive, false, ended ? "completed" : null));
        return this;
    }

    public HermesRows archivedActive(String id, String title, int messages, double lastActive) {
        pending.add(new Row(id, "tui", title, null, false, messages, lastActive, true, null));
        return this;
    }

    public void write() throws Exception {
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                try (PreparedStatement ps = x.prepareStatement(
                                "INSERT INTO sessions (id, source, title, parent_session_id, model_config, "
                                        + "started_at, ended_at, end_reason, message_count, archived) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
                        PreparedStatement pm = x.prepareStatement(
                                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")) {
                    for (Row r : pending) {
                        double started = r.lastActive() - r.messages() * 60.0 - 60;
                        ps.setString(1, r.id());
                        ps.setString(2, r.source());
                        ps.setString(3, r.title());
                        ps.setString(4, r.parent());
                        ps.setString(5, r.parent() == null ? null : "{\"_delegate_from\": \"" + r.parent() + "\"}");
                        ps.setDouble(6, started);
                        if (r.ended()) ps.setDouble(7, r.lastActive() + 30);
                        else ps.setNull(7, Types.REAL);
                        ps.setString(8, r.endReason());
                        ps.setInt(9, r.messages());
                        ps.setInt(10, r.archived() ? 1 : 0);
                        ps.executeUpdate();
                        for (int m = 0; m < r.messages(); m++) {
                            pm.setString(1, r.id());
                            pm.setString(2, m % 2 == 0 ? "user" : "assistant");
                            pm.setString(3, "message " + m + " of " + r.id());
                            pm.setDouble(4, started + (m + 1) * 60.0);
                            pm.executeUpdate();
                        }
                    }
                }
                return null;
            });
        }
        pending.clear();
    }

    /** Ends a session as Hermes does when its process closes it. */
    public static void end(Path db, String id, double at, String reason) throws Exception {
        sql(db, "UPDATE sessions SET ended_at = " + at + ", end_reason = '" + reason + "' WHERE id = '" + id + "'");
    }

    public static void sql(Path db, String statement) throws Exception {
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                try (var st = x.createStatement()) {
                    st.executeUpdate(statement);
                }
                return null;
            });
        }
    }

    public static boolean exists(Path db, String id) throws Exception {
        try (Connection c = Sqlite.openReadOnly(db);
                PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (var rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
