package steward.claude;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/** The bounded copy of an overlong transcript line: the entry's facts are the line's own, long texts keep their start. */
class LongLineTest {
    static final int BIG = LongLine.MAX_LINE + (1 << 20);

    /** {@code line} fed in pieces of {@code piece} bytes; the copy parsed (strictly: it must be UTF-8 JSON). */
    static JsonNode copy(String line, int piece) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        LongLine l = new LongLine();
        for (int i = 0; i < b.length; i += piece) l.feed(b, i, Math.min(piece, b.length - i));
        assertEquals(b.length, l.length());
        byte[] r = l.result();
        assertTrue(r.length < LongLine.OUT_CAP + 30 * (LongLine.STRING_CAP + 300), "copy of " + r.length + " bytes");
        return Json.MAPPER.readTree(r);
    }

    static byte[] raw(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        LongLine l = new LongLine();
        l.feed(b, 0, b.length);
        return l.result();
    }

    static String assistant(String text, String sep, String colon) {
        return ("{'parentUuid':'p1','isSidechain':false,'cwd':'/home/u/big','sessionId':'s1','type':'assistant',"
                        + "'message':{'role':'assistant','content':[{'type':'text','text':'TEXT'},"
                        + "{'type':'tool_use','id':'t1','name':'Bash','input':{'command':'ls'}}],'usage':{'input_tokens':12}},"
                        + "'uuid':'a1','timestamp':'TIME'}")
                .replace('\'', '"')
                .replace(",", sep)
                .replace(":", colon)
                .replace("TIME", "2026-08-01T10:00:05.000Z")
                .replace("TEXT", text);
    }

    private static void sameEntry(JsonNode n, String textStart) {
        assertEquals("assistant", n.path("type").asString());
        assertEquals("p1", n.path("parentUuid").asString());
        assertFalse(n.path("isSidechain").asBoolean(true));
        assertEquals("/home/u/big", n.path("cwd").asString());
        assertEquals("s1", n.path("sessionId").asString());
        assertEquals("a1", n.path("uuid").asString());
        assertEquals("2026-08-01T10:00:05.000Z", n.path("timestamp").asString());
        JsonNode content = n.path("message").path("content");
        assertEquals(2, content.size());
        String text = content.get(0).path("text").asString();
        assertTrue(text.startsWith(textStart), text.substring(0, 40));
        assertTrue(text.endsWith("…"));
        assertEquals(LongLine.STRING_CAP + 1, text.length());
        assertEquals("Bash", content.get(1).path("name").asString());
        assertEquals("ls", content.get(1).path("input").path("command").asString());
        assertEquals(12, n.path("message").path("usage").path("input_tokens").asInt());
    }

    @Test
    void keepsEveryShortValueAndTheStartOfALongText() {
        String text = "Output: " + "x".repeat(BIG);
        sameEntry(copy(assistant(text, ",", ":"), 1 << 16), "Output: xxx");
        sameEntry(copy(assistant(text, ",", ":"), 777), "Output: xxx");
    }

    @Test
    void spacedJsonIsCopiedCompact() {
        String text = "Output: " + "x".repeat(BIG);
        String line = assistant(text, ", ", ": ").replace("{", "{ ").replace("}", " }");
        JsonNode n = copy(line, 1 << 16);
        sameEntry(n, "Output: xxx");
        // compact, so the scanner's byte search finds the type
        byte[] r = raw(line);
        assertEquals("assistant", TranscriptScanner.typeAt(r, 0, Math.min(r.length, TranscriptScanner.LOOK)));
    }

    @Test
    void textsAreCutBetweenCharactersNeverInsideOne() {
        // two-byte characters, four-byte ones, escapes and surrogate pairs written as escapes, across the cut
        String[] fills = {"é", "😀", "\\n", "\\ud83d\\ude00", "a\\\"", "\\u00e9z"};
        for (String fill : fills) {
            for (int shift = 0; shift < 12; shift++) {
                String text = "a".repeat(LongLine.STRING_CAP - 6 + shift) + fill.repeat(BIG / fill.length() / 4);
                JsonNode n = copy(assistant(text, ",", ":"), 1 << 16);
                String t = n.path("message").path("content").get(0).path("text").asString();
                assertTrue(t.endsWith("…"), fill);
                assertFalse(t.contains("\uFFFD"), fill + " " + shift);
                for (int i = 0; i < t.length(); i++) {
                    char c = t.charAt(i);
                    if (Character.isHighSurrogate(c))
                        assertTrue(i + 1 < t.length() && Character.isLowSurrogate(t.charAt(i + 1)), fill + " " + shift);
                    if (Character.isLowSurrogate(c))
                        assertTrue(i > 0 && Character.isHighSurrogate(t.charAt(i - 1)), fill + " " + shift);
                }
                Json.MAPPER.writeValueAsString(n); // and it can be written out again
            }
        }
    }

    @Test
    void pastTheCapOnlyTheKeysTheReadersUseAreCopied() {
        // a line made long by many mid-sized values (each under the string cap) before the entry's own fields
        StringBuilder sb = new StringBuilder("{\"toolUseResult\":{\"files\":[");
        String mid = "y".repeat(50_000);
        for (int i = 0; i < 80; i++)
            sb.append(i == 0 ? "" : ",").append('"').append(mid).append('"');
        sb.append("]},\"extra\":[");
        for (int i = 0; i < 400_000; i++) sb.append(i == 0 ? "" : ",").append(i);
        sb.append("],\"type\":\"custom-title\",\"customTitle\":\"Renamed\",\"sessionId\":\"s1\",");
        for (int i = 0; i < 5_000; i++) sb.append("\"k").append(i).append("\":\"v\",");
        sb.append("\"message\":{\"content\":\"dropped\"},\"timestamp\":\"2026-08-01T10:00:05.000Z\"}");
        assertTrue(sb.length() > LongLine.MAX_LINE);
        JsonNode n = copy(sb.toString(), 1 << 16);
        assertEquals("custom-title", n.path("type").asString());
        assertEquals("Renamed", n.path("customTitle").asString());
        assertEquals("s1", n.path("sessionId").asString());
        assertEquals("2026-08-01T10:00:05.000Z", n.path("timestamp").asString());
        assertFalse(n.has("k4999"), "an unknown key past the cap is left out");
        assertTrue(n.path("message").isObject());
    }

    @Test
    void aLineThatIsNotOneJsonValueIsUnreadable() {
        String big = "x".repeat(1000);
        for (String bad : List.of(
                "{\"type\":\"user\",\"message\":{\"content\":\"" + big, // cut while written
                "{\"type\":\"user\"]",
                "{\"type\":\"user\"} trailing",
                "{\"type\" \"user\"}",
                "{\"type\":\"user\",}",
                "{\"a\":\"raw\ttab\"}",
                "{\"a\":\"\\uZZZZ\"}",
                "[".repeat(LongLine.MAX_DEPTH + 1) + "]".repeat(LongLine.MAX_DEPTH + 1),
                "{\"n\":" + "1".repeat(100) + "}",
                "")) assertArrayEquals(LongLine.UNREADABLE, raw(bad), bad.length() > 60 ? bad.substring(0, 60) : bad);
        assertEquals(
                "{\"a\":[1,true,null,-2.5e3,{}],\"b\":\"\\\"q\\\"\"}",
                new String(
                        raw(" { \"a\" : [ 1 , true , null , -2.5e3 , { } ] , \"b\" : \"\\\"q\\\"\" } "),
                        StandardCharsets.UTF_8));
    }

    @Test
    void linesPassesShortLinesAsReadAndLongOnesAsTheirCopy() throws Exception {
        String longLine = assistant("z".repeat(BIG), ",", ":");
        String text = "{\"type\":\"user\"}\n" + longLine + "\n\n{\"type\":\"ai-title\",\"aiTitle\":\"T\"}\n" + longLine;
        byte[] all = text.getBytes(StandardCharsets.UTF_8);
        record Seen(String text, long length, boolean terminated) {}
        List<Seen> seen = new ArrayList<>();
        LongLine.lines(new ByteArrayInputStream(all), (b, off, len, length, terminated) -> {
            assertTrue(len < LongLine.OUT_CAP);
            seen.add(new Seen(new String(b, off, len, StandardCharsets.UTF_8), length, terminated));
            return true;
        });
        assertEquals(5, seen.size());
        assertEquals(new Seen("{\"type\":\"user\"}", 15, true), seen.get(0));
        assertEquals(longLine.length(), seen.get(1).length());
        assertTrue(seen.get(1).terminated());
        assertTrue(seen.get(1).text().contains("\"type\":\"assistant\""));
        assertEquals(new Seen("", 0, true), seen.get(2));
        String title = "{\"type\":\"ai-title\",\"aiTitle\":\"T\"}";
        assertEquals(new Seen(title, title.length(), true), seen.get(3));
        assertFalse(seen.get(4).terminated());
        assertEquals(longLine.length(), seen.get(4).length());
        // a sink can stop early
        List<String> first = new ArrayList<>();
        LongLine.lines(new ByteArrayInputStream(all), (b, off, len, length, terminated) -> {
            first.add(new String(b, off, len, StandardCharsets.UTF_8));
            return false;
        });
        assertEquals(List.of("{\"type\":\"user\"}"), first);
    }
}
