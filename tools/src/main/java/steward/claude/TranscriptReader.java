package steward.claude;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * Reads a Claude Code transcript ({@code .jsonl}, one JSON object per line) permissively: a line that is not a
 * JSON object is skipped and counted, never fatal; entries of types other than user, assistant, system and the
 * title entries are skipped and counted; content may be a string or blocks; events of older versions' sidechains
 * stay in the stream, flagged. Memory use is one line at a time when events go to a consumer, and bounded whatever a
 * line's length: a line longer than {@link LongLine#MAX_LINE} is read as its {@link LongLine} copy (each text cut to
 * its first {@link LongLine#STRING_CAP} bytes).
 */
public final class TranscriptReader {
    private TranscriptReader() {}

    /** The first words of the user turn that opens a session continued after compaction. */
    public static final String CONTINUATION_MARKER = "This session is being continued from a previous conversation";

    /** Reads the whole transcript, events included. */
    public static Transcript read(Path file) throws IOException {
        List<TranscriptEvent> events = new ArrayList<>();
        Transcript t = read(file, events::add);
        return new Transcript(
                t.file(),
                t.sessionId(),
                t.cwd(),
                t.gitBranch(),
                t.version(),
                List.copyOf(events),
                t.titles(),
                t.continuedIn(),
                t.continuation(),
                t.lines(),
                t.malformed(),
                t.truncatedTail(),
                t.otherEntries());
    }

    /** Streams the events to {@code sink} in file order; the returned transcript has no events, everything else. */
    public static Transcript read(Path file, Consumer<TranscriptEvent> sink) throws IOException {
        State st = new State(file);
        try (InputStream in = Files.newInputStream(file)) {
            return scan(in, st, sink, true);
        }
    }

    /**
     * What {@link #readFrom} read: the part's facts (line numbers counted from the offset, no events) and the byte offset
     * just after its last complete line, where the next read of an appended file starts.
     */
    public record Tail(Transcript transcript, long end) {}

    /**
     * Streams the events of the complete lines from byte {@code offset} on (the start of a line); an unterminated last
     * line is left for the next read (a writer in progress), not counted.
     */
    public static Tail readFrom(Path file, long offset, Consumer<TranscriptEvent> sink) throws IOException {
        State st = new State(file);
        try (FileChannel ch = FileChannel.open(file)) {
            ch.position(offset);
            InputStream in = Channels.newInputStream(ch);
            Transcript t = scan(in, st, sink, false);
            return new Tail(t, offset + st.consumed);
        }
    }

    private static Transcript scan(InputStream in, State st, Consumer<TranscriptEvent> sink, boolean tail)
            throws IOException {
        // a line longer than LongLine.MAX_LINE comes as its bounded copy: long texts keep their beginning
        LongLine.lines(in, (b, off, len, length, terminated) -> {
            if (!terminated && !tail) return false; // being written: left for the next read
            st.line(b, off, off + len, terminated, sink);
            if (terminated) st.consumed += length + 1;
            return true;
        });
        return st.result();
    }

    private static final class State {
        final Path file;
        int lines, malformed, other;
        long consumed;
        boolean truncatedTail, continuation, sawUser;
        String sessionId, cwd, gitBranch, version, continuedIn;
        final List<TitleEntry> titles = new ArrayList<>();

        State(Path file) {
            this.file = file;
        }

        void line(byte[] b, int s, int e, boolean terminated, Consumer<TranscriptEvent> sink) {
            lines++;
            while (s < e && isSpace(b[s])) s++;
            while (e > s && isSpace(b[e - 1])) e--;
            if (s == e) return; // blank line: nothing to count
            JsonNode n = parseLine(b, s, e - s);
            if (n == null || !n.isObject()) {
                malformed++;
                if (!terminated) truncatedTail = true;
                return;
            }
            String type = str(n, "type");
            if (type == null) {
                // very old files: a summary line without a type
                if (n.has("summary") && n.get("summary").isString()) type = TitleEntry.SUMMARY;
                else {
                    other++;
                    return;
                }
            }
            switch (type) {
                case "user", "human", "assistant", "system" -> event(n, "human".equals(type) ? "user" : type, sink);
                case TitleEntry.CUSTOM, TitleEntry.AI, TitleEntry.SUMMARY, TitleEntry.TAG -> {
                    String v = str(n, Titles.field(type));
                    if (v == null && TitleEntry.CUSTOM.equals(type)) v = str(n, "title");
                    titles.add(new TitleEntry(type, v == null ? "" : v, lines));
                }
                case "continued-in" -> {
                    String v = str(n, "continuedInSessionId");
                    if (v != null) continuedIn = v;
                }
                default -> other++;
            }
        }

        void event(JsonNode n, String type, Consumer<TranscriptEvent> sink) {
            String sid = str(n, "sessionId");
            String c = str(n, "cwd");
            String br = str(n, "gitBranch");
            String ver = str(n, "version");
            boolean side = n.path("isSidechain").asBoolean(false);
            if (!side) {
                if (sessionId == null) sessionId = sid;
                if (cwd == null) cwd = c;
                if (gitBranch == null && br != null && !br.isEmpty()) gitBranch = br;
                if (ver != null) version = ver;
            }
            JsonNode msg = n.get("message");
            String role = msg != null && msg.isObject() ? str(msg, "role") : null;
            if (role == null) role = type;
            List<ContentBlock> blocks = new ArrayList<>();
            JsonNode content = msg != null && msg.isObject() ? msg.get("content") : msg;
            if (content == null && "system".equals(type)) content = n.get("content");
            blocks(content, blocks);
            String ts = str(n, "timestamp");
            boolean compact = n.path("isCompactSummary").asBoolean(false);
            TranscriptEvent ev = new TranscriptEvent(
                    lines,
                    type,
                    str(n, "uuid"),
                    str(n, "parentUuid"),
                    sid,
                    ts,
                    epoch(ts),
                    c,
                    br,
                    ver,
                    side,
                    str(n, "agentId"),
                    role,
                    List.copyOf(blocks),
                    compact,
                    n.path("isMeta").asBoolean(false));
            if ("user".equals(type) && !side && !ev.meta() && !sawUser) {
                sawUser = true;
                continuation = compact || ev.text().startsWith(CONTINUATION_MARKER);
            }
            sink.accept(ev);
        }

        Transcript result() {
            return new Transcript(
                    file,
                    sessionId,
                    cwd,
                    gitBranch,
                    version,
                    List.of(),
                    List.copyOf(titles),
                    continuedIn,
                    continuation,
                    lines,
                    malformed,
                    truncatedTail,
                    other);
        }
    }

    /**
     * One line parsed as Claude Code (Node) reads it: bytes that are not UTF-8 become U+FFFD instead of failing the line;
     * null when it is not JSON.
     */
    static JsonNode parseLine(byte[] b, int s, int len) {
        try {
            return Json.MAPPER.readTree(b, s, len);
        } catch (RuntimeException e) {
            try {
                return Json.MAPPER.readTree(new String(b, s, len, StandardCharsets.UTF_8));
            } catch (RuntimeException e2) {
                return null;
            }
        }
    }

    static void blocks(JsonNode content, List<ContentBlock> out) {
        if (content == null || content.isNull()) return;
        if (content.isString()) {
            out.add(new ContentBlock(ContentBlock.Kind.TEXT, content.asString()));
            return;
        }
        if (!content.isArray()) return;
        for (JsonNode b : content) {
            if (b.isString()) {
                out.add(new ContentBlock(ContentBlock.Kind.TEXT, b.asString()));
                continue;
            }
            if (!b.isObject()) continue;
            String t = str(b, "type");
            if (t == null) t = "";
            switch (t) {
                case "text" -> out.add(new ContentBlock(ContentBlock.Kind.TEXT, str(b, "text")));
                case "thinking", "redacted_thinking" ->
                    out.add(new ContentBlock(ContentBlock.Kind.THINKING, str(b, "thinking")));
                case "tool_use", "server_tool_use" ->
                    out.add(new ContentBlock(ContentBlock.Kind.TOOL_USE, str(b, "name")));
                case "tool_result", "web_search_tool_result" ->
                    out.add(new ContentBlock(ContentBlock.Kind.TOOL_RESULT, toolText(b.get("content"))));
                case "image", "document" -> out.add(new ContentBlock(ContentBlock.Kind.IMAGE, null));
                default -> out.add(new ContentBlock(ContentBlock.Kind.OTHER, null));
            }
        }
    }

    private static String toolText(JsonNode c) {
        if (c == null || c.isNull()) return null;
        if (c.isString()) return c.asString();
        List<ContentBlock> inner = new ArrayList<>();
        blocks(c, inner);
        StringBuilder sb = new StringBuilder();
        for (ContentBlock b : inner)
            if (b.text() != null) sb.append(sb.length() > 0 ? "\n" : "").append(b.text());
        return sb.toString();
    }

    static String str(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isString() ? v.asString() : null;
    }

    static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    /** Epoch seconds of an ISO-8601 time, NaN when absent or unreadable. */
    public static double epoch(String ts) {
        if (ts == null || ts.isEmpty()) return Double.NaN;
        double fast = fastEpoch(ts);
        if (!Double.isNaN(fast)) return fast;
        try {
            Instant i = Instant.parse(ts);
            return i.getEpochSecond() + i.getNano() / 1e9;
        } catch (DateTimeParseException e) {
            try {
                Instant i = OffsetDateTime.parse(ts).toInstant();
                return i.getEpochSecond() + i.getNano() / 1e9;
            } catch (DateTimeParseException e2) {
                return Double.NaN;
            }
        }
    }

    /**
     * {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z} (what Claude Code writes) without java.time's parser, with the same result
     * as {@link Instant#parse}; NaN for anything else (leap seconds, offsets, other years), which then takes the
     * general path.
     */
    static double fastEpoch(String ts) {
        int n = ts.length();
        if (n < 20 || n > 30 || ts.charAt(n - 1) != 'Z') return Double.NaN;
        if (ts.charAt(4) != '-'
                || ts.charAt(7) != '-'
                || ts.charAt(10) != 'T'
                || ts.charAt(13) != ':'
                || ts.charAt(16) != ':') return Double.NaN;
        int y = digits(ts, 0, 4), mo = digits(ts, 5, 7), d = digits(ts, 8, 10);
        int h = digits(ts, 11, 13), mi = digits(ts, 14, 16), s = digits(ts, 17, 19);
        if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59)
            return Double.NaN;
        int nano = 0;
        if (n > 20) {
            if (ts.charAt(19) != '.' || n == 21) return Double.NaN;
            int f = digits(ts, 20, n - 1);
            if (f < 0) return Double.NaN;
            nano = f;
            for (int k = n - 1 - 20; k < 9; k++) nano *= 10;
        } else if (ts.charAt(19) != 'Z') return Double.NaN;
        if (d > java.time.YearMonth.of(y, mo).lengthOfMonth()) return Double.NaN;
        long sec = java.time.LocalDate.of(y, mo, d).toEpochDay() * 86400L + h * 3600L + mi * 60L + s;
        return sec + nano / 1e9;
    }

    private static int digits(String s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') return -1;
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
