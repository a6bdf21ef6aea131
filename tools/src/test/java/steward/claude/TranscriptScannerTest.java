package steward.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
        try (Stream<Path> s = Files.walk(home.resolve("projects"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                boolean main = !f.getFileName().toString().startsWith("agent-");
                Transcript t = TranscriptReader.read(f);
                TranscriptFacts x = TranscriptScanner.scan(f, main);
                String where = home.relativize(f).toString();
                assertEquals(t.title(), main ? x.title() : t.title(), where);
                assertEquals(t.titleKind(), main ? x.titleKind() : t.titleKind(), where);
                long expected = main ? t.messageCount() : t.messageCount() + t.sidechainCount();
                if (x.exact()) assertEquals(expected, x.messages(), where);
                else
                    assertTrue(
                            Math.abs(x.messages() - expected) <= expected / 10 + 1,
                            where + ": estimate " + x.messages() + " vs " + expected);
                assertEquals(t.continuation(), x.continuation(), where);
                assertEquals(t.continuedIn(), x.continuedIn(), where);
                assertEquals(t.cwd() == null ? null : t.cwd(), main ? x.cwd() : t.cwd(), where);
                if (x.exact()) {
                    assertEquals(t.malformed(), x.malformed(), where);
                    assertEquals(t.truncatedTail(), x.openTail(), where);
                    assertEquals(t.sidechainCount(), main ? x.sidechainMessages() : t.sidechainCount(), where);
                }
                if (!Double.isNaN(t.lastEpoch())) assertEquals(t.lastEpoch(), x.lastEpoch(), 1e-3, where);
                checked++;
            }
        }
        assertEquals(22, checked);
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
}
