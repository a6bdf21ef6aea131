package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/**
 * The production calls that can take longer than a second, through the real jar over stdio and over Streamable HTTP:
 * an audit of a few thousand sessions reports its progress in order before its answer; a long call cancelled
 * mid-way answers "cancelled" soon after and has written nothing; a subscriber hears of every change of MEMORY.md.
 * Nothing here asserts a speed: the bound on the cancellation is generous and the figure is printed.
 */
class LongCallsIT {
    static final int SESSIONS = 4000;
    static final int MESSAGES = 24;

    @TempDir
    static Path shared;

    static Path home;

    @TempDir
    Path tmp;

    @BeforeAll
    static void largeHome() throws Exception {
        long t0 = System.nanoTime();
        home = TestHomes.largeHome(shared, SESSIONS, MESSAGES);
        System.out.printf(
                "large home: %d sessions x %d messages written in %.1f s%n",
                SESSIONS, MESSAGES, (System.nanoTime() - t0) / 1e9);
    }

    McpChannel open(String transport, Path home, Path stateDir) throws Exception {
        return open(transport, home, stateDir, Map.of());
    }

    McpChannel open(String transport, Path home, Path stateDir, Map<String, String> env) throws Exception {
        Path log = tmp.resolve("server-" + transport + ".log");
        return transport.equals("http")
                ? McpChannel.http(home, stateDir, log, env)
                : McpChannel.stdio(home, stateDir, log, env);
    }

    static String call(String id, String tool, String args, String progressToken) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + args
                + (progressToken == null ? "" : ",\"_meta\":{\"progressToken\":\"" + progressToken + "\"}") + "}}";
    }

    static String text(JsonNode answer) {
        return answer.path("result").path("content").path(0).path("text").asString("");
    }

    @ParameterizedTest
    @ValueSource(strings = {"stdio", "http"})
    void anAuditOfThousandsOfSessionsReportsItsPhasesInOrderBeforeItsAnswer(String transport) throws Exception {
        try (McpChannel c = open(transport, home, tmp.resolve("state"))) {
            JsonNode answer = c.call(
                    "a",
                    call(
                            "a",
                            "session_audit",
                            "{\"now\":\"2026-08-10T12:00:00Z\",\"max_items_per_group\":3}",
                            "audit-1"),
                    Duration.ofMinutes(3));
            assertFalse(answer.path("result").path("isError").asBoolean(), answer.toString());
            int total = answer.path("result")
                    .path("structuredContent")
                    .path("totals")
                    .path("all")
                    .asInt();
            assertEquals(SESSIONS + 62, total);

            List<JsonNode> progress = c.progress("audit-1");
            List<Double> values = progress.stream()
                    .map(p -> p.path("params").path("progress").asDouble())
                    .toList();
            assertTrue(values.size() >= 4, "every phase is reported: " + progress);
            for (int i = 1; i < values.size(); i++)
                assertTrue(values.get(i) > values.get(i - 1), "progress only increases: " + values);
            assertTrue(
                    progress.stream()
                            .allMatch(p -> p.path("params").path("total").asDouble() == 4),
                    progress.toString());
            assertTrue(
                    progress.stream()
                            .anyMatch(p -> p.path("params")
                                    .path("message")
                                    .asString("")
                                    .equals("classifying " + total + " sessions")),
                    progress.toString());
            assertTrue(
                    c.indexOf(progress.get(progress.size() - 1)) < c.indexOf(answer),
                    "the answer comes after the last progress");
        }
    }

    /**
     * A long call, cancelled after its first progress notification. Today: the first build of the recall index of a
     * home with ~100,000 messages (reading the sessions takes seconds, with a safe point after each), made by the call
     * itself: the server runs without its background indexer (STEWARD_RECALL_BACKGROUND=off; with it, a call never
     * builds and answers at once from what is indexed). The call and the check of what it wrote are the only
     * call-specific parts.
     */
    record LongCall(String tool, String args, String what) {
        /** Files the call would have written, under the state dir. */
        List<Path> written(Path stateDir) throws Exception {
            Path recall = stateDir.resolve("recall");
            if (!Files.isDirectory(recall)) return List.of();
            try (Stream<Path> s = Files.walk(recall)) {
                // (Lucene's empty write.lock may stay after a rollback: a lock file, not index data)
                return s.filter(Files::isRegularFile)
                        .filter(f -> !f.getFileName().toString().equals("write.lock"))
                        .toList();
            }
        }
    }

    static final LongCall LONG_CALL =
            new LongCall("recall_search", "{\"query\":\"docker build cache\"}", "first recall index build");

    @ParameterizedTest
    @ValueSource(strings = {"stdio", "http"})
    void aCancelledLongCallAnswersSoonAfterAndHasWrittenNothing(String transport) throws Exception {
        Path state = tmp.resolve("state");
        try (McpChannel c = open(transport, home, state, Map.of("STEWARD_RECALL_BACKGROUND", "off"))) {
            c.send(call("long", LONG_CALL.tool(), LONG_CALL.args(), "long-1"));
            JsonNode first = c.next(McpChannel.progressOf("long-1"), Duration.ofMinutes(2));
            c.send(
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"long\",\"reason\":\"the user gave up\"}}");
            long cancelledAt = System.nanoTime();
            JsonNode answer = c.next(McpChannel.answers("long"), Duration.ofSeconds(60));
            double seconds = (System.nanoTime() - cancelledAt) / 1e9;
            System.out.printf(
                    "%s over %s: answered %.2f s after notifications/cancelled (progress before it: %s)%n",
                    LONG_CALL.what(),
                    transport,
                    seconds,
                    c.progress("long-1").stream()
                            .map(p -> p.path("params").path("message").asString(""))
                            .distinct()
                            .toList());

            assertTrue(answer.path("result").path("isError").asBoolean(), answer.toString());
            assertTrue(text(answer).contains("cancelled"), answer.toString());
            assertTrue(c.indexOf(first) < c.indexOf(answer));
            assertTrue(
                    seconds < 10,
                    "control comes back at the next safe point, not at the end of the call: " + seconds + " s");
            assertEquals(List.of(), LONG_CALL.written(state), "a cancelled call writes nothing");

            // the server keeps serving, and the call runs to its end when nobody cancels it
            JsonNode status = c.call("s", call("s", "steward_status", "{}", null), Duration.ofMinutes(1));
            assertFalse(status.path("result").path("isError").asBoolean(), status.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"stdio", "http"})
    void aSubscriberHearsOfAnExternalEditAndOfStewardsOwnWrite(String transport) throws Exception {
        Path small = TestHomes.copyFixture(tmp);
        try (McpChannel c = open(transport, small, tmp.resolve("state"))) {
            String uri = "steward://memory/MEMORY.md";
            JsonNode sub = c.call(
                    "sub",
                    "{\"jsonrpc\":\"2.0\",\"id\":\"sub\",\"method\":\"resources/subscribe\",\"params\":{\"uri\":\""
                            + uri + "\"}}",
                    Duration.ofSeconds(30));
            assertFalse(sub.has("error"), sub.toString());
            Thread.sleep(400); // the watcher polls every 250 ms: let it see the file as it is now

            Path memory = small.resolve("memories/MEMORY.md");
            Path edit = memory.resolveSibling("MEMORY.md.tmp-it");
            Files.writeString(edit, Files.readString(memory) + "\n§\n[ops] an edit by another process");
            Files.move(edit, memory, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            JsonNode external = c.next(updated(uri), Duration.ofSeconds(20));
            Thread.sleep(400);
            long before = updates(c, uri);

            JsonNode write = c.call(
                    "w",
                    call(
                            "w",
                            "memory_write",
                            "{\"target\":\"memory\",\"action\":\"add\",\"content\":\"[ops] written by Steward\"}",
                            null),
                    Duration.ofSeconds(60));
            assertFalse(write.path("result").path("isError").asBoolean(), write.toString());
            // Steward's own write is heard too (its notification may come before or after the call's answer)
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (updates(c, uri) == before && System.nanoTime() < deadline) Thread.sleep(50);
            assertEquals(1, before, "one notification for the external edit: " + c.seen);
            assertEquals(before + 1, updates(c, uri), "and one for Steward's own write: " + c.seen);
            assertTrue(c.indexOf(external) >= 0);
            assertTrue(Files.readString(memory).contains("written by Steward"));
        }
    }

    static long updates(McpChannel c, String uri) {
        synchronized (c.seen) {
            return c.seen.stream().filter(updated(uri)).count();
        }
    }

    static Predicate<JsonNode> updated(String uri) {
        return m -> "notifications/resources/updated".equals(m.path("method").asString(""))
                && uri.equals(m.path("params").path("uri").asString(""));
    }
}
