package steward.sessions.inspect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import steward.StewardError;
import steward.claude.ClaudeHome;
import steward.claude.LongLine;
import steward.claude.TitleEntry;
import steward.claude.Titles;
import steward.claude.TranscriptReader;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * {@link SessionSource} over a Claude Code home's JSONL transcripts (read-only). A session is
 * {@code projects/<project>/<uuid>.jsonl}; its subagents are {@code <uuid>/subagents/**}{@code /agent-*.jsonl} (id
 * {@code <uuid>/agent-<id>}), the older layout's project-level {@code agent-<id>.jsonl} files whose events name the session
 * (the same id; asked for as {@code agent-<id>}, such a file is still its session's subagent) and runs of sidechain events
 * in the session's own file (id {@code <uuid>/sidechain-<n>}).
 * Assistant {@code tool_use} blocks are tool calls; a user event's {@code tool_result} blocks are tool output (role
 * {@code tool}, failed when {@code is_error}); tokens are {@code message.usage} summed once per API message id, cost
 * only from a recorded {@code costUSD}. A session that opens with the compaction summary is a continuation of the
 * session whose {@code continued-in} names it; events before a {@code compact_boundary} are compacted. Lines that are
 * not JSON objects are skipped and counted; a transcript reached through a link out of the home is refused.
 */
public final class ClaudeSessionSource implements SessionSource {
    static final int MAX_SUBAGENT_DEPTH = 4;
    /** A project-level agent file names its session in its first events: this many lines are looked at. */
    static final int FLAT_HEAD_LINES = 5;

    private final Path home;
    private final Path realHome;
    private final double now;
    private final double idleSeconds;
    private final Map<String, Parsed> cache = new HashMap<>();

    private ClaudeSessionSource(Path home, Path realHome, double now, double idleSeconds) {
        this.home = home;
        this.realHome = realHome;
        this.now = now;
        this.idleSeconds = idleSeconds;
    }

    /** {@code now} (epoch seconds) and {@code idleSeconds} decide whether a session is still active. */
    public static ClaudeSessionSource open(Path claudeHome, double now, double idleSeconds) {
        if (claudeHome == null || !Files.isDirectory(claudeHome))
            throw new StewardError("session_inspect", "no Claude Code home at " + claudeHome);
        try {
            return new ClaudeSessionSource(claudeHome, claudeHome.toRealPath(), now, idleSeconds);
        } catch (IOException e) {
            throw new StewardError(
                    "session_inspect", "cannot read the Claude Code home " + claudeHome + ": " + e.getMessage());
        }
    }

    @Override
    public String store() {
        return "claude_code";
    }

    /** One transcript read whole, with the session model built from it. */
    private record Parsed(
            SessionInfo info,
            Path file,
            List<MessageEvent> messages,
            List<List<MessageEvent>> sidechains,
            Usage usage,
            int malformed,
            String continuedIn,
            boolean continuation) {}

    @Override
    public Optional<SessionInfo> session(String id) {
        Parsed p = parsed(id);
        return p == null ? Optional.empty() : Optional.of(p.info());
    }

    @Override
    public List<SessionInfo> children(String id) {
        Parsed p = parsed(id);
        if (p == null || id.contains("/")) return List.of();
        List<SessionInfo> out = new ArrayList<>();
        for (int i = 0; i < p.sidechains().size(); i++) {
            Parsed s = parsed(id + "/sidechain-" + (i + 1));
            if (s != null) out.add(s.info());
        }
        Path dir = p.file().resolveSibling(id).resolve("subagents");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> walk = Files.walk(dir, MAX_SUBAGENT_DEPTH)) {
                for (Path f : walk.filter(f -> f.getFileName().toString().matches("agent-[A-Za-z0-9._-]+\\.jsonl"))
                        .sorted()
                        .toList()) {
                    String n = f.getFileName().toString();
                    Parsed s = parsed(id + "/" + n.substring(0, n.length() - ".jsonl".length()));
                    if (s != null) out.add(s.info());
                }
            } catch (IOException e) {
                // an unreadable subagents directory: no subagents from it
            }
        }
        for (Path f :
                flatAgents(p.file().getParent())) { // the older layout: project-level agent files naming this session
            if (!id.equals(flatParent(f))) continue;
            String n = f.getFileName().toString();
            Parsed s = parsed(id + "/" + n.substring(0, n.length() - ".jsonl".length()));
            if (s != null) out.add(s.info());
        }
        if (p.continuedIn() != null) {
            Parsed c = parsed(p.continuedIn());
            if (c != null) out.add(c.info());
        }
        out.sort(Comparator.comparing((SessionInfo s) -> s.startedAt() == null ? Double.MAX_VALUE : s.startedAt()));
        return out;
    }

    @Override
    public void messages(String id, Consumer<MessageEvent> sink) {
        Parsed p = parsed(id);
        if (p != null) p.messages().forEach(sink);
    }

    @Override
    public Usage usage(String id) {
        Parsed p = parsed(id);
        return p == null ? null : p.usage();
    }

    @Override
    public Integer malformedLines(String id) {
        Parsed p = parsed(id);
        return p == null ? null : p.malformed();
    }

    @Override
    public void close() {
        cache.clear();
    }

    // ---- locating and reading

    private Parsed parsed(String id) {
        if (id == null || !id.matches("[A-Za-z0-9._-]+(/(agent|sidechain)-[A-Za-z0-9._-]+)?") || id.startsWith("."))
            return null;
        if (cache.containsKey(id)) return cache.get(id);
        Parsed p = load(id);
        cache.put(id, p);
        return p;
    }

    private Parsed load(String id) {
        int slash = id.indexOf('/');
        if (slash < 0) {
            Path f = mainFile(id);
            if (f == null) return null;
            if (!id.startsWith("agent-")) return read(f, id, false, null);
            // a project-level agent file is a subagent of the session its events name, never a session of its own
            String parent = flatParent(f);
            if (parent != null && !parent.equals(id) && parsed(parent) != null && !parent.contains("/")) {
                Parsed p = parsed(parent + "/" + id);
                if (p != null) return p;
            }
            return read(f, parent == null ? id : parent + "/" + id, true, parent);
        }
        String parent = id.substring(0, slash), sub = id.substring(slash + 1);
        Parsed main = parsed(parent);
        if (main == null) return null;
        if (sub.startsWith("sidechain-")) {
            int n;
            try {
                n = Integer.parseInt(sub.substring("sidechain-".length()));
            } catch (NumberFormatException e) {
                return null;
            }
            if (n < 1 || n > main.sidechains().size()) return null;
            List<MessageEvent> ms = main.sidechains().get(n - 1);
            double first = Double.NaN, last = Double.NaN;
            for (MessageEvent m : ms) {
                if (Double.isNaN(m.timestamp())) continue;
                if (Double.isNaN(first) || m.timestamp() < first) first = m.timestamp();
                if (Double.isNaN(last) || m.timestamp() > last) last = m.timestamp();
            }
            SessionInfo mi = main.info();
            SessionInfo info = new SessionInfo(
                    id,
                    null,
                    "subagent",
                    nan(first),
                    nan(last),
                    null,
                    parent,
                    SessionInfo.Relation.delegated,
                    mi.cwd(),
                    mi.gitBranch(),
                    null,
                    null,
                    ms.size(),
                    false);
            return new Parsed(info, main.file(), ms, List.of(), null, 0, null, false);
        }
        String name = sub + ".jsonl";
        Path flat = main.file().resolveSibling(name);
        Path dir = main.file().resolveSibling(parent).resolve("subagents");
        if (!Files.isDirectory(dir)) {
            return Files.isRegularFile(flat) && parent.equals(flatParent(flat)) ? read(flat, id, true, parent) : null;
        }
        try (Stream<Path> walk = Files.walk(dir, MAX_SUBAGENT_DEPTH)) {
            Path f = walk.filter(x -> x.getFileName().toString().equals(name))
                    .findFirst()
                    .orElse(null);
            if (f == null && Files.isRegularFile(flat) && parent.equals(flatParent(flat))) f = flat;
            return f == null ? null : read(f, id, true, parent);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code projects/<project>/<id>.jsonl}, or null; a transcript that leads out of the home is refused. */
    private Path mainFile(String id) {
        Path projects = home.resolve("projects");
        if (!Files.isDirectory(projects)) return null;
        try (Stream<Path> dirs = Files.list(projects)) {
            for (Path d : dirs.filter(Files::isDirectory).sorted().toList()) {
                Path f = d.resolve(id + ".jsonl");
                if (Files.isRegularFile(f)) return f;
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** The older layout's project-level {@code agent-<id>.jsonl} files of a project directory (links out of the home left out). */
    private List<Path> flatAgents(Path projectDir) {
        try (Stream<Path> files = Files.list(projectDir)) {
            return files.filter(f -> f.getFileName().toString().matches("agent-[A-Za-z0-9._-]+\\.jsonl")
                            && Files.isRegularFile(f)
                            && ClaudeHome.inside(f, realHome))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The session a project-level agent file belongs to: the {@code sessionId} of its first events, or null. */
    private static String flatParent(Path f) {
        String[] found = {null};
        int[] seen = {0};
        try (InputStream in = Files.newInputStream(f)) {
            LongLine.lines(in, (b, off, len, length, terminated) -> {
                String v = str(json(text(b, off, len)), "sessionId");
                if (v != null && v.matches("[A-Za-z0-9._-]+") && !v.startsWith(".")) found[0] = v;
                return found[0] == null && ++seen[0] < FLAT_HEAD_LINES;
            });
        } catch (IOException e) {
            return null;
        }
        return found[0];
    }

    private void refuseEscape(Path f, String id) {
        if (!ClaudeHome.inside(f, realHome)) {
            throw new StewardError(
                    "session_inspect", id + ": refused: its transcript " + f + " leads out of the Claude Code home");
        }
    }

    /** Reads one transcript; {@code subagent}: a subagent's own file (its sidechain events are its messages). */
    private Parsed read(Path file, String id, boolean subagent, String parentId) {
        refuseEscape(file, id);
        Reader r = new Reader(!subagent);
        try (InputStream in = Files.newInputStream(file)) {
            // a line longer than LongLine.MAX_LINE comes as its bounded copy: its texts are cut
            LongLine.lines(in, (b, off, len, length, terminated) -> {
                r.line(text(b, off, len));
                return true;
            });
        } catch (IOException e) {
            throw new StewardError("session_inspect", id + ": cannot read " + file + ": " + e.getMessage());
        }
        List<MessageEvent> ms = r.messages;
        if (r.boundary > 0) { // before the last compaction boundary: summarised away, still stored
            List<MessageEvent> out = new ArrayList<>(ms.size());
            for (int i = 0; i < ms.size(); i++) {
                MessageEvent m = ms.get(i);
                out.add(
                        i >= r.boundary
                                ? m
                                : new MessageEvent(
                                        m.id(),
                                        m.role(),
                                        m.timestamp(),
                                        m.text(),
                                        m.toolCalls(),
                                        m.toolCallId(),
                                        m.toolName(),
                                        m.tokenCount(),
                                        MessageEvent.State.compacted,
                                        m.effect()));
            }
            ms = out;
        }
        double first = Double.NaN, last = Double.NaN;
        for (MessageEvent m : ms) {
            if (Double.isNaN(m.timestamp())) continue;
            if (Double.isNaN(first) || m.timestamp() < first) first = m.timestamp();
            if (Double.isNaN(last) || m.timestamp() > last) last = m.timestamp();
        }
        double mtime;
        try {
            mtime = Files.getLastModifiedTime(file).toMillis() / 1000.0;
        } catch (IOException e) {
            mtime = Double.NaN;
        }
        boolean active = !Double.isNaN(mtime) && now - mtime < idleSeconds;
        String parent = parentId;
        SessionInfo.Relation rel = subagent ? SessionInfo.Relation.delegated : SessionInfo.Relation.none;
        if (!subagent && r.continuation) {
            parent = continuedFrom(file, id);
            if (parent != null) rel = SessionInfo.Relation.continued;
        }
        TitleEntry t = Titles.effective(r.titles);
        SessionInfo info = new SessionInfo(
                id,
                subagent || t == null || t.text().isBlank() ? null : t.text(),
                subagent ? "subagent" : "claude",
                nan(first),
                active ? null : nan(last),
                r.continuedIn != null ? "compression" : null,
                parent,
                rel,
                r.cwd,
                r.gitBranch,
                null,
                r.model,
                r.stored,
                false);
        return new Parsed(
                info,
                file,
                List.copyOf(ms),
                List.copyOf(r.sidechains),
                r.usage(),
                r.malformed,
                r.continuedIn,
                r.continuation);
    }

    /** The session of the same project whose {@code continued-in} entry names {@code id}, or null. */
    private String continuedFrom(Path file, String id) {
        try (Stream<Path> files = Files.list(file.getParent())) {
            for (Path f : files.filter(x -> x.getFileName().toString().endsWith(".jsonl") && !x.equals(file))
                    .sorted()
                    .toList()) {
                if (!ClaudeHome.inside(f, realHome)) continue;
                boolean[] names = {false};
                try (InputStream in = Files.newInputStream(f)) {
                    LongLine.lines(in, (b, off, len, length, terminated) -> {
                        String line = text(b, off, len);
                        if (!line.contains("continued-in") || !line.contains(id)) return true;
                        JsonNode n = json(line);
                        names[0] = n != null
                                && "continued-in".equals(n.path("type").asString(null))
                                && id.equals(n.path("continuedInSessionId").asString(null));
                        return !names[0];
                    });
                }
                if (names[0]) {
                    String n2 = f.getFileName().toString();
                    return n2.substring(0, n2.length() - ".jsonl".length());
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** A line's text (bytes that are not UTF-8 read as U+FFFD, as a reader of the file would). */
    private static String text(byte[] b, int off, int len) {
        return new String(b, off, len, StandardCharsets.UTF_8);
    }

    private static Double nan(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private static JsonNode json(String line) {
        try {
            return Json.MAPPER.readTree(line);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String str(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v != null && v.isString() ? v.asString() : null;
    }

    /** Line-by-line state of one transcript. */
    private static final class Reader {
        final boolean splitSidechains;
        final List<MessageEvent> messages = new ArrayList<>();
        final List<List<MessageEvent>> sidechains = new ArrayList<>();
        final List<TitleEntry> titles = new ArrayList<>();
        final Set<String> usageSeen = new LinkedHashSet<>();
        int lineNo, malformed, stored, boundary;
        boolean sawUser, continuation, inSidechain, anyUsage, anyCost;
        long in, out, cacheRead, cacheWrite, apiCalls;
        double cost;
        String cwd, gitBranch, model, continuedIn;

        Reader(boolean splitSidechains) {
            this.splitSidechains = splitSidechains;
        }

        void line(String line) {
            lineNo++;
            if (line.isBlank()) return;
            JsonNode n = json(line);
            if (n == null || !n.isObject()) {
                malformed++;
                return;
            }
            String type = str(n, "type");
            if (type == null) {
                if (str(n, "summary") != null)
                    titles.add(new TitleEntry(TitleEntry.SUMMARY, str(n, "summary"), lineNo));
                return;
            }
            switch (type) {
                case "user", "human", "assistant", "system" -> event(n, "human".equals(type) ? "user" : type);
                case TitleEntry.CUSTOM, TitleEntry.AI, TitleEntry.SUMMARY, TitleEntry.TAG -> {
                    String v = str(n, Titles.field(type));
                    if (v == null && TitleEntry.CUSTOM.equals(type)) v = str(n, "title");
                    titles.add(new TitleEntry(type, v == null ? "" : v, lineNo));
                }
                case "continued-in" -> {
                    String v = str(n, "continuedInSessionId");
                    if (v != null) continuedIn = v;
                }
                default -> {}
            }
        }

        void event(JsonNode n, String type) {
            boolean side = splitSidechains && n.path("isSidechain").asBoolean(false);
            List<MessageEvent> target;
            if (side) {
                if (!inSidechain
                        || n.get("parentUuid") == null
                        || n.get("parentUuid").isNull()) sidechains.add(new ArrayList<>());
                inSidechain = true;
                target = sidechains.get(sidechains.size() - 1);
            } else {
                inSidechain = false;
                target = messages;
                if (cwd == null) cwd = str(n, "cwd");
                String br = str(n, "gitBranch");
                if (gitBranch == null && br != null && !br.isEmpty()) gitBranch = br;
            }
            String id = str(n, "uuid") != null ? str(n, "uuid") : "L" + lineNo;
            double at = TranscriptReader.epoch(str(n, "timestamp"));
            JsonNode msg = n.get("message");
            JsonNode content = msg != null && msg.isObject() ? msg.get("content") : msg;
            if (content == null && "system".equals(type)) content = n.get("content");
            if (!side && ("user".equals(type) || "assistant".equals(type))) stored++;
            switch (type) {
                case "user" -> user(n, id, at, content, target, side);
                case "assistant" -> assistant(n, msg, id, at, content, target, side);
                default -> {
                    if (!side && "compact_boundary".equals(str(n, "subtype"))) boundary = messages.size();
                    target.add(
                            new MessageEvent(id, "system", at, text(content), List.of(), null, null, null, null, null));
                }
            }
        }

        void user(JsonNode n, String id, double at, JsonNode content, List<MessageEvent> target, boolean side) {
            StringBuilder text = new StringBuilder();
            boolean own = content != null && content.isString();
            if (own) text.append(content.asString());
            int k = 0;
            if (content != null && content.isArray()) {
                for (JsonNode b : content) {
                    String bt = b.isObject() ? str(b, "type") : null;
                    if ("tool_result".equals(bt)) {
                        boolean err = b.path("is_error").asBoolean(false);
                        target.add(new MessageEvent(
                                id + "#" + k++,
                                "tool",
                                at,
                                text(b.get("content")),
                                List.of(),
                                str(b, "tool_use_id"),
                                null,
                                null,
                                null,
                                err ? "error" : null));
                    } else {
                        own = true;
                        if (b.isString()) append(text, b.asString());
                        else if ("text".equals(bt)) append(text, str(b, "text"));
                    }
                }
            }
            if (!own) return; // tool output only
            boolean meta = n.path("isMeta").asBoolean(false);
            String t = text.toString();
            if (!side && !meta && !sawUser) {
                sawUser = true;
                continuation = n.path("isCompactSummary").asBoolean(false)
                        || t.startsWith(TranscriptReader.CONTINUATION_MARKER);
            }
            target.add(new MessageEvent(id, meta ? "meta" : "user", at, t, List.of(), null, null, null, null, null));
        }

        void assistant(
                JsonNode n,
                JsonNode msg,
                String id,
                double at,
                JsonNode content,
                List<MessageEvent> target,
                boolean side) {
            StringBuilder text = new StringBuilder();
            List<MessageEvent.ToolCall> calls = new ArrayList<>();
            if (content != null && content.isString()) text.append(content.asString());
            if (content != null && content.isArray()) {
                for (JsonNode b : content) {
                    String bt = b.isObject() ? str(b, "type") : null;
                    if ("text".equals(bt)) append(text, str(b, "text"));
                    else if ("tool_use".equals(bt) || "server_tool_use".equals(bt)) {
                        String name = str(b, "name");
                        calls.add(new MessageEvent.ToolCall(
                                str(b, "id"), name == null ? "unknown" : name, ToolResults.arguments(b.get("input"))));
                    }
                }
            }
            target.add(new MessageEvent(id, "assistant", at, text.toString(), calls, null, null, null, null, null));
            if (side || msg == null || !msg.isObject()) return;
            if (str(msg, "model") != null && !str(msg, "model").startsWith("<")) model = str(msg, "model");
            JsonNode cu = n.get("costUSD");
            if (cu != null && cu.isNumber()) {
                cost += cu.asDouble();
                anyCost = true;
            }
            JsonNode u = msg.get("usage");
            if (u == null || !u.isObject()) return;
            // Claude Code writes one event per content block of an API message, each with the message's usage: count it
            // once
            String key =
                    str(msg, "id") != null ? str(msg, "id") : str(n, "requestId") != null ? str(n, "requestId") : id;
            if (!usageSeen.add(key)) return;
            anyUsage = true;
            apiCalls++;
            in += u.path("input_tokens").asLong(0);
            out += u.path("output_tokens").asLong(0);
            cacheRead += u.path("cache_read_input_tokens").asLong(0);
            cacheWrite += u.path("cache_creation_input_tokens").asLong(0);
        }

        Usage usage() {
            if (!anyUsage && !anyCost) return null;
            return new Usage(
                    anyUsage ? in : null,
                    anyUsage ? out : null,
                    anyUsage ? cacheRead : null,
                    anyUsage ? cacheWrite : null,
                    null,
                    anyUsage ? apiCalls : null,
                    anyCost ? cost : null,
                    null,
                    null,
                    List.of());
        }

        private static void append(StringBuilder sb, String s) {
            if (s == null || s.isEmpty()) return;
            if (sb.length() > 0) sb.append("\n\n");
            sb.append(s);
        }

        private static String text(JsonNode c) {
            if (c == null || c.isNull()) return "";
            if (c.isString()) return c.asString();
            StringBuilder sb = new StringBuilder();
            if (c.isArray())
                for (JsonNode b : c) {
                    if (b.isString()) append(sb, b.asString());
                    else if (b.isObject() && str(b, "text") != null) append(sb, str(b, "text"));
                }
            return sb.toString();
        }
    }
}
