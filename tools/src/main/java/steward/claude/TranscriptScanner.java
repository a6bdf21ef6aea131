package steward.claude;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * The audit's view of a transcript without parsing every line: a file up to {@link #HEAD} + {@link #TAIL} bytes
 * is read whole; a larger one by its first {@link #HEAD} and last {@link #TAIL} bytes (identity, start,
 * continuation marker from the head; title entries, last activity and {@code continued-in} from the tail, as
 * Claude Code's own session list reads a head and a tail). A session's transcript with no title in the parts read
 * is read whole: a title could be anywhere, and "untitled" must be certain, since the rules delete untitled
 * sessions, and then by their exact number of turns. A titled session's turn count is only evidence (no rule
 * weighs it): it is estimated from the parts read and flagged as such.
 *
 * <p>Lines are classified by their top-level {@code "type"} found by a byte search (Claude Code writes compact
 * JSON with {@code type} before {@code message}); a line where that fails is parsed with Jackson. A line that
 * does not look like a JSON object is counted as malformed; deeper damage inside a well-delimited line is only
 * found by {@link TranscriptReader}. A line longer than {@link LongLine#MAX_LINE} is never held whole: it is read as its
 * {@link LongLine} copy, which keeps what the scan looks at (type, identity, times, flags, titles; long texts cut), so
 * its entry counts as what it is; one that is not JSON counts as malformed, as a short one does.
 */
public final class TranscriptScanner {
    private TranscriptScanner() {}

    public static final int HEAD = 4 * 1024;
    public static final int TAIL = 8 * 1024;
    /** How far into a line the top-level keys are looked for before the line is parsed in full. */
    static final int LOOK = 1024;

    /** Bytes read by scans, for benchmarks. */
    public static final AtomicLong BYTES_READ = new AtomicLong();

    private static final byte[] TYPE_KEY = bytes("\"type\":\"");
    private static final byte[] SIDECHAIN_KEY = bytes("\"isSidechain\":");
    private static final byte[] META_TRUE = bytes("\"isMeta\":true");
    private static final byte[] COMPACT_TRUE = bytes("\"isCompactSummary\":true");
    private static final byte[] CONT_CONTENT = bytes("\"content\":\"" + TranscriptReader.CONTINUATION_MARKER);
    private static final byte[] CONT_TEXT = bytes("\"text\":\"" + TranscriptReader.CONTINUATION_MARKER);
    private static final byte[] TIMESTAMP_KEY = bytes("\"timestamp\":\"");
    private static final Set<String> TOP_TYPES = Set.of(
            "user",
            "assistant",
            "system",
            "summary",
            "custom-title",
            "ai-title",
            "tag",
            "continued-in",
            "attachment",
            "progress",
            "file-history-snapshot",
            "file-history-delta",
            "queue-operation",
            "last-prompt",
            "agent-name",
            "agent-color",
            "agent-setting",
            "mode",
            "permission-mode",
            "pr-link",
            "relocated",
            "ended-by-model",
            "human");

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Scans a transcript. {@code main} true: a session's own transcript, whose {@code messages} are its turns outside
     * sidechains, exact when it has no title, and whose title must be certain. {@code main} false: a
     * subagent's transcript, whose {@code messages} are all its turns and which is never read whole for a count or a
     * title (a subagent has no title of its own).
     */
    public static TranscriptFacts scan(Path file, boolean main) throws IOException {
        Buffers buf = BUFFERS.get();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size <= HEAD + TAIL) return whole(ch, size, main, buf);
            Acc acc = new Acc();
            int h = read(ch, 0, buf.head);
            acc.region(buf.head.array(), h, 0, true, false);
            int t = read(ch, size - TAIL, buf.tail);
            acc.region(buf.tail.array(), t, size - TAIL, false, true);
            if (main && Titles.effective(acc.titles) == null) return whole(ch, size, true, buf);
            int seen = main ? acc.mainMessages : acc.mainMessages + acc.sideMessages;
            long covered = Math.max(1, acc.coveredBytes);
            int estimate =
                    (int) Math.min(Integer.MAX_VALUE, Math.max(seen + 1L, Math.round(seen * (double) size / covered)));
            return acc.facts(estimate, false);
        }
    }

    /** Per-thread read buffers: a scan allocates nothing per file but its results. */
    private static final class Buffers {
        final ByteBuffer head = ByteBuffer.allocate(HEAD);
        final ByteBuffer tail = ByteBuffer.allocate(TAIL);
        final ByteBuffer small = ByteBuffer.allocate(HEAD + TAIL);
        final ByteBuffer chunk = ByteBuffer.allocate(1 << 18);
        byte[] line = new byte[1 << 14];
    }

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    private static TranscriptFacts whole(FileChannel ch, long size, boolean main, Buffers buf) throws IOException {
        Acc acc = new Acc();
        if (size <= HEAD + TAIL) {
            buf.small.clear().limit((int) size);
            int n = read(ch, 0, buf.small);
            acc.region(buf.small.array(), n, 0, true, true);
            return acc.facts(acc.count(main), true);
        }
        // streamed in chunks, a line at a time (lines may be megabytes; one longer than LongLine.MAX_LINE is read as
        // its
        // bounded copy, whose type, identity, times and titles are the line's own)
        ByteBuffer chunk = buf.chunk;
        byte[] line = buf.line;
        int len = 0;
        LongLine big = null;
        long pos = 0, lineStart = 0;
        while (pos < size) {
            chunk.clear();
            int n = ch.read(chunk, pos);
            if (n <= 0) break;
            BYTES_READ.addAndGet(n);
            byte[] a = chunk.array();
            int start = 0;
            for (int i = newline(a, 0, n); i < n; i = newline(a, i + 1, n)) {
                if (big != null) {
                    big.feed(a, start, i - start);
                    byte[] r = big.result();
                    acc.line(r, 0, r.length, lineStart, true, true);
                    big = null;
                } else if (len == 0) {
                    acc.line(a, start, i, lineStart, true, true); // the whole line is in the chunk: no copy
                } else {
                    int k = i - start;
                    if (len + k > line.length)
                        line = buf.line = Arrays.copyOf(line, Math.max(line.length * 2, len + k));
                    System.arraycopy(a, start, line, len, k);
                    len += k;
                    acc.line(line, 0, len, lineStart, true, true);
                }
                lineStart = pos + i + 1;
                len = 0;
                start = i + 1;
            }
            int k = n - start;
            if (big == null && len + k > LongLine.MAX_LINE) {
                big = new LongLine();
                big.feed(line, 0, len);
                len = 0;
            }
            if (big != null) big.feed(a, start, k);
            else {
                if (len + k > line.length) line = buf.line = Arrays.copyOf(line, Math.max(line.length * 2, len + k));
                System.arraycopy(a, start, line, len, k);
                len += k;
            }
            pos += n;
        }
        if (big != null) {
            byte[] r = big.result();
            acc.line(r, 0, r.length, lineStart, false, true);
        } else if (len > 0) acc.line(line, 0, len, lineStart, false, true);
        if (buf.line.length > 1 << 20) buf.line = new byte[1 << 14]; // do not keep a giant line's buffer
        return acc.facts(acc.count(main), true);
    }

    /** Reads from {@code pos} into {@code b} (cleared; up to its limit); returns the bytes read. */
    private static int read(FileChannel ch, long pos, ByteBuffer b) throws IOException {
        if (b.position() != 0 || b.limit() == b.capacity()) b.clear();
        while (b.hasRemaining()) {
            int r = ch.read(b, pos + b.position());
            if (r < 0) break;
        }
        BYTES_READ.addAndGet(b.position());
        return b.position();
    }

    /** What the lines seen so far add up to. */
    static final class Acc {
        String sessionId, cwd, gitBranch, agentId, continuedIn;
        double firstEpoch = Double.NaN;
        String firstTs, lastTs;
        int mainMessages, sideMessages, malformed;
        boolean sawMessage, allSide = true, sawUser, continuation, openTail;
        long coveredBytes;
        int identityLines;
        final List<TitleEntry> titles = new ArrayList<>();

        /**
         * Lines of {@code b[0, n)}, which starts at file offset {@code offset}. {@code fromStart}: the region begins at
         * a line start; {@code toEof}: it ends at the end of the file. Partial lines at the edges are not counted.
         */
        void region(byte[] b, int n, long offset, boolean fromStart, boolean toEof) {
            int s = 0;
            if (!fromStart) s = newline(b, s, n) + 1;
            while (s < n) {
                int e = newline(b, s, n);
                if (e == n && !toEof) {
                    partial(b, s, n);
                    break;
                }
                line(b, s, e, offset + s, e < n, toEof && e == n);
                coveredBytes += e - s + 1;
                s = e + 1;
            }
        }

        /** A line cut by the head window: only identity fields are taken from it. */
        void partial(byte[] b, int s, int e) {
            int look = Math.min(e, s + LOOK);
            if (sessionId == null) sessionId = field(b, s, look, "sessionId");
            if (cwd == null) cwd = field(b, s, look, "cwd");
            if (firstTs == null && Double.isNaN(firstEpoch)) {
                String ts = field(b, s, e, "timestamp");
                if (ts != null) firstEpoch = TranscriptReader.epoch(ts);
            }
            if (!sawUser
                    && indexOf(b, s, look, TYPE_KEY) >= 0
                    && typeAt(b, s, look).equals("user")
                    && indexOf(b, s, look, META_TRUE) < 0
                    && !sidechain(b, s, look)) {
                sawUser = true;
                continuation = indexOf(b, s, e, COMPACT_TRUE) >= 0
                        || indexOf(b, s, e, CONT_CONTENT) >= 0
                        || indexOf(b, s, e, CONT_TEXT) >= 0;
            }
        }

        /** One line {@code b[s, e)} at file offset {@code at}; {@code last}: the file's last line (for a cut tail). */
        void line(byte[] b, int s, int e, long at, boolean terminated, boolean last) {
            while (s < e && TranscriptReader.isSpace(b[s])) s++;
            while (e > s && TranscriptReader.isSpace(b[e - 1])) e--;
            if (s == e) return;
            if (b[s] != '{' || b[e - 1] != '}') {
                malformed++;
                if (!terminated && last) openTail = true;
                return;
            }
            int look = Math.min(e, s + LOOK);
            String type = typeAt(b, s, look);
            // an assistant turn has its message (with "type":"message") before its own type, near the end of the line
            if (!TOP_TYPES.contains(type)) type = lastTypeAt(b, Math.max(s, e - LOOK), e);
            JsonNode parsed = null;
            if (!TOP_TYPES.contains(type)) {
                parsed = TranscriptReader.parseLine(b, s, e - s);
                if (parsed == null || !parsed.isObject()) {
                    malformed++;
                    if (!terminated && last) openTail = true;
                    return;
                }
                type = TranscriptReader.str(parsed, "type");
                if (type == null) type = parsed.has("summary") ? TitleEntry.SUMMARY : "";
            }
            switch (type) {
                case "user", "human", "assistant" -> message(b, s, e, look, type, parsed);
                case "system" -> stamp(b, s, e, parsed);
                case TitleEntry.CUSTOM, TitleEntry.AI, TitleEntry.SUMMARY, TitleEntry.TAG -> {
                    JsonNode n = parsed != null ? parsed : parse(b, s, e);
                    if (n == null) {
                        malformed++;
                        return;
                    }
                    String v = TranscriptReader.str(n, Titles.field(type));
                    if (v == null && TitleEntry.CUSTOM.equals(type)) v = TranscriptReader.str(n, "title");
                    titles.add(new TitleEntry(type, v == null ? "" : v, at));
                }
                case "continued-in" -> {
                    JsonNode n = parsed != null ? parsed : parse(b, s, e);
                    String v = n == null ? null : TranscriptReader.str(n, "continuedInSessionId");
                    if (v != null) continuedIn = v;
                }
                default -> {}
            }
        }

        private void message(byte[] b, int s, int e, int look, String type, JsonNode parsed) {
            boolean side = parsed != null ? parsed.path("isSidechain").asBoolean(false) : sidechain(b, s, look);
            sawMessage = true;
            if (side) sideMessages++;
            else {
                mainMessages++;
                allSide = false;
            }
            if (identityLines++ < 2 && (sessionId == null || cwd == null || gitBranch == null || agentId == null)) {
                if (parsed != null) {
                    if (sessionId == null) sessionId = TranscriptReader.str(parsed, "sessionId");
                    if (cwd == null) cwd = TranscriptReader.str(parsed, "cwd");
                    if (gitBranch == null) gitBranch = TranscriptReader.str(parsed, "gitBranch");
                    if (agentId == null) agentId = TranscriptReader.str(parsed, "agentId");
                } else {
                    if (sessionId == null) sessionId = field(b, s, look, "sessionId");
                    if (cwd == null) cwd = field(b, s, look, "cwd");
                    if (gitBranch == null) gitBranch = field(b, s, look, "gitBranch");
                    if (agentId == null) agentId = field(b, s, look, "agentId");
                }
            }
            if (!side && !sawUser && !type.equals("assistant")) {
                boolean meta =
                        parsed != null ? parsed.path("isMeta").asBoolean(false) : indexOf(b, s, look, META_TRUE) >= 0;
                if (!meta) {
                    sawUser = true;
                    if (parsed != null) {
                        List<ContentBlock> blocks = new ArrayList<>();
                        JsonNode msg = parsed.get("message");
                        TranscriptReader.blocks(msg != null && msg.isObject() ? msg.get("content") : msg, blocks);
                        String first = blocks.isEmpty() || blocks.get(0).text() == null
                                ? ""
                                : blocks.get(0).text();
                        continuation = parsed.path("isCompactSummary").asBoolean(false)
                                || first.startsWith(TranscriptReader.CONTINUATION_MARKER);
                    } else {
                        continuation = indexOf(b, s, e, COMPACT_TRUE) >= 0
                                || indexOf(b, s, e, CONT_CONTENT) >= 0
                                || indexOf(b, s, e, CONT_TEXT) >= 0;
                    }
                }
            }
            stamp(b, s, e, parsed);
        }

        private void stamp(byte[] b, int s, int e, JsonNode parsed) {
            String ts;
            if (parsed != null) ts = TranscriptReader.str(parsed, "timestamp");
            else {
                // Claude Code writes the timestamp near the end of a line: look there first
                int from = Math.max(s, e - 256);
                ts = field(b, from, e, "timestamp");
                if (ts == null && from > s) ts = field(b, s, e, "timestamp");
            }
            if (ts == null) return;
            // parsed once at the end: the first and the last time seen
            if (firstTs == null) firstTs = ts;
            lastTs = ts;
        }

        int count(boolean main) {
            return main ? mainMessages : mainMessages + sideMessages;
        }

        TranscriptFacts facts(int messages, boolean exact) {
            TitleEntry t = Titles.effective(titles);
            double first = firstTs != null ? TranscriptReader.epoch(firstTs) : Double.NaN;
            if (!Double.isNaN(firstEpoch) && (Double.isNaN(first) || firstEpoch < first)) first = firstEpoch;
            double lastEpoch = lastTs != null ? TranscriptReader.epoch(lastTs) : Double.NaN;
            return new TranscriptFacts(
                    sessionId,
                    cwd,
                    gitBranch,
                    agentId,
                    first,
                    lastEpoch,
                    t == null ? null : t.text(),
                    t == null ? null : t.kind(),
                    messages,
                    exact,
                    sideMessages,
                    sawMessage && allSide,
                    continuation,
                    continuedIn,
                    malformed,
                    openTail);
        }
    }

    private static JsonNode parse(byte[] b, int s, int e) {
        JsonNode n = TranscriptReader.parseLine(b, s, e - s);
        return n != null && n.isObject() ? n : null;
    }

    /** The value after the first {@code "type":"} in {@code b[s, e)}, or "" when there is none. */
    static String typeAt(byte[] b, int s, int e) {
        int k = indexOf(b, s, e, TYPE_KEY);
        if (k < 0) return "";
        int v = k + TYPE_KEY.length;
        int q = v;
        while (q < e && b[q] != '"' && b[q] != '\\' && q - v < 40) q++;
        if (q >= e || b[q] != '"') return "";
        return new String(b, v, q - v, StandardCharsets.US_ASCII);
    }

    /** The value after the last {@code "type":"} in {@code b[s, e)}, or "". */
    static String lastTypeAt(byte[] b, int s, int e) {
        int k = lastIndexOf(b, s, e, TYPE_KEY);
        return k < 0 ? "" : typeAt(b, k, e);
    }

    private static final Map<String, byte[]> KEYS = new ConcurrentHashMap<>();

    /** A string field's value by byte search ({@code "key":"value"}), decoded; null when absent or not a plain string. */
    static String field(byte[] b, int s, int e, String key) {
        byte[] k = KEYS.computeIfAbsent(key, x -> bytes("\"" + x + "\":\""));
        int i = indexOf(b, s, e, k);
        if (i < 0) return null;
        int v = i + k.length;
        int q = v;
        boolean escaped = false;
        while (q < e) {
            byte c = b[q];
            if (c == '\\') {
                escaped = true;
                q += 2;
                continue;
            }
            if (c == '"') break;
            q++;
        }
        if (q >= e) return null;
        if (!escaped) return new String(b, v, q - v, StandardCharsets.UTF_8);
        try {
            return Json.MAPPER.readTree(b, v - 1, q - v + 2).asString();
        } catch (RuntimeException ex) {
            return null;
        }
    }

    /**
     * Whether {@code b[s, e)} says {@code "isSidechain":true}: the first {@code "isSidechain":} key decides (Claude Code
     * writes it second, so this stops after a few dozen bytes where a search for the whole pair would run to the end).
     */
    static boolean sidechain(byte[] b, int s, int e) {
        int k = indexOf(b, s, e, SIDECHAIN_KEY);
        if (k < 0) return false;
        int v = k + SIDECHAIN_KEY.length;
        return v + 4 <= e && b[v] == 't' && b[v + 1] == 'r' && b[v + 2] == 'u' && b[v + 3] == 'e';
    }

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0a0a0a0a0a0a0a0aL, LOW = 0x0101010101010101L, HIGH = 0x8080808080808080L;

    /** The first {@code '\n'} in {@code b[s, n)}, or {@code n}: eight bytes per step (the scan's innermost loop). */
    static int newline(byte[] b, int s, int n) {
        while (s + 8 <= n) {
            long x = (long) LONG.get(b, s) ^ NEWLINES;
            long t = (x - LOW) & ~x & HIGH;
            if (t != 0) return s + firstFlagged(t);
            s += 8;
        }
        while (s < n && b[s] != '\n') s++;
        return s;
    }

    /**
     * The index (0–7) of the lowest byte whose high bit is set in {@code t} (not 0): {@code Long.numberOfTrailingZeros / 8}
     * by one multiplication, as the client compiler does not make that call an instruction.
     */
    private static int firstFlagged(long t) {
        return (int) ((((t & -t) >>> 7) * 0x0001020304050607L) >>> 56);
    }

    /** The last {@code needle} in {@code b[s, e)}, or -1 (searched from the end). */
    static int lastIndexOf(byte[] b, int s, int e, byte[] needle) {
        int n = needle.length;
        byte first = needle[0];
        outer:
        for (int i = e - n; i >= s; i--) {
            if (b[i] != first) continue;
            for (int j = 1; j < n; j++) if (b[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }

    /**
     * The first {@code needle} in {@code b[s, e)}, or -1. Eight positions per step: a word-wide test for where the
     * needle's first two bytes both occur, then a byte compare at each such place.
     */
    static int indexOf(byte[] b, int s, int e, byte[] needle) {
        int n = needle.length;
        int last = e - n;
        if (n < 2) {
            for (int i = s; i <= last; i++) if (b[i] == needle[0]) return i;
            return -1;
        }
        long p0 = LOW * (needle[0] & 0xff), p1 = LOW * (needle[1] & 0xff);
        int i = s;
        for (; i + 9 <= e && i <= last; i += 8) {
            long x = (long) LONG.get(b, i) ^ p0;
            long y = (long) LONG.get(b, i + 1) ^ p1;
            long t = (x - LOW) & ~x & (y - LOW) & ~y & HIGH;
            while (t != 0) {
                int k = i + firstFlagged(t);
                if (k > last) return -1;
                if (matches(b, k, needle)) return k;
                t &= t - 1;
            }
        }
        for (; i <= last; i++) if (b[i] == needle[0] && matches(b, i, needle)) return i;
        return -1;
    }

    private static boolean matches(byte[] b, int at, byte[] needle) {
        for (int j = 0; j < needle.length; j++) if (b[at + j] != needle[j]) return false;
        return true;
    }
}
