package steward.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.ClaudeTestHomes;

/** The fast scan agrees with the full reader wherever the rules depend on it. */
class TranscriptScannerTest {
    @TempDir
    Path tmp;

    @Test
    void agreesWithTheFullReaderOnEveryFixtureTranscript() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, true);
        int checked = 0;
        for (Path f : transcripts(home)) {
            agrees(f, home.relativize(f).toString(), true);
            checked++;
        }
        assertEquals(22, checked);
    }

    /**
     * Every fixture transcript damaged in the ways a real one can be (a last line cut while written, lines that are not
     * JSON, a line cut at its start, blank lines, a line of a foreign type, CRLF ends): the fast scan still says what the
     * full parse says.
     */
    @Test
    void agreesWithTheFullReaderOnDamagedCopiesOfEveryFixtureTranscript() throws Exception {
        Path home = ClaudeTestHomes.install(tmp, true);
        Path out = Files.createDirectories(tmp.resolve("damaged"));
        int checked = 0;
        for (Path f : transcripts(home)) {
            byte[] b = Files.readAllBytes(f);
            String name = f.getFileName().toString();
            int firstNl = indexOf(b, (byte) '\n', 0);
            int mid = firstNl < 0 ? -1 : indexOf(b, (byte) '\n', b.length / 2);
            java.util.Map<String, byte[]> variants = new java.util.LinkedHashMap<>();
            // the last line cut halfway (a writer in progress)
            int lastStart = lastLineStart(b);
            variants.put("cut-tail", java.util.Arrays.copyOf(b, lastStart + Math.max(1, (b.length - lastStart) / 2)));
            // garbage after the first line and in the middle, a blank line, a foreign entry type
            if (firstNl >= 0) {
                byte[] junk =
                        "not json at all\n{\"type\":\"user\",\"message\":{\"content\":\"tru\n\n{\"type\":\"x-future\",\"v\":1}\n"
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                byte[] v = insert(b, firstNl + 1, junk);
                if (mid >= 0) v = insert(v, mid + 1 + junk.length, junk);
                variants.put("junk", v);
                // the first line cut at its start (a copy that lost its head)
                variants.put("cut-head", java.util.Arrays.copyOfRange(b, Math.min(firstNl, 17), b.length));
            }
            // CRLF line ends
            variants.put(
                    "crlf",
                    new String(b, java.nio.charset.StandardCharsets.ISO_8859_1)
                            .replace("\n", "\r\n")
                            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            for (java.util.Map.Entry<String, byte[]> v : variants.entrySet()) {
                Path d = Files.createDirectories(out.resolve(v.getKey() + "-" + checked));
                Path copy = d.resolve(name);
                Files.write(copy, v.getValue());
                agrees(copy, home.relativize(f) + " (" + v.getKey() + ")", false);
            }
            checked++;
        }
        assertEquals(22, checked);
    }

    private static List<Path> transcripts(Path home) throws java.io.IOException {
        try (Stream<Path> s = Files.walk(home.resolve("projects"))) {
            return s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
    }

    /**
     * What the scan of {@code f} says agrees with the full parse of it; an estimated count within 10 % when
     * {@code estimate} (a damaged head or tail shifts an estimate, which no rule weighs).
     */
    private static void agrees(Path f, String where, boolean estimate) throws java.io.IOException {
        boolean main = !f.getFileName().toString().startsWith("agent-");
        Transcript t = TranscriptReader.read(f);
        TranscriptFacts x = TranscriptScanner.scan(f, main);
        assertEquals(t.title(), main ? x.title() : t.title(), where);
        assertEquals(t.titleKind(), main ? x.titleKind() : t.titleKind(), where);
        long expected = main ? t.messageCount() : t.messageCount() + t.sidechainCount();
        if (x.exact()) assertEquals(expected, x.messages(), where);
        else if (estimate)
            assertTrue(
                    Math.abs(x.messages() - expected) <= expected / 10 + 1,
                    where + ": estimate " + x.messages() + " vs " + expected);
        assertEquals(t.continuation(), x.continuation(), where);
        assertEquals(t.continuedIn(), x.continuedIn(), where);
        assertEquals(t.cwd() == null ? null : t.cwd(), main ? x.cwd() : t.cwd(), where);
        if (main) assertEquals(t.sessionId(), x.sessionId(), where);
        if (x.exact()) {
            assertEquals(t.malformed(), x.malformed(), where);
            assertEquals(t.truncatedTail(), x.openTail(), where);
            assertEquals(t.sidechainCount(), main ? x.sidechainMessages() : t.sidechainCount(), where);
            assertEquals(t.sidechainCount() > 0 && t.messageCount() == 0, x.allSidechain(), where + ": all sidechain");
        }
        if (!Double.isNaN(t.lastEpoch())) assertEquals(t.lastEpoch(), x.lastEpoch(), 1e-3, where);
        if (!Double.isNaN(t.firstEpoch())) assertEquals(t.firstEpoch(), x.firstEpoch(), 1e-3, where + ": first");
    }

    private static int indexOf(byte[] b, byte c, int from) {
        for (int i = from; i < b.length; i++) if (b[i] == c) return i;
        return -1;
    }

    private static int lastLineStart(byte[] b) {
        int e = b.length;
        while (e > 0 && b[e - 1] == '\n') e--;
        for (int i = e - 1; i >= 0; i--) if (b[i] == '\n') return i + 1;
        return 0;
    }

    private static byte[] insert(byte[] b, int at, byte[] what) {
        byte[] out = new byte[b.length + what.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(what, 0, out, at, what.length);
        System.arraycopy(b, at, out, at + what.length, b.length - at);
        return out;
    }

    @Test
    void aLargeTitledTranscriptIsReadByItsHeadAndTailOnly() throws Exception {
        Path big = ClaudeTestHomes.install(tmp, true)
                .resolve(ClaudeTestHomes.manifest()
                        .get("generated")
                        .get(0)
                        .get("path")
                        .asString());
        assertTrue(Files.size(big) >= 10L * 1024 * 1024);
        long before = TranscriptScanner.BYTES_READ.get();
        TranscriptFacts x = TranscriptScanner.scan(big, true);
        long read = TranscriptScanner.BYTES_READ.get() - before;
        assertEquals("Log analysis marathon", x.title());
        assertFalse(x.exact(), "the count of a large file is an estimate");
        assertTrue(read <= TranscriptScanner.HEAD + TranscriptScanner.TAIL, "read " + read + " bytes");
        assertTrue(x.messages() > 1000, "estimate " + x.messages());
    }

    @Test
    void aLargeFileWithoutATitleInItsTailIsReadWholeSoUntitledIsCertain() throws Exception {
        Path f = tmp.resolve("s.jsonl");
        StringBuilder sb = new StringBuilder();
        sb.append(
                "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"start\"},\"timestamp\":\"2026-08-01T00:00:00Z\"}\n");
        String pad = "x".repeat(2000);
        for (int i = 0; i < 40; i++) {
            sb.append("{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"")
                    .append(pad)
                    .append("\"}}\n");
            if (i == 10) sb.append("{\"type\":\"custom-title\",\"customTitle\":\"Hidden in the middle\"}\n");
        }
        Files.writeString(f, sb.toString());
        long before = TranscriptScanner.BYTES_READ.get();
        TranscriptFacts x = TranscriptScanner.scan(f, true);
        assertEquals("Hidden in the middle", x.title());
        assertTrue(x.exact());
        assertEquals(41, x.messages());
        assertTrue(TranscriptScanner.BYTES_READ.get() - before >= Files.size(f));
    }

    @Test
    void anUntitledSessionIsCountedExactlyATitledOneEstimated() throws Exception {
        Path f = tmp.resolve("few.jsonl");
        String pad = "y".repeat(20_000);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 6; i++)
            sb.append("{\"type\":\"user\",\"message\":{\"content\":\"")
                    .append(pad)
                    .append("\"}}\n");
        Files.writeString(f, sb.toString());
        TranscriptFacts x = TranscriptScanner.scan(f, true);
        assertTrue(x.exact(), "untitled: rule B weighs the count, so it is exact");
        assertEquals(6, x.messages());
        Files.writeString(f, sb + "{\"type\":\"ai-title\",\"aiTitle\":\"Big pastes\"}\n");
        TranscriptFacts titled = TranscriptScanner.scan(f, true);
        assertEquals("Big pastes", titled.title());
        assertFalse(titled.exact());
        assertTrue(titled.messages() >= 1);
    }

    @Test
    void aTitleLineWithBytesThatAreNotUtf8IsReadAsClaudeCodeReadsIt() throws Exception {
        // Node decodes such bytes as U+FFFD and shows the title; the session must not look untitled (rule B deletes
        // those)
        Path f = tmp.resolve("renamed.jsonl");
        byte[] title = "{\"type\":\"custom-title\",\"customTitle\":\"caf\u00e9 plans\",\"sessionId\":\"s\"}\n"
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        byte[] turn = ("{\"parentUuid\":null,\"isSidechain\":false,\"type\":\"user\",\"message\":{\"role\":\"user\","
                        + "\"content\":\"hello\"},\"uuid\":\"u1\",\"timestamp\":\"2026-08-01T00:00:00Z\",\"sessionId\":\"s\"}\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] all = new byte[turn.length + title.length];
        System.arraycopy(turn, 0, all, 0, turn.length);
        System.arraycopy(title, 0, all, turn.length, title.length);
        Files.write(f, all);
        TranscriptFacts x = TranscriptScanner.scan(f, true);
        assertEquals("caf\uFFFD plans", x.title());
        assertEquals(0, x.malformed());
        agrees(f, "renamed", false);
    }

    @Test
    void prettyPrintedOrReorderedLinesFallBackToTheParser() throws Exception {
        Path f = tmp.resolve("odd.jsonl");
        Files.writeString(
                f,
                "{\"message\": {\"content\": [{\"type\": \"text\", \"text\": \"hi\"}]}, \"type\": \"assistant\", \"isSidechain\": true}\n"
                        + "{ \"type\" : \"user\", \"message\": {\"content\": \"yo\"}, \"timestamp\": \"2026-08-01T00:00:00Z\" }\n");
        TranscriptFacts x = TranscriptScanner.scan(f, true);
        assertEquals(1, x.messages());
        assertEquals(1, x.sidechainMessages());
        assertEquals(0, x.malformed());
    }

    /** One line of a Claude Code transcript written by Python's json.dumps (spaced: the byte search misses its keys). */
    static String spaced(String type, String uuid, String ts, String text) {
        return "{\"parentUuid\": null, \"isSidechain\": false, \"cwd\": \"/home/u/big\", \"sessionId\": \"s1\", \"type\": \""
                + type + "\", \"message\": {\"role\": \"" + type + "\", \"content\": [{\"type\": \"text\", \"text\": \""
                + text + "\"}]}, \"uuid\": \"" + uuid + "\", \"timestamp\": \"" + ts + "\"}\n";
    }

    static final String HUGE = "x".repeat(LongLine.MAX_LINE + (1 << 20));

    /**
     * A line longer than {@link LongLine#MAX_LINE} (a tool output of megabytes: Claude Code writes lines of 12.8 M
     * characters) is read as its bounded copy: it counts as the turn it is, and the lines after it are read, a title
     * there included (past the tail window, so only a whole read finds it).
     */
    @Test
    void aLineLongerThanTheBoundCountsAsWhatItIsAndTheLinesAfterItAreRead() throws Exception {
        Path f = tmp.resolve("long-line.jsonl");
        StringBuilder sb = new StringBuilder();
        sb.append(spaced("user", "u1", "2026-08-01T10:00:00.000Z", "start"));
        sb.append(spaced("assistant", "a1", "2026-08-01T10:00:05.000Z", "Output: " + HUGE));
        sb.append("{\"type\": \"custom-title\", \"customTitle\": \"After the long line\", \"sessionId\": \"s1\"}\n");
        for (int i = 0; i < 20; i++) sb.append(spaced("user", "p" + i, "2026-08-01T11:00:00.000Z", "y".repeat(1000)));
        Files.writeString(f, sb.toString());
        long before = TranscriptScanner.BYTES_READ.get();
        TranscriptFacts x = TranscriptScanner.scan(f, true);
        assertTrue(TranscriptScanner.BYTES_READ.get() - before >= Files.size(f), "read whole");
        assertEquals("After the long line", x.title());
        assertTrue(x.exact());
        assertEquals(22, x.messages());
        assertEquals(0, x.malformed());
        assertEquals("s1", x.sessionId());
        assertEquals("/home/u/big", x.cwd());
        assertEquals(TranscriptReader.epoch("2026-08-01T10:00:00.000Z"), x.firstEpoch(), 1e-3);
        assertEquals(TranscriptReader.epoch("2026-08-01T11:00:00.000Z"), x.lastEpoch(), 1e-3);
        agrees(f, "long line", false);

        // untitled: the count is exact, the long turn included
        Files.writeString(f, sb.toString().replace("custom-title", "x-other"));
        TranscriptFacts u = TranscriptScanner.scan(f, true);
        assertEquals(null, u.title());
        assertTrue(u.exact());
        assertEquals(22, u.messages());
        agrees(f, "long line, untitled", false);
    }

    /**
     * A title entry longer than the bound still titles its session: its copy keeps the title's start, marked as cut, so
     * even a title that opens with more blanks than the copy keeps is not taken for none (untitled sessions are deleted).
     */
    @Test
    void aTitleLongerThanTheBoundStillTitlesTheSession() throws Exception {
        Path f = tmp.resolve("long-title.jsonl");
        StringBuilder sb = new StringBuilder();
        sb.append(spaced("user", "u1", "2026-08-01T10:00:00.000Z", "start"));
        sb.append("{\"type\":\"custom-title\",\"customTitle\":\"Long name " + HUGE + "\",\"sessionId\":\"s1\"}\n");
        for (int i = 0; i < 20; i++) sb.append(spaced("user", "p" + i, "2026-08-01T11:00:00.000Z", "y".repeat(1000)));
        Files.writeString(f, sb.toString());
        TranscriptFacts x = TranscriptScanner.scan(f, true);
        assertEquals(LongLine.STRING_CAP + 1, x.title().length(), "the copy's title, cut");
        assertEquals("Long name " + "x".repeat(LongLine.STRING_CAP - "Long name ".length()) + "…", x.title());
        assertEquals(21, x.messages());

        Files.writeString(f, sb.toString().replace("Long name x", " ".repeat(LongLine.STRING_CAP) + "Long name x"));
        TranscriptFacts blank = TranscriptScanner.scan(f, true);
        assertEquals(" ".repeat(LongLine.STRING_CAP) + "…", blank.title());
        assertEquals(TitleEntry.CUSTOM, blank.titleKind());
    }

    /** A long line that is not JSON (cut: the last line of a transcript being written) is malformed, as a short one is. */
    @Test
    void aLongLineThatIsNotJsonIsMalformed() throws Exception {
        Path f = tmp.resolve("long-cut.jsonl");
        String all = spaced("user", "u1", "2026-08-01T10:00:00.000Z", "start")
                + spaced("assistant", "a1", "2026-08-01T10:00:05.000Z", HUGE);
        Files.writeString(f, all.substring(0, all.length() - 40));
        TranscriptFacts x = TranscriptScanner.scan(f, true);
        assertEquals(1, x.messages());
        assertEquals(1, x.malformed());
        assertTrue(x.openTail());
        agrees(f, "long line cut", false);
    }
}
