package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.Work;
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
        ToolResult r = Tools.registry().invoke("session_inspect",
                Json.MAPPER.readTree("{\"session_ids\":[\"20260801_090000_b1111a\",\"20260801_113000_e4444d\",\"20260801_110200_d3333c\"]}"), ctx);
        assertTrue(!r.isError(), r.text());
        JsonNode n = ToolRegistry.toJson(r.structured());
        assertEquals(java.util.List.of(), Schemas.validate("session_inspect.output.json", n));
        assertEquals(3, n.get("sessions").size());
        assertEquals(2, n.get("sessions").get(0).get("tools").get("failures").asInt());
        assertTrue(r.text().startsWith("Session 20260801_090000_b1111a — \"Refactor the billing module\""), r.text());
        assertTrue(r.text().length() < 3000, r.text().length() + " characters for three sessions");
    }

    @Test
    void argumentsAreCheckedAndHintsSayReadOnly() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode ok = t.ok("session_inspect", "{\"session_id\":\"20260804_073200_c08a58\"}");
        assertEquals("20260805_084400_6e8cd9", ok.get("sessions").get(0).get("lineage").get("compressed_into").asString());
        assertTrue(t.call("session_inspect", "{}").isError(), "neither id");
        assertTrue(t.call("session_inspect", "{\"session_id\":\"a\",\"session_ids\":[\"b\"]}").isError(), "both");
        assertTrue(t.call("session_inspect", "{\"session_id\":\"nope\"}").text().contains("no session nope"));
        assertTrue(t.call("session_inspect", "{\"session_ids\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\"]}").isError());
        assertTrue(t.call("session_inspect", "{\"session_id\":\"x\",\"gap_minutes\":0}").isError());
        var tool = t.registry.find("session_inspect").orElseThrow();
        assertTrue(tool.hints().readOnly() && tool.hints().idempotent() && !tool.hints().destructive());
        assertTrue(tool.spec().description().length() <= 450, tool.spec().description().length() + " characters");
    }

    @Test
    void theClaudeCodeStoreIsRefusedClearlyAndNothingIsRead() throws Exception {
        Path claude = ClaudeTestHomes.install(tmp, false);
        var before = ClaudeTestHomes.tree(claude);
        String claudeId = ClaudeTestHomes.manifest().get("current_session_id").asString();
        Path hermes = tmp.resolve("hermes");
        Files.createDirectories(hermes);
        Files.copy(TestHomes.repo().resolve("fixtures/forensics-home/state.db"), hermes.resolve("state.db"));
        ToolContext both = new ToolContext(StewardPaths.of(hermes, claude), Clock.systemUTC(), Work.NONE);
        ToolResult asked = Tools.registry().invoke("session_inspect",
                Json.MAPPER.readTree("{\"session_id\":\"" + claudeId + "\",\"store\":\"claude\"}"), both);
        assertTrue(asked.isError());
        assertEquals("session_inspect: Claude Code sessions cannot be inspected yet (Hermes sessions only)", asked.text());
        ToolResult byId = Tools.registry().invoke("session_inspect", Json.MAPPER.readTree("{\"session_id\":\"" + claudeId + "\"}"), both);
        assertTrue(byId.isError());
        assertEquals("session_inspect: " + claudeId + " is a Claude Code session: Claude Code sessions cannot be inspected yet (Hermes sessions only)",
                byId.text());
        ToolResult hermesStill = Tools.registry().invoke("session_inspect",
                Json.MAPPER.readTree("{\"session_id\":\"20260801_090000_b1111a\",\"store\":\"hermes\"}"), both);
        assertTrue(!hermesStill.isError(), hermesStill.text());
        ToolContext claudeOnly = new ToolContext(ClaudeTestHomes.claudeOnly(tmp, claude), Clock.systemUTC(), Work.NONE);
        ToolResult none = Tools.registry().invoke("session_inspect", Json.MAPPER.readTree("{\"session_id\":\"" + claudeId + "\"}"), claudeOnly);
        assertTrue(none.isError());
        assertTrue(none.text().startsWith("session_inspect: no Hermes state.db at ") && none.text().endsWith(
                "; Claude Code sessions cannot be inspected yet (Hermes sessions only)"), none.text());
        assertEquals(before, ClaudeTestHomes.tree(claude));
    }
}
