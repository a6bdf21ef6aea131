package steward.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptReaderTest {
    @TempDir
    Path tmp;

    Path file(String text) throws Exception {
        Path f = tmp.resolve("t.jsonl");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void readsStringAndBlockContentAndKeepsTextApartFromThinkingAndTools() throws Exception {
        Transcript t = TranscriptReader.read(file("""
                {"parentUuid":null,"isSidechain":false,"cwd":"/home/u/p","sessionId":"s1","version":"2.1.3","gitBranch":"main","type":"user","message":{"role":"user","content":"Hello there"},"uuid":"u1","timestamp":"2026-08-01T10:00:00.000Z"}
                {"parentUuid":"u1","isSidechain":false,"sessionId":"s1","message":{"id":"m","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"secret plan"},{"type":"text","text":"Hi!"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},"type":"assistant","uuid":"a1","timestamp":"2026-08-01T10:00:05.000Z"}
                {"parentUuid":"a1","isSidechain":false,"sessionId":"s1","type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"file.txt"}]},"uuid":"u2","timestamp":"2026-08-01T10:00:06.000Z"}
                {"type":"file-history-snapshot","messageId":"u1","snapshot":{}}
                """));
        assertEquals(3, t.events().size());
        assertEquals("Hello there", t.events().get(0).text());
        assertEquals("Hi!", t.events().get(1).text(), "thinking and tool calls are not text");
        assertTrue(t.events().get(2).toolResultOnly());
        assertEquals("", t.events().get(2).text());
        assertEquals(1, t.otherEntries());
        assertEquals(0, t.malformed());
        assertEquals("s1", t.sessionId());
        assertEquals("/home/u/p", t.cwd());
        assertEquals("main", t.gitBranch());
        assertEquals(3, t.messageCount());
        assertEquals(1785578400.0, t.firstEpoch(), 1e-6);
        assertNull(t.title());
    }

    @Test
    void theUsersRenameWinsOverGeneratedTitlesAndTheLatestOfAKindWins() throws Exception {
        Transcript t = TranscriptReader.read(file("""
                {"type":"summary","summary":"Old summary","leafUuid":"x"}
                {"type":"custom-title","customTitle":"First","sessionId":"s"}
                {"type":"ai-title","aiTitle":"Generated later","sessionId":"s"}
                {"type":"custom-title","customTitle":"Second","sessionId":"s"}
                {"type":"tag","tag":"work","sessionId":"s"}
                """));
        assertEquals("Second", t.title());
        assertEquals(TitleEntry.CUSTOM, t.titleKind());
        assertEquals("work", t.tag());
        Transcript cleared = TranscriptReader.read(file("""
                {"type":"custom-title","customTitle":"Named","sessionId":"s"}
                {"type":"ai-title","aiTitle":"Generated","sessionId":"s"}
                {"type":"custom-title","customTitle":"","sessionId":"s"}
                """));
        assertEquals("Generated", cleared.title(), "an empty rename clears the user's title");
        Transcript summaryOnly =
                TranscriptReader.read(file("{\"summary\":\"Untyped old summary\",\"leafUuid\":\"x\"}\n"));
        assertEquals("Untyped old summary", summaryOnly.title());
    }

    @Test
    void malformedAndTruncatedLinesAreSkippedAndCountedNeverFatal() throws Exception {
        Transcript t = TranscriptReader.read(file("""
                {"type":"user","message":{"role":"user","content":"one"},"uuid":"u1","timestamp":"2026-08-01T10:00:00Z"}
                not json
                [1,2,3]
                {"type":"user","message":{"role":"user","content":"two"},"uuid":"u2","timestamp":"bad time"}

                {"type":"assistant","message":{"role":"assistant","content":"thr""" + "ee\"}"));
        assertEquals(2, t.events().size());
        assertEquals(3, t.malformed(), "not json, an array, the cut last line");
        assertTrue(t.truncatedTail());
        assertTrue(Double.isNaN(t.events().get(1).epoch()), "an unreadable time is NaN, not an error");
        Transcript clean = TranscriptReader.read(file("{\"type\":\"user\",\"message\":{\"content\":\"x\"}}"));
        assertFalse(clean.truncatedTail(), "a last line without newline that parses is an event");
        assertEquals(1, clean.events().size());
    }

    @Test
    void sidechainsAreFlaggedAndContinuationsRecognised() throws Exception {
        Transcript t = TranscriptReader.read(file("""
                {"type":"user","isSidechain":false,"isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context."},"uuid":"u1"}
                {"type":"user","isSidechain":true,"agentId":"ab12","message":{"role":"user","content":"subagent prompt"},"uuid":"s1"}
                {"type":"assistant","isSidechain":true,"message":{"role":"assistant","content":[{"type":"text","text":"sub answer"}]},"uuid":"s2"}
                {"type":"continued-in","continuedInSessionId":"next-session"}
                """));
        assertTrue(t.continuation());
        assertEquals(1, t.messageCount());
        assertEquals(2, t.sidechainCount());
        assertEquals("ab12", t.events().get(1).agentId());
        assertEquals("next-session", t.continuedIn());
        Transcript normal = TranscriptReader.read(file("""
                {"type":"user","isMeta":true,"message":{"role":"user","content":"<command-name>/clear</command-name>"}}
                {"type":"user","message":{"role":"user","content":"Why does 'This session is being continued from a previous conversation' show up?"}}
                """));
        assertFalse(normal.continuation(), "the marker must open the first real user turn");
    }

    @Test
    void streamingGivesTheSameEventsWithoutHoldingThem() throws Exception {
        Path f = file(
                "{\"type\":\"user\",\"message\":{\"content\":\"a\"}}\n{\"type\":\"assistant\",\"message\":{\"content\":\"b\"}}\n");
        List<String> seen = new ArrayList<>();
        Transcript t = TranscriptReader.read(f, e -> seen.add(e.text()));
        assertEquals(List.of("a", "b"), seen);
        assertTrue(t.events().isEmpty());
        assertEquals(2, t.lines());
    }

    /**
     * A line longer than {@link LongLine#MAX_LINE} is read as its bounded copy: its event is the turn it is, its text the
     * start of the long text (recall indexes that much), and the lines after it are read; the offset where the next
     * read starts is the file's end all the same.
     */
    @Test
    void aLineLongerThanTheBoundGivesItsEventWithTheStartOfItsText() throws Exception {
        String huge = "Output: " + "x".repeat(LongLine.MAX_LINE + (1 << 20));
        String text =
                "{\"type\":\"user\",\"sessionId\":\"s1\",\"message\":{\"role\":\"user\",\"content\":\"start\"},\"uuid\":\"u1\",\"timestamp\":\"2026-08-01T10:00:00.000Z\"}\n"
                        + "{\"parentUuid\": \"u1\", \"isSidechain\": false, \"sessionId\": \"s1\", \"type\": \"assistant\", \"message\": {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \""
                        + huge + "\"}]}, \"uuid\": \"a1\", \"timestamp\": \"2026-08-01T10:00:05.000Z\"}\n"
                        + "{\"type\":\"ai-title\",\"aiTitle\":\"After it\",\"sessionId\":\"s1\"}\n"
                        + "{\"type\":\"user\",\"sessionId\":\"s1\",\"message\":{\"role\":\"user\",\"content\":\"thanks\"},\"uuid\":\"u2\",\"timestamp\":\"2026-08-01T10:01:00.000Z\"}\n";
        Path f = file(text);
        List<TranscriptEvent> events = new ArrayList<>();
        TranscriptReader.Tail tail = TranscriptReader.readFrom(f, 0, events::add);
        assertEquals(Files.size(f), tail.end());
        assertEquals(
                List.of("u1", "a1", "u2"),
                events.stream().map(TranscriptEvent::uuid).toList());
        TranscriptEvent big = events.get(1);
        assertEquals("assistant", big.type());
        assertEquals("2026-08-01T10:00:05.000Z", big.timestamp());
        assertEquals(LongLine.STRING_CAP + 1, big.text().length(), "the copy's text, cut");
        assertEquals(huge.substring(0, LongLine.STRING_CAP) + "…", big.text());
        assertEquals("After it", tail.transcript().title());
        assertEquals(0, tail.transcript().malformed());
        assertEquals(4, tail.transcript().lines());
    }
}
