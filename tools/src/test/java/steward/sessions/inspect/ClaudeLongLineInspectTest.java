package steward.sessions.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.claude.LongLine;
import steward.claude.TranscriptReader;
import steward.sessions.store.ClaudeSessions;

/**
 * session_inspect on a transcript with a line longer than {@link LongLine#MAX_LINE} (a tool output of megabytes): the
 * line is read as its bounded copy, so the session's timeline, counts and links are right and the long text shows its
 * start; the search for the session a continuation came from reads such a line the same way.
 */
class ClaudeLongLineInspectTest {
    static final String A = "0a2b4c6d-0000-4000-8000-00000000000a";
    static final String B = "0a2b4c6d-0000-4000-8000-00000000000b";

    @TempDir
    Path tmp;

    static String event(String sid, String type, String uuid, String ts, String text) {
        return "{\"parentUuid\": null, \"isSidechain\": false, \"cwd\": \"/home/u/big\", \"sessionId\": \"" + sid
                + "\", \"type\": \"" + type + "\", \"message\": {\"role\": \"" + type
                + "\", \"content\": [{\"type\": \"text\", \"text\": \"" + text + "\"}]}, \"uuid\": \"" + uuid
                + "\", \"timestamp\": \"" + ts + "\"}\n";
    }

    @Test
    void aLongLineShowsTheStartOfItsTextAndTheRestOfTheSessionIsRead() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("claude/projects/-home-u-big"));
        String huge = "Output: " + "x".repeat(LongLine.MAX_LINE + (1 << 20));
        Files.writeString(
                project.resolve(A + ".jsonl"),
                event(A, "user", "u1", "2026-08-01T10:00:00.000Z", "start")
                        + event(A, "assistant", "a1", "2026-08-01T10:00:05.000Z", huge)
                        + "{\"type\": \"ai-title\", \"aiTitle\": \"Big output\", \"sessionId\": \"" + A + "\"}\n"
                        + event(A, "user", "u2", "2026-08-01T10:01:00.000Z", "thanks " + huge)
                        + "{\"type\":\"continued-in\",\"continuedInSessionId\":\"" + B + "\"}\n");
        Files.writeString(
                project.resolve(B + ".jsonl"),
                event(B, "user", "v1", "2026-08-01T11:00:00.000Z", TranscriptReader.CONTINUATION_MARKER + " ok"));
        double now = TranscriptReader.epoch("2026-08-05T00:00:00Z");
        try (ClaudeSessionSource src =
                ClaudeSessionSource.open(tmp.resolve("claude"), now, ClaudeSessions.DEFAULT_IDLE_SECONDS)) {
            SessionInfo a = src.session(A).orElseThrow();
            assertEquals("Big output", a.title());
            assertEquals("/home/u/big", a.cwd());
            List<MessageEvent> ms = new ArrayList<>();
            src.messages(A, ms::add);
            assertEquals(3, ms.size());
            assertEquals(LongLine.STRING_CAP + 1, ms.get(1).text().length(), "the copy's text, cut");
            assertEquals(huge.substring(0, LongLine.STRING_CAP) + "…", ms.get(1).text());
            assertTrue(ms.get(2).text().startsWith("thanks Output: xxx"));
            assertEquals(0, src.malformedLines(A));
            InspectResult.Report r = InspectEngine.inspect(src, InspectEngine.Request.of(A))
                    .result()
                    .sessions()
                    .get(0);
            assertEquals("2026-08-01T10:01:00Z", r.timeline().last_activity());
            // B continues A: found by reading A, long lines and all
            SessionInfo b = src.session(B).orElseThrow();
            assertEquals(A, b.parentId());
            assertEquals(SessionInfo.Relation.continued, b.relation());
        }
    }
}
