package steward.claude;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * A bounded copy of a transcript line too long to hold whole (Claude Code writes tool outputs of many megabytes on one
 * line): fed the line's bytes in pieces, it keeps the line's JSON structure and values, each string cut to its first
 * {@link #STRING_CAP} bytes (between characters) followed by {@code …}, and whitespace outside strings left out. Past
 * {@link #OUT_CAP} bytes of copy, further array elements and nested members are left out and only the top-level keys in
 * {@link #KEEP} (the ones the readers use) are still copied, so the copy stays under about
 * {@code OUT_CAP + 30 × STRING_CAP} bytes whatever the line's length. An entry's type, identity, times, flags and
 * titles are thus the line's own (a cut title still ends in {@code …}, so it is never blank), and a long text keeps its
 * beginning. A line that is not one JSON value (cut, damaged, nested deeper than {@link #MAX_DEPTH}) yields
 * {@link #UNREADABLE}, which no reader takes for JSON: a malformed line, as a short one would be.
 */
public final class LongLine {
    /** Lines up to this many bytes are read whole; longer ones through a {@code LongLine}. */
    public static final int MAX_LINE = 2 << 20;
    /** Bytes of a string's JSON text kept. */
    public static final int STRING_CAP = 64 << 10;
    /** Copy size after which only the top-level keys in {@link #KEEP} are copied. */
    static final int OUT_CAP = 1 << 20;

    static final int MAX_DEPTH = 500;
    private static final int MAX_LITERAL = 64;
    private static final int MAX_KEY = 256;
    /** What an unreadable long line becomes: not JSON. */
    public static final byte[] UNREADABLE = {'#'};

    private static final byte[] ELLIPSIS = "…".getBytes(StandardCharsets.UTF_8);

    /** The top-level keys still copied past {@link #OUT_CAP}: the ones the transcript readers look at. */
    static final Set<String> KEEP = Set.of(
            "type",
            "uuid",
            "parentUuid",
            "sessionId",
            "cwd",
            "gitBranch",
            "version",
            "timestamp",
            "isSidechain",
            "isMeta",
            "isCompactSummary",
            "agentId",
            "userType",
            "message",
            "content",
            "customTitle",
            "aiTitle",
            "summary",
            "tag",
            "title",
            "continuedInSessionId",
            "leafUuid",
            "requestId",
            "subtype",
            "costUSD",
            "level");

    // phases of the innermost container (or of the root, at depth 0)
    private static final byte KEY_OR_END = 0,
            KEY = 1,
            COLON = 2,
            VALUE = 3,
            VALUE_OR_END = 4,
            COMMA_OR_END = 5,
            DONE = 6;

    private byte[] out = new byte[1 << 16];
    private int len;
    private long fed;
    private boolean bad;

    private int depth; // 0: the root; 1: inside the root container
    private final boolean[] object = new boolean[MAX_DEPTH + 1];
    private final boolean[] any = new boolean[MAX_DEPTH + 1];
    private final byte[] phase = new byte[MAX_DEPTH + 1];

    private int skipAt = -1; // depth of the container whose current member or element is left out; -1: copying

    // inside a string
    private boolean inString, stringIsKey, stringCopied, cut;
    private int stringBytes, esc; // esc: 0 none; 1 after '\'; 2-5 hex digits of a \\u escape still to come
    private int highSurrogateAt = -1; // where a \\uD800-\\uDBFF escape was copied, while it is the last thing copied
    private int hexValue;
    private int escStart;
    private final byte[] key = new byte[MAX_KEY];
    private int keyLen;
    private boolean keyLong;
    private final Set<String> keptLate = new HashSet<>();

    // inside a literal (number, true, false, null)
    private final byte[] literal = new byte[MAX_LITERAL];
    private int literalLen = -1;

    public LongLine() {
        phase[0] = VALUE;
    }

    /** One line of a JSONL stream, from {@link #lines}. */
    public interface Sink {
        /**
         * The line in {@code b[off, off + len)}: as read, or its bounded copy when it is longer than {@link #MAX_LINE}
         * bytes; {@code length}: its length in the stream (without the newline); {@code terminated}: a newline follows it.
         * Returns whether to go on.
         */
        boolean line(byte[] b, int off, int len, long length, boolean terminated);
    }

    /**
     * The lines of {@code in} in order, each held whole up to {@link #MAX_LINE} bytes and as a {@code LongLine} copy
     * beyond: memory stays bounded whatever the lines' length. The last line is passed even when unterminated.
     */
    public static void lines(InputStream in, Sink sink) throws IOException {
        byte[] buf = new byte[1 << 16];
        byte[] line = new byte[1 << 12];
        int len = 0;
        LongLine big = null;
        int n;
        while ((n = in.read(buf)) > 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (buf[i] != '\n') continue;
                boolean go;
                if (big != null) {
                    big.feed(buf, start, i - start);
                    byte[] r = big.result();
                    go = sink.line(r, 0, r.length, big.length(), true);
                    big = null;
                } else {
                    line = append(line, len, buf, start, i - start);
                    len += i - start;
                    go = sink.line(line, 0, len, len, true);
                }
                if (!go) return;
                len = 0;
                start = i + 1;
            }
            int k = n - start;
            if (big == null && len + k > MAX_LINE) {
                big = new LongLine();
                big.feed(line, 0, len);
                len = 0;
                line = new byte[1 << 12];
            }
            if (big != null) big.feed(buf, start, k);
            else {
                line = append(line, len, buf, start, k);
                len += k;
            }
        }
        if (big != null) {
            byte[] r = big.result();
            sink.line(r, 0, r.length, big.length(), false);
        } else if (len > 0) sink.line(line, 0, len, len, false);
    }

    private static byte[] append(byte[] line, int len, byte[] src, int off, int n) {
        if (n == 0) return line;
        if (len + n > line.length) line = Arrays.copyOf(line, Math.max(line.length * 2, len + n));
        System.arraycopy(src, off, line, len, n);
        return line;
    }

    /** Bytes fed so far: the line's length in the file. */
    public long length() {
        return fed;
    }

    public void feed(byte[] b, int off, int n) {
        fed += n;
        for (int i = off, end = off + n; i < end && !bad; i++) step(b[i]);
    }

    /** The bounded copy: JSON when the line was one JSON value, else {@link #UNREADABLE}. */
    public byte[] result() {
        if (literalLen >= 0) endLiteral();
        if (bad || inString || depth != 0 || phase[0] != DONE) return UNREADABLE;
        return Arrays.copyOf(out, len);
    }

    private void step(byte c) {
        if (inString) {
            string(c);
            return;
        }
        if (literalLen >= 0) {
            if (!delimiter(c)) {
                if (literalLen == MAX_LITERAL) bad = true;
                else literal[literalLen++] = c;
                return;
            }
            endLiteral();
            if (bad) return;
        }
        switch (c) {
            case ' ', '\t', '\r', '\n' -> {}
            case '{', '[' -> {
                if (!valueStart()) return;
                if (depth == MAX_DEPTH) {
                    bad = true;
                    return;
                }
                if (copying()) put(c);
                depth++;
                object[depth] = c == '{';
                any[depth] = false;
                phase[depth] = c == '{' ? KEY_OR_END : VALUE_OR_END;
            }
            case '}', ']' -> {
                boolean obj = c == '}';
                byte p = phase[depth];
                if (depth == 0
                        || object[depth] != obj
                        || !(p == COMMA_OR_END || p == (obj ? KEY_OR_END : VALUE_OR_END))) {
                    bad = true;
                    return;
                }
                if (copying()) put(c);
                depth--;
                valueEnd();
            }
            case ',' -> {
                if (depth == 0 || phase[depth] != COMMA_OR_END) {
                    bad = true;
                    return;
                }
                phase[depth] = object[depth] ? KEY : VALUE;
            }
            case ':' -> {
                if (depth == 0 || phase[depth] != COLON) {
                    bad = true;
                    return;
                }
                phase[depth] = VALUE;
            }
            case '"' -> {
                byte p = phase[depth];
                boolean isKey = depth > 0 && object[depth] && (p == KEY_OR_END || p == KEY);
                if (isKey) {
                    memberStart();
                } else if (!valueStart()) return;
                inString = true;
                stringIsKey = isKey;
                stringBytes = 0;
                esc = 0;
                cut = false;
                highSurrogateAt = -1;
                keyLen = 0;
                keyLong = false;
                // a top-level key is held until it is known whether its member is copied
                stringCopied = copying() && !(isKey && depth == 1);
                if (stringCopied) put((byte) '"');
            }
            default -> {
                if (!valueStart()) return;
                literalLen = 0;
                literal[literalLen++] = c;
            }
        }
    }

    private static boolean delimiter(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == '}' || c == ']' || c == ':';
    }

    private boolean copying() {
        return skipAt < 0;
    }

    /** A key begins a member of the object at {@code depth}: past the cap, a nested member is left out. */
    private void memberStart() {
        if (!copying()) return;
        if (depth >= 2 && len > OUT_CAP) {
            skipAt = depth;
            return;
        }
        if (depth >= 2) comma();
    }

    /** A value begins: checks the phase; in an array, decides whether the element is copied. */
    private boolean valueStart() {
        byte p = phase[depth];
        if (!(p == VALUE || p == VALUE_OR_END)) {
            bad = true;
            return false;
        }
        if (depth > 0 && !object[depth] && copying()) {
            if (len > OUT_CAP) skipAt = depth;
            else comma();
        }
        return true;
    }

    private void comma() {
        if (any[depth]) put((byte) ',');
        any[depth] = true;
    }

    /** A value ended at {@code depth}. */
    private void valueEnd() {
        if (skipAt == depth) skipAt = -1;
        phase[depth] = depth == 0 ? DONE : COMMA_OR_END;
    }

    private void endLiteral() {
        if (copying()) {
            ensure(literalLen);
            System.arraycopy(literal, 0, out, len, literalLen);
            len += literalLen;
        }
        literalLen = -1;
        valueEnd();
    }

    private void string(byte c) {
        if (esc == 1) {
            esc = c == 'u' ? 5 : 0;
            hexValue = 0;
            copyStringByte(c);
            return;
        }
        if (esc > 1) {
            int h = Character.digit(c, 16);
            if (h < 0) {
                bad = true;
                return;
            }
            hexValue = hexValue * 16 + h;
            esc--;
            copyStringByte(c);
            if (esc == 1) { // the fourth digit
                esc = 0;
                if (!cut) highSurrogateAt = hexValue >= 0xD800 && hexValue <= 0xDBFF && stringCopied ? escStart : -1;
            }
            return;
        }
        if (c == '"') {
            inString = false;
            if (stringIsKey) keyEnd();
            else {
                if (stringCopied) closeString();
                valueEnd();
            }
            return;
        }
        if ((c & 0xff) < 0x20) {
            bad = true; // a raw control character: not JSON
            return;
        }
        if (!cut && stringBytes >= STRING_CAP && (c & 0xC0) != 0x80) cut = true; // at a character's start
        if (c == '\\') {
            esc = 1;
            escStart = len;
        }
        if (!cut) highSurrogateAt = -1;
        copyStringByte(c);
    }

    private void copyStringByte(byte c) {
        if (cut) return;
        stringBytes++;
        if (stringIsKey && depth == 1) {
            if (keyLen < MAX_KEY) key[keyLen++] = c;
            else keyLong = true;
        }
        if (stringCopied) put(c);
    }

    private void closeString() {
        if (cut) {
            // a lone high surrogate at the cut would make the text unencodable: leave it out
            if (highSurrogateAt >= 0) len = highSurrogateAt;
            ensure(ELLIPSIS.length);
            System.arraycopy(ELLIPSIS, 0, out, len, ELLIPSIS.length);
            len += ELLIPSIS.length;
        }
        put((byte) '"');
    }

    /** A key ended: a top-level member is copied unless past the cap its key is not one the readers use. */
    private void keyEnd() {
        phase[depth] = COLON;
        if (stringCopied) {
            closeString();
            put((byte) ':');
            return;
        }
        if (!copying() || depth != 1) return;
        String k = keyLong || cut ? null : new String(key, 0, keyLen, StandardCharsets.UTF_8);
        boolean keep = k != null && (len <= OUT_CAP || (KEEP.contains(k) && keptLate.add(k)));
        if (!keep) {
            skipAt = depth;
            return;
        }
        comma();
        ensure(keyLen + 3);
        out[len++] = '"';
        System.arraycopy(key, 0, out, len, keyLen);
        len += keyLen;
        out[len++] = '"';
        out[len++] = ':';
    }

    private void put(byte c) {
        ensure(1);
        out[len++] = c;
    }

    private void ensure(int n) {
        if (len + n > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, len + n));
    }
}
