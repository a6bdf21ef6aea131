package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.json.Json;
import steward.recall.RecallRuntime;
import steward.recall.RecallSettings;
import steward.server.ToolRegistry;
import steward.server.Tools;
import tools.jackson.databind.JsonNode;

/**
 * Two Steward processes on one state dir (a server and a {@code steward call}, or two calls): each has its own recall
 * runtime, so each keeps its own view of recall's files. What one records, the other must not write over.
 */
class SharedStateDirTest {
    @TempDir
    Path tmp;

    static final int CALLS = 25;

    /** A "process": the same homes and state dir, its own recall runtime (engines, cached files). */
    static ToolContext process(ToolTestSupport t, int n) {
        return new ToolContext(
                t.ctx.paths(),
                Clock.offset(t.ctx.clock(), Duration.ofMinutes(n)),
                Work.NONE,
                new RecallRuntime(RecallSettings.fromEnvironment()));
    }

    static <T> List<T> both(Callable<List<T>> a, Callable<List<T>> b) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(2);
        try {
            Future<List<T>> fa = ex.submit(a), fb = ex.submit(b);
            List<T> out = new ArrayList<>(fa.get());
            out.addAll(fb.get());
            return out;
        } finally {
            ex.shutdownNow();
        }
    }

    @Test
    void feedbackAndInjectionsOfTwoProcessesAreAllKept() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        ToolRegistry reg = Tools.registry();
        ToolContext p1 = process(t, 1), p2 = process(t, 2);
        Callable<List<String>> injects1 = () -> injects(reg, p1, "a"), injects2 = () -> injects(reg, p2, "b");
        List<String> ids = both(injects1, injects2);
        JsonNode log = Json.MAPPER.readTree(
                t.ctx.paths().stateDir().resolve("recall/injections.json").toFile());
        Set<String> logged = new HashSet<>();
        for (JsonNode d : log.get("decisions")) logged.add(d.get("decision_id").asString());
        List<String> lost = ids.stream().filter(i -> !logged.contains(i)).toList();
        assertEquals(List.of(), lost, "every decision a caller was given is in the log");

        JsonNode inj = ToolRegistry.toJson(reg.invoke(
                        "recall_inject",
                        Json.MAPPER.readTree("{\"context\":\"还记得我喜欢用中文回答吗？\",\"mode\":\"active\"}"),
                        p1)
                .structured());
        String id = inj.get("decision_id").asString(),
                uri = inj.get("items").get(0).get("uri").asString();
        // outcomes on the URI alone each count; the decision's own outcome, reported by both, counts once
        String alone = "{\"uris\":[\"" + uri + "\"],\"outcome\":\"used\"}",
                ofDecision = "{\"decision_id\":\"" + id + "\",\"uris\":[\"" + uri + "\"],\"outcome\":\"used\"}";
        Callable<List<String>> fb1 = () -> feedback(reg, p1, alone, ofDecision),
                fb2 = () -> feedback(reg, p2, alone, ofDecision);
        assertEquals(2 * CALLS, both(fb1, fb2).size());
        JsonNode fb = Json.MAPPER.readTree(
                t.ctx.paths().stateDir().resolve("recall/feedback.json").toFile());
        assertEquals(2 * CALLS - 2 + 1, fb.get("items").get(uri).get("used").asInt(), "every outcome recorded is kept");
        assertEquals(1, fb.get("calibration").get("explicit/memory").get("used").asInt());
    }

    static List<String> injects(ToolRegistry reg, ToolContext c, String who) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            ToolResult r = reg.invoke(
                    "recall_inject",
                    Json.MAPPER.readTree("{\"context\":\"which package manager do I use? " + who + i
                            + "\",\"session_id\":\"" + who + i + "\"}"),
                    c);
            assertFalse(r.isError(), r.text());
            ids.add(ToolRegistry.toJson(r.structured()).get("decision_id").asString());
        }
        return ids;
    }

    /** CALLS feedback calls: {@code args}, and {@code last} as the middle one. */
    static List<String> feedback(ToolRegistry reg, ToolContext c, String args, String last) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            ToolResult r = reg.invoke("recall_feedback", Json.MAPPER.readTree(i == CALLS / 2 ? last : args), c);
            assertTrue(!r.isError(), r.text());
            out.add(r.text());
        }
        return out;
    }
}
