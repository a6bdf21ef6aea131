package steward.claude;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SessionsIndexTest {
    static final Path F = Path.of("sessions-index.json");

    static SessionsIndex.Read parse(String s) {
        return SessionsIndex.parse(F, s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void removingAndPuttingBackAnEntryKeepsTheFilesOwnLayout() {
        String pretty = """
                {
                  "version": 1,
                  "originalPath": "/home/u/p",
                  "entries": [
                    {
                      "sessionId": "a",
                      "fileMtime": 1786300000123,
                      "firstPrompt": "héllo \\"quoted\\" \\u0001",
                      "ratio": 0.1,
                      "isSidechain": false
                    },
                    {
                      "sessionId": "b",
                      "tags": [],
                      "meta": {}
                    }
                  ]
                }
                """;
        SessionsIndex.Read r = parse(pretty);
        assertTrue(r.usable());
        assertEquals(Set.of("a", "b"), r.sessionIds());
        byte[] without = SessionsIndex.without(r, Set.of("a"));
        SessionsIndex.Read w = SessionsIndex.parse(F, without);
        assertEquals(Set.of("b"), w.sessionIds());
        byte[] back = SessionsIndex.with(w, SessionsIndex.entriesOf(r, Set.of("a")));
        assertArrayEquals(pretty.getBytes(StandardCharsets.UTF_8), back, new String(back, StandardCharsets.UTF_8));
        String compact = "{\"version\":1,\"entries\":[{\"sessionId\":\"a\",\"n\":2},{\"sessionId\":\"b\"}]}";
        assertEquals(
                "{\"version\":1,\"entries\":[{\"sessionId\":\"b\"}]}",
                new String(SessionsIndex.without(parse(compact), Set.of("a")), StandardCharsets.UTF_8));
    }

    @Test
    void whatCannotBeParsedIsReportedNotGuessed() {
        for (String bad : List.of(
                "{\"version\":1,\"entries\":[{\"sessionId\":", "[]", "{\"version\":1}", "{\"entries\":[1]}", "")) {
            SessionsIndex.Read r = parse(bad);
            assertFalse(r.usable(), bad);
            assertTrue(r.exists());
            assertTrue(r.error() != null && !r.error().isEmpty(), bad);
            assertTrue(r.sessionIds().isEmpty());
        }
        SessionsIndex.Read absent = SessionsIndex.read(Path.of("/nonexistent/sessions-index.json"));
        assertFalse(absent.exists());
        assertNull(absent.error());
    }
}
