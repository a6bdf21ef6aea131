package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.recall.Identity;
import steward.server.Schemas;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.sessions.store.Sqlite;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** Each recall tool through the real registry on a copy of the fixture home; structured results validate against the schemas. */
class RecallToolsTest {
    @TempDir
    Path tmp;

    ToolContext ctx() throws Exception {
        Path home = tmp.resolve("hermes-home");
        if (!Files.exists(home)) {
            TestHomes.copyFixture(tmp);
        }
        return new ToolContext(
                StewardPaths.of(home), Clock.fixed(Instant.parse("2026-09-01T00:00:00Z"), ZoneOffset.UTC), Work.NONE);
    }

    static List<String> uris(JsonNode searchResult) {
        List<String> out = new ArrayList<>();
        for (JsonNode it : searchResult.get("items")) out.add(it.get("uri").asString());
        return out;
    }

    static JsonNode args(String json) {
        return Json.MAPPER.readTree(json);
    }

    static JsonNode valid(String tool, ToolResult r) {
        assertFalse(r.isError(), r.text());
        JsonNode out = ToolRegistry.toJson(r.structured());
        List<String> problems = Schemas.validate(tool + ".output.json", out);
        assertEquals(List.of(), problems, out.toString());
        return out;
    }

    @Test
    void searchResultValidatesAndCarriesUrisAndComponents() throws Exception {
        ToolResult r = Tools.registry()
                .invoke("recall_search", args("{\"query\":\"session housekeeping rules\",\"k\":5}"), ctx());
        JsonNode out = valid("recall_search", r);
        assertEquals(5, out.get("items").size());
        assertTrue(out.get("items").get(0).get("uri").asString().startsWith("steward://"));
        assertTrue(out.get("items").get(0).get("score").has("recency"));
        JsonNode cjk = valid(
                "recall_search",
                Tools.registry().invoke("recall_search", args("{\"query\":\"中文回答\",\"scopes\":[\"memory\"]}"), ctx()));
        assertEquals(
                "steward://memory/memory/" + Identity.id("用户偏好：中文回答，代码注释用英文"),
                cjk.get("items").get(0).get("uri").asString());
        assertEquals(List.of("memory"), List.of(cjk.get("scopes").get(0).asString()));
        assertEquals("good match", out.get("match").get("verdict").asString());
        assertTrue(r.text().startsWith("good match: 5 item(s)"), r.text());
    }

    /** Claude Code items (steward://claude/session/…, steward://claude/memory/…) are results like any other: they validate. */
    @Test
    void claudeCodeItemsValidateAndTheirScopeIsTheirUrisKind() throws Exception {
        Path claude = ClaudeTestHomes.install(tmp, false);
        ToolContext c = new ToolContext(
                ClaudeTestHomes.claudeOnly(tmp, claude),
                Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC),
                Work.NONE);
        Map<String, String> queries = Map.of("claude_session", "login redirect loop", "claude_memory", "test database");
        for (Map.Entry<String, String> q : queries.entrySet()) {
            JsonNode out = valid(
                    "recall_search",
                    Tools.registry()
                            .invoke(
                                    "recall_search",
                                    args("{\"query\":\"" + q.getValue() + "\",\"scopes\":[\"" + q.getKey() + "\"]}"),
                                    c));
            assertFalse(out.get("items").isEmpty(), q + " finds nothing: " + out);
            String prefix = "steward://" + q.getKey().replace('_', '/') + "/";
            for (JsonNode it : out.get("items")) {
                assertEquals(q.getKey(), it.get("source").asString());
                assertTrue(it.get("uri").asString().startsWith(prefix), it.toString());
            }
        }
    }

    @Test
    void scopeNamesAreTheUriKindsAndThePluralsOfThePreviousReleaseStillWork() throws Exception {
        ToolContext c = ctx();
        JsonNode now = valid(
                "recall_search",
                Tools.registry()
                        .invoke("recall_search", args("{\"query\":\"housekeeping\",\"scopes\":[\"skill\"]}"), c));
        JsonNode old = valid(
                "recall_search",
                Tools.registry()
                        .invoke("recall_search", args("{\"query\":\"housekeeping\",\"scopes\":[\"skills\"]}"), c));
        assertEquals("skill", now.get("scopes").get(0).asString());
        assertEquals(now.get("items"), old.get("items"));
        for (JsonNode it : now.get("items"))
            assertTrue(it.get("uri").asString().startsWith("steward://skill/"), it.toString());
    }

    @Test
    void nonsenseSaysNoGoodMatchAndMarksWhatItReturnsWeak() throws Exception {
        ToolResult r = Tools.registry().invoke("recall_search", args("{\"query\":\"xyzzy plugh\"}"), ctx());
        JsonNode out = valid("recall_search", r);
        assertEquals("no good match", out.get("match").get("verdict").asString());
        assertTrue(out.get("items").size() <= 3);
        for (JsonNode it : out.get("items")) assertTrue(it.get("weak").asBoolean());
        assertTrue(r.text().startsWith("no good match"), r.text());
    }

    @Test
    void calibrationIsShownInStatusAndResetByTheUser() throws Exception {
        ToolContext c = ctx();
        JsonNode inj = valid(
                "recall_inject",
                Tools.registry()
                        .invoke("recall_inject", args("{\"context\":\"还记得我喜欢用中文回答吗？\",\"mode\":\"active\"}"), c));
        String id = inj.get("decision_id").asString(),
                uri = inj.get("items").get(0).get("uri").asString();
        for (int i = 0; i < 5; i++) {
            JsonNode fb = valid(
                    "recall_feedback",
                    Tools.registry()
                            .invoke(
                                    "recall_feedback",
                                    args("{\"decision_id\":\"" + id + "\",\"uris\":[\"" + uri
                                            + "\"],\"outcome\":\"ignored\"}"),
                                    c));
            // one outcome per item of a decision: the repeats are not counted again
            assertEquals(
                    i > 0, fb.get("recorded").get(0).get("already_recorded").asBoolean());
            assertEquals(
                    1, fb.get("recorded").get(0).get("counts").get("ignored").asInt());
        }
        JsonNode cal = valid("steward_status", Tools.registry().invoke("steward_status", args("{}"), c))
                .get("recall")
                .get("calibration");
        assertEquals(1, cal.size());
        assertEquals("explicit", cal.get(0).get("lane").asString());
        assertEquals("memory", cal.get(0).get("source").asString());
        assertTrue(cal.get(0).get("offset").asDouble() > 0);
        assertTrue(Tools.registry()
                .invoke("recall_feedback", args("{\"reset\":\"calibration\",\"outcome\":\"used\"}"), c)
                .isError());
        JsonNode reset = valid(
                "recall_feedback", Tools.registry().invoke("recall_feedback", args("{\"reset\":\"calibration\"}"), c));
        assertEquals(1, reset.get("reset").get("explicit/memory").get("ignored").asInt());
        assertEquals(
                0,
                valid("steward_status", Tools.registry().invoke("steward_status", args("{}"), c))
                        .get("recall")
                        .get("calibration")
                        .size());
    }

    @Test
    void searchRefusesBadArguments() throws Exception {
        assertTrue(Tools.registry()
                .invoke("recall_search", args("{\"query\":\"\"}"), ctx())
                .isError());
        assertTrue(Tools.registry()
                .invoke("recall_search", args("{\"query\":\"x\",\"scopes\":[\"web\"]}"), ctx())
                .isError());
        assertTrue(Tools.registry()
                .invoke("recall_search", args("{\"query\":\"x\",\"since\":\"yesterday\"}"), ctx())
                .isError());
    }

    /**
     * A query or context made only of control or zero-width characters is as empty as one of spaces: refused, nothing
     * written (no state dir, no index). They were searched (and the index built) as if they said something.
     */
    @Test
    void aQueryOfOnlyControlOrZeroWidthCharactersIsRefusedAsEmpty() throws Exception {
        ToolContext c = ctx();
        Path state = tmp.resolve("hermes-home/steward");
        for (String q : List.of("   ", "\\u200b\\u200b", "\\u0007", " \\u200d\\ufeff\\u2060\\u0000\\t\\u00ad ")) {
            ToolResult r = Tools.registry().invoke("recall_search", args("{\"query\":\"" + q + "\"}"), c);
            assertTrue(r.isError(), q + " → " + r.text());
            assertEquals("recall_search: query is empty", r.text());
            ToolResult inj = Tools.registry().invoke("recall_inject", args("{\"context\":\"" + q + "\"}"), c);
            assertTrue(inj.isError(), q + " → " + inj.text());
            assertEquals("recall_inject: context is empty", inj.text());
            assertFalse(Files.exists(state), q + " wrote " + state);
        }
    }

    /**
     * With state.db unreadable, recall_search answers from memory and, when sessions were asked for, says they were not
     * searched; recall_inject
     * says so too (it answered "nothing in memory matches" as if every source had been searched).
     */
    @Test
    void withStateDbUnreadableRecallAnswersFromMemoryAndSaysSessionsWereNotSearched() throws Exception {
        ToolContext c = ctx();
        Files.write(
                tmp.resolve("hermes-home/state.db"),
                "not a database".repeat(300).getBytes());
        JsonNode search = valid(
                "recall_search",
                Tools.registry()
                        .invoke("recall_search", args("{\"query\":\"GPU CUDA venv\",\"scopes\":[\"memory\"]}"), c));
        assertEquals("good match", search.get("match").get("verdict").asString(), search.toString());
        // memory alone was asked for: state.db was not read, and nothing is said of it
        assertEquals(0, search.get("index").get("warnings").size(), search.toString());
        JsonNode all = valid(
                "recall_search", Tools.registry().invoke("recall_search", args("{\"query\":\"GPU CUDA venv\"}"), c));
        assertTrue(all.get("index").get("warnings").toString().contains("hermes-sessions not searched"));
        ToolResult r = Tools.registry()
                .invoke("recall_inject", args("{\"context\":\"what did we decide about the docker build cache?\"}"), c);
        JsonNode inj = valid("recall_inject", r);
        assertTrue(inj.path("warnings").toString().contains("hermes-sessions not searched"), inj.toString());
        assertTrue(r.text().contains("warning: hermes-sessions not searched"), r.text());
    }

    /**
     * Session items indexed while state.db could be read are not presented once it cannot be (replaced by garbage,
     * removed): their source cannot vouch for them now, and the warning says the sessions were not searched. They came
     * back from the index as if current, under that very warning.
     */
    @Test
    void sessionsIndexedEarlierAreNotPresentedOnceStateDbCannotBeRead() throws Exception {
        for (String damage : List.of("garbage", "removed")) {
            Path dir = tmp.resolve(damage);
            Path home = TestHomes.copyFixture(dir);
            ToolContext c = new ToolContext(
                    StewardPaths.of(home),
                    Clock.fixed(Instant.parse("2026-09-01T00:00:00Z"), ZoneOffset.UTC),
                    Work.NONE);
            String sessions = "{\"query\":\"docker build cache\",\"scopes\":[\"session\"]}";
            JsonNode before = valid("recall_search", Tools.registry().invoke("recall_search", args(sessions), c));
            assertFalse(before.get("items").isEmpty(), before.toString());
            for (String f : List.of("state.db", "state.db-wal", "state.db-shm")) Files.deleteIfExists(home.resolve(f));
            if (damage.equals("garbage"))
                Files.write(
                        home.resolve("state.db"), "not a database".repeat(300).getBytes());
            ToolResult r = Tools.registry().invoke("recall_search", args(sessions), c);
            JsonNode after = valid("recall_search", r);
            assertEquals(0, after.get("items").size(), damage + ": " + after);
            JsonNode all = valid(
                    "recall_search",
                    Tools.registry().invoke("recall_search", args("{\"query\":\"docker build cache\"}"), c));
            for (JsonNode it : all.get("items"))
                assertFalse(it.get("source").asString().equals("session"), damage + ": " + it);
            JsonNode inj = valid(
                    "recall_inject",
                    Tools.registry()
                            .invoke(
                                    "recall_inject",
                                    args("{\"context\":\"what did we decide about the docker build cache?\","
                                            + "\"session_id\":\"20260810_071500_a6a3a4\"}"),
                                    c));
            for (String list : List.of("items", "dropped"))
                for (JsonNode it : inj.path(list))
                    assertFalse(it.get("source").asString().equals("session"), damage + ": " + it);
            if (damage.equals("garbage")) {
                assertTrue(after.get("index").get("warnings").toString().contains("hermes-sessions not searched"));
                assertTrue(r.text().contains("warning: hermes-sessions not searched"), r.text());
            }
        }
    }

    /**
     * state.db in rollback-journal mode with a writer holding its EXCLUSIVE lock. A recall_search over memory does not
     * read the session store at all; one over sessions waits a short bounded time for the lock, then ranks what is
     * indexed and says the sessions may be stale; recall_inject with a session id works too. Every call waited about 5 s
     * (every source was synced whatever the scopes, with the store's 5 s busy timeout), and the sessions were then
     * reported as not searched. Once the writer is done, the next call reads state.db again.
     */
    @Test
    void aLockedSessionStoreIsNotReadForOtherScopesAndItsIndexedSessionsAreSaidToBeMaybeStale() throws Exception {
        ToolContext c = ctx();
        Path db = tmp.resolve("hermes-home/state.db");
        try (Connection w = Sqlite.openReadWrite(db);
                Statement st = w.createStatement()) {
            st.execute("PRAGMA journal_mode=DELETE"); // no WAL: a writer's lock keeps readers out
        }
        String sessions = "{\"query\":\"docker build cache\",\"scopes\":[\"session\"]}";
        JsonNode before = valid("recall_search", Tools.registry().invoke("recall_search", args(sessions), c));
        assertFalse(before.get("items").isEmpty(), before.toString());
        try (Connection w = Sqlite.openReadWrite(db);
                Statement st = w.createStatement()) {
            st.executeUpdate("INSERT INTO messages (session_id, role, content, timestamp) VALUES "
                    + "('20260808_074300_bc9e28', 'user', 'the zebrafish heater', 1786300000)"); // state.db moved
            st.execute("BEGIN EXCLUSIVE"); // and a writer holds it now
            JsonNode memory = valid(
                    "recall_search",
                    Tools.registry()
                            .invoke("recall_search", args("{\"query\":\"GPU CUDA venv\",\"scopes\":[\"memory\"]}"), c));
            assertEquals("good match", memory.get("match").get("verdict").asString(), memory.toString());
            assertEquals(0, memory.get("index").get("warnings").size(), memory.toString());
            ToolResult r = Tools.registry().invoke("recall_search", args(sessions), c);
            JsonNode locked = valid("recall_search", r);
            assertEquals(uris(before), uris(locked), "what was indexed");
            String warnings = locked.get("index").get("warnings").toString();
            assertTrue(
                    warnings.contains("hermes-sessions may be stale: state.db: locked by another process"), warnings);
            assertTrue(warnings.contains("from the index as Steward last read it"), warnings);
            assertTrue(r.text().contains("warning: hermes-sessions may be stale"), r.text());
            JsonNode inj = valid(
                    "recall_inject",
                    Tools.registry()
                            .invoke(
                                    "recall_inject",
                                    args("{\"context\":\"what did we decide about the docker build cache?\","
                                            + "\"session_id\":\"20260810_071500_a6a3a4\"}"),
                                    c));
            assertTrue(inj.get("warnings").toString().contains("hermes-sessions may be stale"), inj.toString());
            st.execute("ROLLBACK");
        }
        JsonNode after = valid(
                "recall_search",
                Tools.registry()
                        .invoke("recall_search", args("{\"query\":\"zebrafish heater\",\"scopes\":[\"session\"]}"), c));
        assertEquals(0, after.get("index").get("warnings").size(), after.toString());
        assertTrue(after.get("items").get(0).get("snippet").asString().contains("zebrafish"), after.toString());
    }

    /**
     * Steward's own recall files damaged (JSON null, an array, no fields): recall_inject decides as if the log were
     * empty and says so in its warnings, recall_feedback refuses in plain words naming the file, and the file is left as
     * it is. A null decision log escaped recall_inject as a
     * NullPointerException, and feedback.json's errors carried Java's wording ("Cannot invoke
     * steward.recall.FeedbackStore$State.items()").
     */
    @Test
    void damagedRecallFilesAreRefusedInPlainWordsAndLeftAsTheyAre() throws Exception {
        ToolContext c = ctx();
        valid(
                "recall_inject",
                Tools.registry().invoke("recall_inject", args("{\"context\":\"docker build cache?\"}"), c));
        Path recall = tmp.resolve("hermes-home/steward/recall");
        for (String body : List.of("null", "[1,2]", "{\"sessions\":[]}", "{}")) {
            Files.writeString(recall.resolve("injections.json"), body);
            ToolResult r = Tools.registry()
                    .invoke(
                            "recall_inject",
                            args("{\"context\":\"docker build cache?\",\"session_id\":\"20260810_071500_a6a3a4\"}"),
                            c);
            // decided as if the log were empty, and said so; the log is left as it is
            assertFalse(r.isError(), body + " → " + r.text());
            if (body.equals("{}")) continue; // no fields: an empty log
            JsonNode out = valid("recall_inject", r);
            assertTrue(
                    out.get("warnings").toString().contains(recall.resolve("injections.json") + " cannot be read: "),
                    out.toString());
            assertFalse(r.text().matches("(?s).*(internal error|Exception|steward\\.|`).*"), r.text());
            assertEquals(body, Files.readString(recall.resolve("injections.json")));
        }
        for (String body : List.of("null", "[1,2]", "{\"items\":7}")) {
            Files.writeString(recall.resolve("feedback.json"), body);
            ToolResult r = Tools.registry().invoke("recall_feedback", args("{\"reset\":\"calibration\"}"), c);
            assertTrue(r.isError(), body + " → " + r.text());
            assertTrue(
                    r.text().startsWith("recall_feedback: " + recall.resolve("feedback.json") + " cannot be read: "),
                    r.text());
            assertFalse(r.text().matches("(?s).*(internal error|Exception|steward\\.|`|Cannot invoke).*"), r.text());
            assertEquals(body, Files.readString(recall.resolve("feedback.json")));
        }
    }

    @Test
    void injectAndFeedbackResultsValidate() throws Exception {
        ToolContext c = ctx();
        JsonNode inj = valid(
                "recall_inject",
                Tools.registry()
                        .invoke(
                                "recall_inject",
                                args(
                                        "{\"context\":\"还记得我喜欢用中文回答吗？\",\"session_id\":\"20260810_071500_a6a3a4\",\"mode\":\"active\"}"),
                                c));
        assertEquals("inject", inj.get("decision").asString(), inj.toString());
        String id = inj.get("decision_id").asString();
        String uri = inj.get("items").get(0).get("uri").asString();
        JsonNode fb = valid(
                "recall_feedback",
                Tools.registry()
                        .invoke(
                                "recall_feedback",
                                args("{\"decision_id\":\"" + id + "\",\"uris\":[\"" + uri
                                        + "\"],\"outcome\":\"used\"}"),
                                c));
        assertEquals(1.0, fb.get("injection_precision").asDouble());
        JsonNode skip = valid(
                "recall_inject",
                Tools.registry().invoke("recall_inject", args("{\"context\":\"qwertyuiop zxcvbnm\"}"), c));
        assertEquals("skip", skip.get("decision").asString());
        assertTrue(Tools.registry()
                .invoke(
                        "recall_feedback",
                        args("{\"decision_id\":\"d_1_abcdef\",\"uris\":[\"" + uri + "\"],\"outcome\":\"used\"}"),
                        c)
                .isError());
    }

    @Test
    void statusReportsTheRecallIndexAndPrecision() throws Exception {
        ToolContext c = ctx();
        JsonNode before = valid("steward_status", Tools.registry().invoke("steward_status", args("{}"), c));
        assertFalse(before.get("recall").get("index_built").asBoolean());
        Tools.registry().invoke("recall_search", args("{\"query\":\"housekeeping\"}"), c);
        JsonNode after = valid("steward_status", Tools.registry().invoke("steward_status", args("{}"), c));
        assertTrue(after.get("recall").get("index_built").asBoolean());
        assertEquals(2, after.get("recall").get("items").get("skill").asInt());
        // dense retrieval as it holds in this process: the runtime loads here (the model is loaded when something is
        // embedded)
        JsonNode rc = after.get("recall");
        String state = rc.get("dense_state").asString();
        assertTrue(Set.of("available", "loaded").contains(state), rc.toString());
        assertEquals(true, rc.get("dense_enabled").asBoolean());
        assertEquals("default", rc.get("settings").get("dense").get("origin").asString());
    }

    @Test
    void searchHonoursItsArguments() throws Exception {
        ToolContext c = ctx();
        JsonNode docker = valid(
                "recall_search",
                Tools.registry().invoke("recall_search", args("{\"query\":\"docker build cache\",\"k\":3}"), c));
        assertEquals(3, docker.get("items").size(), "k items");
        assertTrue(
                docker.get("items")
                        .get(0)
                        .get("snippet")
                        .asString()
                        .toLowerCase(Locale.ROOT)
                        .contains("docker"),
                docker.toString());
        Map<String, Integer> perSession = new HashMap<>();
        perSession.merge(docker.get("items").get(0).path("session_id").asString(""), 1, Integer::sum);
        for (int i = 1; i < 3; i++) {
            JsonNode it = docker.get("items").get(i), prev = docker.get("items").get(i - 1);
            assertEquals(i + 1, it.get("rank").asInt());
            // ranked by score, except that a third item of one session gives its place in the top five to another
            // session's match
            boolean diversified = perSession.getOrDefault(it.path("session_id").asString(""), 0) >= 2;
            assertTrue(
                    diversified
                            || it.get("score").get("score").asDouble()
                                    <= prev.get("score").get("score").asDouble()
                            || it.get("weak").asBoolean() != prev.get("weak").asBoolean(),
                    "ranked by score: " + docker.get("items"));
            perSession.merge(it.path("session_id").asString(""), 1, Integer::sum);
        }
        String session = "20260808_074300_bc9e28"; // the fixture's Docker build-cache conversation
        JsonNode others = valid(
                "recall_search",
                Tools.registry()
                        .invoke(
                                "recall_search",
                                args("{\"query\":\"docker build cache\",\"k\":10,\"exclude_session_id\":\"" + session
                                        + "\"}"),
                                c));
        for (JsonNode it : others.get("items"))
            assertFalse(it.get("uri").asString().contains(session), "excluded: " + it);
        JsonNode skills = valid(
                "recall_search",
                Tools.registry()
                        .invoke("recall_search", args("{\"query\":\"housekeeping\",\"scopes\":[\"skills\"]}"), c));
        assertFalse(skills.get("items").isEmpty());
        for (JsonNode it : skills.get("items"))
            assertTrue(it.get("uri").asString().startsWith("steward://skill/"), it.toString());
        JsonNode august = valid(
                "recall_search",
                Tools.registry()
                        .invoke(
                                "recall_search",
                                args(
                                        "{\"query\":\"docker build cache\",\"since\":\"2026-08-01\",\"until\":\"2026-08-31\"}"),
                                c));
        assertFalse(august.get("items").isEmpty());
        for (JsonNode it : august.get("items")) {
            String ts = it.path("timestamp").isString() ? it.get("timestamp").asString() : "";
            assertTrue(ts.isEmpty() || ts.startsWith("2026-08"), "within since/until: " + it);
        }
        ToolResult text =
                Tools.registry().invoke("recall_search", args("{\"query\":\"docker build cache\",\"k\":3}"), c);
        assertTrue(text.text().startsWith("good match: 3 item(s) for \"docker build cache\""), text.text());
        assertTrue(
                text.text().contains(docker.get("items").get(0).get("uri").asString()),
                "the text names what the record holds");
    }
}
