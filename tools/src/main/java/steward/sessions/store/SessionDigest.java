package steward.sessions.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import steward.StewardError;
import steward.text.CodePoints;

/**
 * One session at a glance: its row, how many messages it has by role, and its first and last few
 * messages (text cut to a bounded length). What the {@code steward://session/{id}} resource shows.
 */
public record SessionDigest(
        SessionRow session,
        long messages,
        Map<String, Long> byRole,
        List<Message> first,
        List<Message> last,
        int excerptLimit) {

    public record Message(long id, String role, double timestamp, String text, boolean truncated) {
        public String timeUtc() {
            return Instant.ofEpochMilli((long) (timestamp * 1000)).toString();
        }
    }

    /** Reads the digest of session {@code id}; a missing session is an expected failure. */
    public static SessionDigest read(SessionStore store, String id, int edge, int excerptLimit) {
        if (id == null || id.isBlank()) throw new StewardError("session", "a session id is required");
        SessionRow row = store.sessionsById(List.of(id)).get(id);
        if (row == null)
            throw new StewardError(
                    "session " + id, "no such session in " + store.path().getFileName());
        Map<String, Long> byRole = new LinkedHashMap<>();
        long total = 0;
        try (PreparedStatement ps = store.connection()
                .prepareStatement(
                        "SELECT role, COUNT(*) FROM messages WHERE session_id = ? GROUP BY role ORDER BY 2 DESC, 1")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byRole.put(rs.getString(1), rs.getLong(2));
                    total += rs.getLong(2);
                }
            }
            List<Message> first = page(store, id, "ASC", edge, excerptLimit);
            List<Message> last = total > edge
                    ? page(store, id, "DESC", (int) Math.min(edge, total - edge), excerptLimit)
                    : List.of();
            List<Message> lastAsc = new ArrayList<>(last);
            Collections.reverse(lastAsc);
            return new SessionDigest(row, total, byRole, first, lastAsc, excerptLimit);
        } catch (SQLException e) {
            throw new StewardError("session " + id, "cannot read messages: " + Sqlite.describe(e), e);
        }
    }

    private static List<Message> page(SessionStore store, String id, String dir, int n, int limit) throws SQLException {
        List<Message> out = new ArrayList<>();
        if (n <= 0) return out;
        try (PreparedStatement ps = store.connection()
                .prepareStatement("SELECT id, role, content, timestamp FROM messages "
                        + "WHERE session_id = ? ORDER BY timestamp " + dir + ", id " + dir + " LIMIT ?")) {
            ps.setString(1, id);
            ps.setInt(2, n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String text = MessageContent.text(rs.getString(3));
                    boolean cut = CodePoints.length(text) > limit;
                    out.add(new Message(
                            rs.getLong(1),
                            rs.getString(2),
                            rs.getDouble(4),
                            cut ? CodePoints.prefix(text, limit) : text,
                            cut));
                }
            }
        }
        return out;
    }
}
