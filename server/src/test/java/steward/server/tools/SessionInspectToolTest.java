package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.claude.fixture.ClaudeHomeFixture;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.Schemas;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

class SessionInspectToolTest {
    @TempDir
    Path tmp;

    @Test
    void theForensicsFixtureValidatesAndTheTextSummarises() throws Exception {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        Files.copy(TestHomes.repo().resolve("fixtures/forensics-home/state.db"), home.resolve("state.db"));
        ToolContext ctx = new ToolContext(StewardPaths.of(home), Clock.systemUTC(), Work.NONE);
        ToolResult r = Tools.registry()
                .invoke(
                        "session_inspect",
                        Json.MAPPER.readTree(
                                "{\"session_ids\":[\"20260801_090000_b1111a\",\"20260801_113000_e4444d\",\"20260801_110200_d3333c\"]}"),
                        ctx);
        assertTrue(!r.isError(), r.text());
        JsonNode n = ToolRegistry.toJson(r.structured());
        assertEquals(List.of(), Schemas.validate("session_inspect.output.json", n));
        assertEquals(3, n.get("sessions").size());
        assertEquals(2, n.get("sessions").get(0).get("tools").get("failures").asInt());
        assertTrue(r.text().startsWith("Session 20260801_090000_b1111a — \"Refactor the billing module\""), r.text());
        assertTrue(r.text().length() < 3000, r.text().length() + " characters for three sessions");
    }

    @Test
    void argumentsAreCheckedAndHintsSayReadOnly() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode ok = t.ok("session_inspect", "{\"session_id\":\"20260804_073200_c08a58\"}");
        assertEquals(
                "20260805_084400_6e8cd9",
                ok.get("sessions").get(0).get("lineage").get("compressed_into").asString());
        assertTrue(t.call("session_inspect", "{}").isError(), "neither id");
        assertTrue(
                t.call("session_inspect", "{\"session_id\":\"a\",\"session_ids\":[\"b\"]}")
                        .isError(),
                "both");
        assertTrue(t.call("session_inspect", "{\"session_id\":\"nope\"}").text().contains("no session nope"));
        assertTrue(t.call("session_inspect", "{\"session_ids\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\"]}")
                .isError());
        assertTrue(t.call("session_inspect", "{\"session_id\":\"x\",\"gap_minutes\":0}")
                .isError());
        var tool = t.registry.find("session_inspect").orElseThrow();
        assertTrue(tool.hints().readOnly()
                && tool.hints().idempotent()
                && !tool.hints().destructive());
        assertTrue(
                tool.spec().description().length() <= 450,
                tool.spec().description().length() + " characters");
    }

    @Test
    void claudeCodeSessionsAreServedByStoreOrByIdAndNothingIsWritten() throws Exception {
        Path claude = ClaudeTestHomes.install(tmp, false);
        var before = ClaudeTestHomes.tree(claude);
        String tools = "37675f34-b941-36c6-ac2b-02e6ad25bf26"; // E1, "Deploy script fixes"
        Path hermes = tmp.resolve("hermes");
        Files.createDirectories(hermes);
        Files.copy(TestHomes.repo().resolve("fixtures/forensics-home/state.db"), hermes.resolve("state.db"));
        Clock at = Clock.fixed(ClaudeHomeFixture.NOW, ZoneOffset.UTC);
        ToolContext both = new ToolContext(StewardPaths.of(hermes, claude), at, Work.NONE);
        for (String args : List.of(
                "{\"session_id\":\"" + tools + "\",\"store\":\"claude\"}", "{\"session_id\":\"" + tools + "\"}")) {
            ToolResult r = Tools.registry().invoke("session_inspect", Json.MAPPER.readTree(args), both);
            assertTrue(!r.isError(), r.text());
            JsonNode n = ToolRegistry.toJson(r.structured());
            assertEquals(List.of(), Schemas.validate("session_inspect.output.json", n));
            assertEquals("claude_code", n.get("store").asString());
            JsonNode s = n.get("sessions").get(0);
            assertEquals(5, s.get("tools").get("calls").asInt());
            assertEquals(1, s.get("tools").get("failures").asInt());
            assertEquals(1820, s.get("usage").get("input_tokens").asInt());
            assertTrue(r.text().startsWith("Session " + tools + " — \"Deploy script fixes\""), r.text());
        }
        ToolResult hermesStill = Tools.registry()
                .invoke("session_inspect", Json.MAPPER.readTree("{\"session_id\":\"20260801_090000_b1111a\"}"), both);
        assertTrue(!hermesStill.isError(), hermesStill.text());
        assertEquals(
                "hermes",
                ToolRegistry.toJson(hermesStill.structured()).get("store").asString());
        ToolResult wrongStore = Tools.registry()
                .invoke(
                        "session_inspect",
                        Json.MAPPER.readTree("{\"session_id\":\"" + tools + "\",\"store\":\"hermes\"}"),
                        both);
        assertTrue(wrongStore.isError());
        assertEquals("session_inspect: no session " + tools + " in the hermes store", wrongStore.text());
        ToolContext claudeOnly = new ToolContext(
                StewardPaths.resolve(
                        null,
                        claude.toString(),
                        null,
                        Map.of("HOME", tmp.resolve("user").toString())),
                at,
                Work.NONE);
        ToolResult only = Tools.registry()
                .invoke("session_inspect", Json.MAPPER.readTree("{\"session_id\":\"" + tools + "\"}"), claudeOnly);
        assertTrue(!only.isError(), only.text());
        assertEquals(before, ClaudeTestHomes.tree(claude));
    }

    /**
     * A Claude Code subagent, given by the id Steward reports for it ({@code <session>/agent-<id>}, both layouts), is found
     * without {@code store} next to a Hermes home: it was looked for as {@code projects/<p>/<id>.jsonl} only, so the call
     * answered "no session ... in the hermes store".
     */
    @Test
    void claudeSubagentIdsAreFoundWithoutStore() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp, true);
        for (String id : List.of(
                "68149f26-9a2d-3d96-8f09-abfc0ece24b6/agent-a1f0c2d94b7e", // <session>/subagents/agent-*.jsonl
                "dc412e7b-431d-3d2d-8d4f-4585bbc7ea74/agent-7d3e9a1c")) { // older project-level agent-*.jsonl
            JsonNode n = t.ok("session_inspect", "{\"session_id\":\"" + id + "\"}");
            assertEquals("claude_code", n.get("store").asString());
            assertEquals(id, n.get("sessions").get(0).get("session_id").asString());
        }
    }

    /**
     * Ids of both stores in one call (as a two-home audit lists them): the Hermes session is inspected, and the text says
     * which of the ids it could not find are Claude Code sessions and how to ask for them, instead of a bare "Not found".
     */
    @Test
    void idsOfBothStoresInOneCallNameTheClaudeOnes() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp, true);
        String claude = "37675f34-b941-36c6-ac2b-02e6ad25bf26";
        ToolResult r = t.call(
                "session_inspect", "{\"session_ids\":[\"20260611_071400_6471fd\",\"" + claude + "\",\"nope_123\"]}");
        assertTrue(!r.isError(), r.text());
        JsonNode n = ToolRegistry.toJson(r.structured());
        assertEquals("hermes", n.get("store").asString());
        assertEquals(List.of(claude, "nope_123"), Json.MAPPER.convertValue(n.get("not_found"), List.class));
        assertTrue(
                r.text()
                        .endsWith(
                                "\n" + claude + " is a Claude Code session: call again with store \"claude\" (one store"
                                        + " per call)."),
                r.text());
        ToolResult hermesOnly =
                t.call("session_inspect", "{\"session_ids\":[\"20260611_071400_6471fd\",\"nope_123\"]}");
        assertTrue(!hermesOnly.text().contains("Claude Code session"), hermesOnly.text());
        ToolResult asked = t.call(
                "session_inspect",
                "{\"session_ids\":[\"20260611_071400_6471fd\",\"" + claude + "\"],\"store\":\"hermes\"}");
        assertTrue(!asked.text().contains("call again"), asked.text());
    }
}
