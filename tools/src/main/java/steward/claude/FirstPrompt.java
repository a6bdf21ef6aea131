package steward.claude;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import steward.json.Json;
import steward.text.CodePoints;
import tools.jackson.databind.JsonNode;

/**
 * The first prompt of a Claude Code transcript, as its session list shows an untitled session: the text of the first user
 * event that is not a sidechain, meta or tool-output event, nor a slash command's echo. Only the first {@link #HEAD} bytes
 * are read (a first line cut by that window gives the beginning of its {@code content} string), so topic grouping of a few
 * hundred sessions costs a few MB of reads at most.
 */
public final class FirstPrompt {
    public static final int HEAD = 16 * 1024;

    private FirstPrompt() {}

    /** The first prompt, cut to {@code maxChars} code points, or null when the head holds none. */
    public static String read(Path file, int maxChars) {
        byte[] b;
        int n;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(HEAD, Math.max(0, ch.size())));
            while (buf.hasRemaining() && ch.read(buf) > 0) {}
            b = buf.array();
            n = buf.position();
        } catch (IOException e) {
            return null;
        }
        int s = 0;
        while (s < n) {
            int e = s;
            while (e < n && b[e] != '\n') e++;
            String text = e < n || n < HEAD ? whole(b, s, e) : partial(b, s, e);
            if (text != null) return CodePoints.prefix(text.strip(), maxChars);
            s = e + 1;
        }
        return null;
    }

    private static boolean candidate(byte[] b, int s, int e) {
        int look = Math.min(e, s + TranscriptScanner.LOOK);
        String type = TranscriptScanner.typeAt(b, s, look);
        return ("user".equals(type) || "human".equals(type))
                && TranscriptScanner.indexOf(b, s, look, TranscriptScanner.bytes("\"isSidechain\":true")) < 0
                && TranscriptScanner.indexOf(b, s, look, TranscriptScanner.bytes("\"isMeta\":true")) < 0;
    }

    /** A whole line's prompt, or null when it is not one. */
    private static String whole(byte[] b, int s, int e) {
        if (!candidate(b, s, e)) return null;
        JsonNode ev;
        try {
            ev = Json.MAPPER.readTree(b, s, e - s);
        } catch (RuntimeException ex) {
            return null;
        }
        if (ev == null
                || !ev.isObject()
                || ev.path("isSidechain").asBoolean(false)
                || ev.path("isMeta").asBoolean(false)
                || ev.path("isCompactSummary").asBoolean(false)) {
            return null;
        }
        JsonNode msg = ev.get("message");
        List<ContentBlock> blocks = new ArrayList<>();
        TranscriptReader.blocks(msg != null && msg.isObject() ? msg.get("content") : msg, blocks);
        StringBuilder sb = new StringBuilder();
        for (ContentBlock c : blocks) {
            if (c.kind() != ContentBlock.Kind.TEXT
                    || c.text() == null
                    || c.text().isBlank()) continue;
            if (sb.length() > 0) sb.append('\n');
            sb.append(c.text());
        }
        return prompt(sb.toString());
    }

    /** The first line cut by the head window: its {@code content} string, when it has one. */
    private static String partial(byte[] b, int s, int e) {
        if (!candidate(b, s, e)) return null;
        String whole = TranscriptScanner.field(b, s, e, "content");
        if (whole != null) return prompt(whole);
        // a content string that runs past the window: its beginning is the prompt
        byte[] key = TranscriptScanner.bytes("\"content\":\"");
        int k = TranscriptScanner.indexOf(b, s, e, key);
        if (k < 0) return null;
        int v = k + key.length;
        for (int end = e, tries = 0; end > v && tries < 8; end--, tries++) {
            try {
                String json = "\"" + new String(b, v, end - v, java.nio.charset.StandardCharsets.UTF_8) + "\"";
                return prompt(Json.MAPPER.readTree(json).asString());
            } catch (RuntimeException ex) {
                // cut inside an escape or a character: one byte less
            }
        }
        return null;
    }

    /** Null for what is not a prompt the user typed: empty, a slash command's echo, the compaction summary. */
    static String prompt(String t) {
        if (t == null || t.isBlank()) return null;
        String x = t.strip();
        if (x.startsWith("<command-")
                || x.startsWith("<local-command")
                || x.startsWith("Caveat: The messages below")
                || x.startsWith(TranscriptReader.CONTINUATION_MARKER)) {
            return null;
        }
        return x;
    }
}
