package steward.sessions.inspect;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import steward.StewardError;
import steward.json.Json;
import steward.sessions.store.MessageContent;
import steward.sessions.store.SessionStore;
import steward.sessions.store.Sqlite;
import tools.jackson.databind.JsonNode;

/**
 * {@link SessionSource} over Hermes' {@code state.db} (read-only). Columns are read by name where the schema has them:
 * lineage from {@code parent_session_id} and {@code model_config._delegate_from / _branched_from} with the parent's
 * {@code end_reason} (compression = continuation), tool calls from {@code messages.tool_calls} (OpenAI format), tool
 * results from {@code role = 'tool'} rows, message state from {@code active} / {@code compacted}, tokens and costs from
 * the session row and {@code session_model_usage}.
 */
public final class HermesSessionSource implements SessionSource {
    private final SessionStore store;
    private final Connection conn;
    private final String sessionSelect;

    private HermesSessionSource(SessionStore store) {
        this.store = store;
        this.conn = store.connection();
        StringBuilder sb = new StringBuilder(
                "SELECT id, source, title, parent_session_id, started_at, ended_at, end_reason, message_count");
        for (String c : List.of("model_config", "cwd", "git_branch", "git_repo_root", "model", "archived")) {
            sb.append(", ")
                    .append(store.hasSessionColumn(c) ? c : "NULL")
                    .append(" AS ")
                    .append(c);
        }
        this.sessionSelect = sb.append(" FROM sessions").toString();
    }

    public static HermesSessionSource open(Path stateDb) {
        return new HermesSessionSource(SessionStore.openReadOnly(stateDb));
    }

    @Override
    public String store() {
        return "hermes";
    }

    /** A raw row: the info without its relation, plus what deciding the relation needs. */
    private record Raw(SessionInfo info, String modelConfig) {}

    private Raw raw(String id) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sessionSelect + " WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? read(rs) : null;
            }
        }
    }

    private static Raw read(ResultSet rs) throws SQLException {
        Double started = number(rs, "started_at");
        Double ended = number(rs, "ended_at");
        int mc = rs.getInt("message_count");
        Integer stored = rs.wasNull() ? null : mc;
        Object arc = rs.getObject("archived");
        boolean archived = arc instanceof Number n && n.intValue() != 0;
        SessionInfo s = new SessionInfo(
                rs.getString("id"),
                rs.getString("title"),
                rs.getString("source"),
                started,
                ended,
                rs.getString("end_reason"),
                rs.getString("parent_session_id"),
                SessionInfo.Relation.none,
                rs.getString("cwd"),
                rs.getString("git_branch"),
                rs.getString("git_repo_root"),
                rs.getString("model"),
                stored,
                archived);
        return new Raw(s, rs.getString("model_config"));
    }

    private static Double number(ResultSet rs, String col) throws SQLException {
        Object o = rs.getObject(col);
        return o instanceof Number n ? n.doubleValue() : null;
    }

    /** {@code model_config.<key>} as text, or null (malformed JSON is simply no marker). */
    static String marker(String modelConfig, String key) {
        if (modelConfig == null || !modelConfig.contains(key)) return null;
        try {
            JsonNode n = Json.MAPPER.readTree(modelConfig);
            JsonNode v = n == null ? null : n.get(key);
            return v != null && v.isString() ? v.asString() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The relation of {@code child} to {@code parent}, as Hermes' own lineage queries decide it. */
    static SessionInfo.Relation relation(Raw child, SessionInfo parent) {
        SessionInfo c = child.info();
        if (marker(child.modelConfig(), "_delegate_from") != null || "subagent".equals(c.source()))
            return SessionInfo.Relation.delegated;
        if (marker(child.modelConfig(), "_branched_from") != null) return SessionInfo.Relation.branched;
        if (parent == null) return c.parentId() == null ? SessionInfo.Relation.none : SessionInfo.Relation.child;
        if ("compression".equals(parent.endReason())) return SessionInfo.Relation.continued;
        if ("branched".equals(parent.endReason())
                && parent.endedAt() != null
                && c.startedAt() != null
                && c.startedAt() >= parent.endedAt()) {
            return SessionInfo.Relation.branched;
        }
        return SessionInfo.Relation.child;
    }

    private SessionInfo withRelation(Raw r) throws SQLException {
        String parentId = r.info().parentId();
        String delegatedFrom = marker(r.modelConfig(), "_delegate_from");
        if (parentId == null && delegatedFrom != null) parentId = delegatedFrom;
        if (parentId == null) return r.info();
        Raw p = raw(parentId);
        SessionInfo.Relation rel = relation(r, p == null ? null : p.info());
        SessionInfo s = r.info();
        return new SessionInfo(
                s.id(),
                s.title(),
                s.source(),
                s.startedAt(),
                s.endedAt(),
                s.endReason(),
                parentId,
                rel,
                s.cwd(),
                s.gitBranch(),
                s.gitRepoRoot(),
                s.model(),
                s.storedMessageCount(),
                s.archived());
    }

    @Override
    public Optional<SessionInfo> session(String id) {
        try {
            Raw r = raw(id);
            return r == null ? Optional.empty() : Optional.of(withRelation(r));
        } catch (SQLException e) {
            throw new StewardError("session " + id, "cannot read state.db: " + Sqlite.describe(e), e);
        }
    }

    @Override
    public List<SessionInfo> children(String id) {
        String sql = sessionSelect + " WHERE parent_session_id = ?"
                + (store.hasSessionColumn("model_config")
                        ? " OR (instr(model_config, '_delegate_from') > 0 AND instr(model_config, ?) > 0)"
                        : "")
                + " ORDER BY started_at, id";
        List<SessionInfo> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, id);
            if (store.hasSessionColumn("model_config")) ps.setString(2, id);
            Raw parent = raw(id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Raw r = read(rs);
                    String df = marker(r.modelConfig(), "_delegate_from");
                    if (!id.equals(r.info().parentId()) && !id.equals(df))
                        continue; // the instr prefilter matched text elsewhere
                    if (r.info().id().equals(id)) continue;
                    SessionInfo s = r.info();
                    out.add(new SessionInfo(
                            s.id(),
                            s.title(),
                            s.source(),
                            s.startedAt(),
                            s.endedAt(),
                            s.endReason(),
                            id,
                            relation(r, parent == null ? null : parent.info()),
                            s.cwd(),
                            s.gitBranch(),
                            s.gitRepoRoot(),
                            s.model(),
                            s.storedMessageCount(),
                            s.archived()));
                }
            }
        } catch (SQLException e) {
            throw new StewardError("session " + id, "cannot read state.db: " + Sqlite.describe(e), e);
        }
        return out;
    }

    @Override
    public void messages(String id, Consumer<MessageEvent> sink) {
        Set<String> mc = store.messageColumns();
        StringBuilder sql = new StringBuilder("SELECT id, role, content, timestamp");
        for (String c : List.of(
                "tool_calls",
                "tool_call_id",
                "tool_name",
                "token_count",
                "active",
                "compacted",
                "effect_disposition")) {
            sql.append(", ").append(mc.contains(c) ? c : "NULL").append(" AS ").append(c);
        }
        sql.append(" FROM messages WHERE session_id = ? ORDER BY timestamp, id");
        try (PreparedStatement ps = conn.prepareStatement(sql.toString())) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Object tc = rs.getObject("token_count");
                    Object active = rs.getObject("active");
                    Object compacted = rs.getObject("compacted");
                    MessageEvent.State state = compacted instanceof Number c && c.intValue() != 0
                            ? MessageEvent.State.compacted
                            : active instanceof Number a && a.intValue() == 0
                                    ? MessageEvent.State.rewound
                                    : MessageEvent.State.live;
                    Object ts = rs.getObject("timestamp");
                    sink.accept(new MessageEvent(
                            String.valueOf(rs.getLong("id")),
                            rs.getString("role"),
                            ts instanceof Number n ? n.doubleValue() : Double.NaN,
                            MessageContent.text(rs.getString("content")),
                            toolCalls(rs.getString("tool_calls")),
                            rs.getString("tool_call_id"),
                            rs.getString("tool_name"),
                            tc instanceof Number n ? n.intValue() : null,
                            state,
                            rs.getString("effect_disposition")));
                }
            }
        } catch (SQLException e) {
            throw new StewardError("session " + id, "cannot read messages: " + Sqlite.describe(e), e);
        }
    }

    /** Hermes stores OpenAI-format calls: {@code [{id, type, function: {name, arguments: "<json>"}}]}; other shapes are read too. */
    static List<MessageEvent.ToolCall> toolCalls(String json) {
        if (json == null || json.isBlank()) return List.of();
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(json);
        } catch (RuntimeException e) {
            return List.of();
        }
        List<MessageEvent.ToolCall> out = new ArrayList<>();
        if (root == null) return out;
        Iterable<JsonNode> calls = root.isArray() ? root : List.of(root);
        for (JsonNode c : calls) {
            if (c == null || !c.isObject()) continue;
            JsonNode fn = c.has("function") && c.get("function").isObject() ? c.get("function") : c;
            String name = fn.path("name").isString() ? fn.path("name").asString() : null;
            if (name == null) continue;
            String id = c.path("id").isString() ? c.path("id").asString() : null;
            out.add(new MessageEvent.ToolCall(
                    id,
                    name,
                    ToolResults.arguments(fn.get("arguments") != null ? fn.get("arguments") : fn.get("input"))));
        }
        return out;
    }

    @Override
    public Usage usage(String id) {
        boolean hasTokens = store.hasSessionColumn("input_tokens");
        List<Usage.ModelUsage> byModel = new ArrayList<>();
        try {
            if (hasTable("session_model_usage")) {
                try (PreparedStatement ps = conn.prepareStatement(
                        "SELECT model, billing_provider, api_call_count, input_tokens, output_tokens, "
                                + "cache_read_tokens, cache_write_tokens, reasoning_tokens, estimated_cost_usd, actual_cost_usd "
                                + "FROM session_model_usage WHERE session_id = ? ORDER BY first_seen, model")) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            Object actual = rs.getObject(10);
                            String provider = rs.getString(2);
                            byModel.add(new Usage.ModelUsage(
                                    rs.getString(1),
                                    provider == null || provider.isEmpty() ? null : provider,
                                    rs.getLong(3),
                                    rs.getLong(4),
                                    rs.getLong(5),
                                    rs.getLong(6),
                                    rs.getLong(7),
                                    rs.getLong(8),
                                    rs.getDouble(9),
                                    actual instanceof Number n && n.doubleValue() != 0 ? n.doubleValue() : null));
                        }
                    }
                }
            }
            if (!hasTokens) return byModel.isEmpty() ? null : fromModels(byModel);
            String cost = store.hasSessionColumn("estimated_cost_usd")
                    ? "estimated_cost_usd, actual_cost_usd, cost_status"
                    : "NULL, NULL, NULL";
            String calls = store.hasSessionColumn("api_call_count") ? "api_call_count" : "NULL";
            try (PreparedStatement ps =
                    conn.prepareStatement("SELECT input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
                            + "reasoning_tokens, " + calls + ", " + cost + " FROM sessions WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return null;
                    long in = rs.getLong(1),
                            out = rs.getLong(2),
                            cr = rs.getLong(3),
                            cw = rs.getLong(4),
                            rt = rs.getLong(5);
                    Object api = rs.getObject(6);
                    Object est = rs.getObject(7);
                    Object act = rs.getObject(8);
                    String status = rs.getString(9);
                    boolean any = in + out + cr + cw + rt > 0
                            || est instanceof Number
                            || act instanceof Number
                            || status != null
                            || !byModel.isEmpty();
                    if (!any) return null;
                    return new Usage(
                            in,
                            out,
                            cr,
                            cw,
                            rt,
                            api instanceof Number n ? n.longValue() : null,
                            est instanceof Number n ? n.doubleValue() : null,
                            act instanceof Number n ? n.doubleValue() : null,
                            status,
                            byModel);
                }
            }
        } catch (SQLException e) {
            throw new StewardError("session " + id, "cannot read usage: " + Sqlite.describe(e), e);
        }
    }

    private static Usage fromModels(List<Usage.ModelUsage> ms) {
        long in = 0, out = 0, cr = 0, cw = 0, rt = 0, api = 0;
        double est = 0;
        for (Usage.ModelUsage m : ms) {
            in += m.inputTokens();
            out += m.outputTokens();
            cr += m.cacheReadTokens();
            cw += m.cacheWriteTokens();
            rt += m.reasoningTokens();
            api += m.apiCalls();
            est += m.estimatedCostUsd();
        }
        return new Usage(in, out, cr, cw, rt, api, est, null, null, ms);
    }

    private boolean hasTable(String name) throws SQLException {
        try (PreparedStatement ps =
                conn.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
