package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * A Claude Code transcript with one 30 MB line (a large tool output; real lines reach 12.8 M characters), read by
 * one-shot {@code steward call}s with the launcher's heap for them (-Xmx160m): no call runs out of memory, and each says
 * what the transcript holds. Before lines were bounded, every one of these calls died with an OutOfMemoryError.
 */
class LongLineIT {
    static final String SID = "5e1f0b7a-3c2d-4e5f-8a9b-0c1d2e3f4a5b";
    static final int MB = 30;

    @TempDir
    static Path tmp;

    static Path claude;

    /** Python's json.dumps spacing, as in a transcript rewritten by a script: the scanner's byte search misses its keys. */
    static String event(String type, String uuid, String ts, String content) {
        return "{\"parentUuid\": null, \"isSidechain\": false, \"cwd\": \"/home/u/big\", \"sessionId\": \"" + SID
                + "\", \"type\": \"" + type + "\", \"message\": {\"role\": \"" + type + "\", \"content\": " + content
                + "}, \"uuid\": \"" + uuid + "\", \"timestamp\": \"" + ts + "\"}\n";
    }

    @BeforeAll
    static void home() throws Exception {
        claude = tmp.resolve("claude");
        Path f = Files.createDirectories(claude.resolve("projects/-home-u-big")).resolve(SID + ".jsonl");
        try (BufferedWriter w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
            w.write(event("user", "u1", "2026-08-01T10:00:00.000Z", "\"Please fix the payment webhook retry logic\""));
            w.write(
                    event(
                            "assistant",
                            "a1",
                            "2026-08-01T10:00:05.000Z",
                            "[{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"Bash\", \"input\": {\"command\": \"cat big.log\"}}]"));
            // the tool's output: one line of 30 MB
            String head = event(
                    "user",
                    "u2",
                    "2026-08-01T10:00:09.000Z",
                    "[{\"tool_use_id\": \"t1\", \"type\": " + "\"tool_result\", \"content\": \"BIG\"}]");
            int at = head.indexOf("BIG");
            w.write(head, 0, at);
            String chunk = "log line of the payment service, nothing to see\\n".repeat(1000);
            for (long n = 0; n < MB * 1024L * 1024; n += chunk.length()) w.write(chunk);
            w.write(head, at + 3, head.length() - at - 3);
            w.write(event(
                    "assistant",
                    "a2",
                    "2026-08-01T10:01:00.000Z",
                    "[{\"type\": \"text\", \"text\": \"The retries now back off exponentially.\"}]"));
        }
        assertTrue(Files.size(f) > MB * 1024L * 1024);
        Files.setLastModifiedTime(f, FileTime.from(Instant.now().minusSeconds(3 * 86400)));
    }

    record Run(int exit, JsonNode out, String stderr) {}

    static Run call(String tool, String args) throws Exception {
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Path out = Files.createTempFile(tmp, "out", ".json");
        List<String> cmd = new ArrayList<>(List.of(StewardProcess.java(), "-Xms8m", "-Xmx160m", "-XX:+UseSerialGC"));
        cmd.addAll(List.of("-jar", StewardProcess.jar().toString(), "call", tool, args));
        cmd.addAll(List.of(
                "--claude-home",
                claude.toString(),
                "--state-dir",
                tmp.resolve("state").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(tmp.toFile())
                .redirectError(err.toFile())
                .redirectOutput(out.toFile());
        pb.environment().remove("HERMES_HOME");
        pb.environment()
                .put("HOME", Files.createDirectories(tmp.resolve("user")).toString());
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), tool + " timed out");
        String stderr = Files.readString(err);
        assertFalse(stderr.contains("OutOfMemoryError"), tool + ": " + stderr);
        assertEquals(0, p.exitValue(), tool + ": " + stderr);
        return new Run(p.exitValue(), Json.MAPPER.readTree(Files.readString(out)), stderr);
    }

    @Test
    void statusCountsTheSessionAndNoMalformedLine() throws Exception {
        JsonNode c = call("steward_status", "{}").out().path("claude");
        assertEquals(1, c.path("sessions").asInt());
        assertEquals(1, c.path("ended").asInt());
        assertEquals(0, c.path("malformed_lines").asInt());
    }

    @Test
    void theAuditCountsEveryTurnOfTheUntitledSession() throws Exception {
        JsonNode groups = call("session_audit", "{\"store\":\"claude\"}").out().path("decision_groups");
        assertEquals(1, groups.size(), groups.toString());
        JsonNode g = groups.get(0);
        assertEquals("B", g.path("rule").asString());
        assertEquals(SID, g.path("item_ids").get(0).asString());
        assertEquals(
                "ended, untitled, 4 messages",
                g.path("examples").get(0).path("detail").asString());
    }

    @Test
    void inspectShowsTheWholeSession() throws Exception {
        JsonNode s = call("session_inspect", "{\"session_id\":\"" + SID + "\",\"store\":\"claude\"}")
                .out()
                .path("sessions")
                .get(0);
        assertEquals(SID, s.path("session_id").asString());
        assertEquals(
                4, s.path("messages").path("total").asInt(), s.path("messages").toString());
        assertEquals(
                "2026-08-01T10:01:00Z", s.path("timeline").path("last_activity").asString());
    }

    @Test
    void recallFindsWhatWasSaidAroundTheLongOutput() throws Exception {
        JsonNode r =
                call("recall_search", "{\"query\":\"payment webhook retry\"}").out();
        assertTrue(r.toString().contains("Please fix the payment webhook retry logic"), r.toString());
    }
}
