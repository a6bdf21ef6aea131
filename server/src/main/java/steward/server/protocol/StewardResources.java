package steward.server.protocol;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import steward.StewardError;
import steward.json.Json;
import steward.server.tools.ToolContext;
import steward.sessions.inspect.ClaudeSessionSource;
import steward.sessions.inspect.InspectEngine;
import steward.sessions.inspect.SessionSource;
import steward.sessions.inspect.SessionSources;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.SessionDigest;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionStore;
import steward.text.CodePoints;
import tools.jackson.databind.JsonNode;

/**
 * Steward's own MCP resources besides the memory files: the template {@code steward://session/{id}}
 * (a session at a glance) and {@code steward://audit/latest} (the report text of the newest audit
 * plan in the state dir, or a clear "no audit yet" when there is none).
 */
public final class StewardResources {
    public static final String SESSION_TEMPLATE = "steward://session/{id}";
    public static final String SESSION_PREFIX = "steward://session/";
    public static final String AUDIT_LATEST = "steward://audit/latest";
    static final int EDGE_MESSAGES = 3;
    static final int EXCERPT_CHARS = 400;

    private StewardResources() {}

    public static List<McpServerFeatures.SyncResourceSpecification> resources(ToolContext ctx) {
        var audit = McpSchema.Resource.builder(AUDIT_LATEST, "audit-latest")
                .title("Latest session audit report")
                .description(
                        "The report text of the newest session audit Steward made (session_audit), as the user saw it; "
                                + "says so plainly when no audit has been made yet.")
                .mimeType("text/markdown")
                .build();
        return List.of(new McpServerFeatures.SyncResourceSpecification(
                audit, (ex, req) -> text(AUDIT_LATEST, "text/markdown", auditText(ctx))));
    }

    /**
     * Plain read-only MEMORY.md / USER.md resources at {@code steward://memory/<file>}, used only while no
     * richer memory resource (the memory issue's MemoryResources) is registered for that file.
     */
    public static List<McpServerFeatures.SyncResourceTemplateSpecification> templates(ToolContext ctx) {
        var t = McpSchema.ResourceTemplate.builder(SESSION_TEMPLATE, "session")
                .title("Hermes or Claude Code session")
                .description(
                        "One session at a glance: the session_inspect summary (timeline and phases, messages by role, "
                                + "tools, subagents, tokens, files, lineage) and its first and last messages (excerpts). {id} is a session "
                                + "id from Hermes' state.db, else a Claude Code session uuid (or <uuid>/agent-<id> for a subagent).")
                .mimeType("text/markdown")
                .build();
        return List.of(new McpServerFeatures.SyncResourceTemplateSpecification(t, (ex, req) -> {
            String id = req.uri().substring(SESSION_PREFIX.length());
            return text(req.uri(), "text/markdown", sessionText(ctx, URLDecoder.decode(id, StandardCharsets.UTF_8)));
        }));
    }

    static McpSchema.ReadResourceResult text(String uri, String mime, String text) {
        return McpSchema.ReadResourceResult.builder(List.of(McpSchema.TextResourceContents.builder(uri, text)
                        .mimeType(mime)
                        .build()))
                .build();
    }

    /**
     * The markdown for one session of either home: Hermes' state.db first, else a Claude Code session of that uuid (or
     * subagent id); an unknown id is a resource-not-found error.
     */
    public static String sessionText(ToolContext ctx, String id) {
        Path db = ctx.paths().stateDb();
        boolean hermes = Files.isRegularFile(db);
        SessionDigest d = null;
        StewardError missing = null;
        if (hermes) {
            try (SessionStore store = SessionStore.openReadOnly(db)) {
                d = SessionDigest.read(store, id, EDGE_MESSAGES, EXCERPT_CHARS);
            } catch (StewardError e) {
                missing = e;
            }
        }
        if (d == null) {
            String claude = claudeSessionText(ctx, id);
            if (claude != null) return claude;
            throw notFound(
                    missing != null
                            ? missing.getMessage()
                            : "session " + id + ": no state.db at " + db + " and no Claude Code session of that id");
        }
        SessionRow s = d.session();
        String summary;
        try (SessionSource src = SessionSources.open(ctx.paths())) {
            summary = InspectEngine.inspect(src, InspectEngine.Request.of(id)).text();
        } catch (StewardError e) {
            throw notFound(e.getMessage());
        }
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(s.untitled() ? "(untitled session)" : s.title()).append("\n\n");
        sb.append(summary); // the same summary as session_inspect
        sb.append("\n\n## First messages\n");
        appendMessages(sb, d.first());
        if (!d.last().isEmpty()) {
            long skipped = d.messages() - d.first().size() - d.last().size();
            if (skipped > 0) sb.append("\n… ").append(skipped).append(" message(s) left out …\n");
            sb.append("\n## Last messages\n");
            appendMessages(sb, d.last());
        }
        return sb.toString();
    }

    /** A Claude Code session's markdown (session_inspect's summary, first and last messages), or null when there is none of that id. */
    static String claudeSessionText(ToolContext ctx, String id) {
        Path home = ctx.paths().claudeHome();
        if (home == null || !Files.isDirectory(home)) return null;
        double now = ctx.clock().millis() / 1000.0;
        try (SessionSource src = ClaudeSessionSource.open(home, now, ClaudeSessions.DEFAULT_IDLE_SECONDS)) {
            var info = src.session(id).orElse(null);
            if (info == null) return null;
            String summary =
                    InspectEngine.inspect(src, InspectEngine.Request.of(id)).text();
            List<SessionDigest.Message> all = new ArrayList<>();
            long[] n = {0};
            src.messages(info.id(), m -> {
                if (!"user".equals(m.role()) && !"assistant".equals(m.role()))
                    return; // tool output and meta events are in the summary's counts
                n[0]++;
                String text = m.text() == null ? "" : m.text();
                boolean cut = CodePoints.length(text) > EXCERPT_CHARS;
                SessionDigest.Message msg = new SessionDigest.Message(
                        n[0], m.role(), m.timestamp(), cut ? CodePoints.prefix(text, EXCERPT_CHARS) : text, cut);
                if (all.size() < 2 * EDGE_MESSAGES) all.add(msg);
                else {
                    all.remove(EDGE_MESSAGES); // keep the first EDGE_MESSAGES and the newest EDGE_MESSAGES
                    all.add(msg);
                }
            });
            int firstN = Math.min(EDGE_MESSAGES, all.size());
            StringBuilder sb = new StringBuilder();
            sb.append("# ")
                    .append(info.title() == null ? "(untitled session)" : info.title())
                    .append("\n\n");
            sb.append(summary);
            sb.append("\n\n## First messages\n");
            appendMessages(sb, all.subList(0, firstN));
            if (all.size() > firstN) {
                long skipped = n[0] - all.size();
                if (skipped > 0) sb.append("\n… ").append(skipped).append(" message(s) left out …\n");
                sb.append("\n## Last messages\n");
                appendMessages(sb, all.subList(firstN, all.size()));
            }
            return sb.toString();
        } catch (StewardError e) {
            throw notFound(e.getMessage());
        }
    }

    private static void appendMessages(StringBuilder sb, List<SessionDigest.Message> ms) {
        if (ms.isEmpty()) sb.append("(none)\n");
        for (SessionDigest.Message m : ms) {
            sb.append("\n**")
                    .append(m.role())
                    .append("** · ")
                    .append(m.timeUtc())
                    .append('\n')
                    .append(m.text().isBlank() ? "(no text)" : m.text())
                    .append(m.truncated() ? " …" : "")
                    .append('\n');
        }
    }

    /**
     * The report of the newest {@code <stateDir>/plans/*.json} with a {@code report_text} field.
     * Plans are written by another component; anything unreadable is skipped, never fatal.
     */
    public static String auditText(ToolContext ctx) {
        Path dir = ctx.paths().stateDir().resolve("plans");
        List<Path> plans = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
                for (Path p : ds) if (Files.isRegularFile(p)) plans.add(p);
            } catch (IOException e) {
                // unreadable dir: same as no audit
            }
        }
        plans.sort((a, b) -> Long.compare(mtime(b), mtime(a)));
        for (Path p : plans) {
            try {
                JsonNode n = Json.MAPPER.readTree(Files.readString(p));
                JsonNode r = n == null ? null : n.get("report_text");
                if (r != null && r.isString() && !r.asString().isBlank()) {
                    JsonNode id = n.get("plan_id");
                    return r.asString() + "\n\n---\nplan: "
                            + (id != null && id.isString() ? id.asString() : p.getFileName()) + " · written "
                            + Instant.ofEpochMilli(mtime(p));
                }
            } catch (IOException | RuntimeException e) {
                // a plan being written or of another shape: try the next one
            }
        }
        return "No audit yet: Steward has not made a session audit for this Hermes home ("
                + ctx.paths().hermesHome() + "). Call the session_audit tool to make one; its report appears here.";
    }

    private static long mtime(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    static McpError notFound(String message) {
        return McpError.builder(-32002).message(message).build();
    }
}
