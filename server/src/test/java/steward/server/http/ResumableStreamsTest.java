package steward.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ResumableStreamsTest {
    @Test
    void eventsGetUniqueIdsAfterAPrimingEventAndTheSdkIdsAreDropped() {
        ResumableStreams rs = new ResumableStreams();
        rs.enable("s1");
        ResumableStreams.Stream st = rs.open("s1", "7", "steward_status");
        StringWriter out = new StringWriter();
        PrintWriter sdk = st.attach(new PrintWriter(out));
        sdk.write("id: s1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n");
        sdk.write("id: s1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,"); // an event split across writes
        sdk.write("\"result\":{}}\n\n");
        String[] events = out.toString().split("\n\n");
        assertEquals(3, events.length);
        assertEquals("id: " + st.id + "_0\nretry: 1000\ndata: ", events[0]);
        assertTrue(events[1].startsWith("id: " + st.id + "_1\nevent: message\ndata: "), events[1]);
        assertTrue(events[2].startsWith("id: " + st.id + "_2\n"), events[2]);
        assertFalse(out.toString().contains("id: s1\n"), "the SDK's repeated session-id event ids are replaced");
    }

    @Test
    void streamsAreFoundOnlyFromTheirOwnSession() {
        ResumableStreams rs = new ResumableStreams();
        ResumableStreams.Stream st = rs.open("s1", "1", null);
        assertEquals(st, rs.find("s1", st.id + "_3"));
        assertNull(rs.find("s2", st.id + "_3"));
        assertNull(rs.find("s1", "garbage"));
        assertNull(rs.find("s1", null));
        assertEquals(3, ResumableStreams.seqOf(st.id + "_3"));
        assertEquals(-1, ResumableStreams.seqOf("x_y"));
        rs.forget("s1");
        assertNull(rs.find("s1", st.id + "_3"));
        assertFalse(rs.enabled("s1"));
    }
}
