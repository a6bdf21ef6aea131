package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.memory.lifecycle.LogWriter;
import steward.server.Schemas;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.testing.ClaudeTestHomes;
import steward.testing.RealHermes;
import tools.jackson.databind.JsonNode;

/** memory_log, memory_health, memory_consolidate and memory_history through the registry, results checked against their schemas. */
class MemoryLifecycleToolsTest {
    @TempDir
    Path tmp;

    @Test
    void logConsolidateAndRollBackThroughTheTools() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path mem = t.home.resolve("memories/MEMORY.md");
        byte[] original = Files.readAllBytes(mem);
        JsonNode log = t.ok("memory_log", "{\"note\": \"User prefers pnpm over npm for every JS project\"}");
        assertTrue(log.path("written").asBoolean());
        JsonNode again = t.ok("memory_log", "{\"note\": \"Another note right away\"}");
        assertEquals("cooldown", again.path("refused").asString());

        JsonNode health = t.ok("memory_health", "{}");
        assertEquals(health.path("indicators").size(), 10);

        JsonNode g = t.ok("memory_consolidate", "{}");
        String ref = g.path("days").get(0).path("lines").get(0).path("ref").asString();
        JsonNode plan = t.ok(
                "memory_consolidate",
                "{\"step\": \"plan\", \"through\": \"" + g.path("through").asString() + "\", \"proposals\": ["
                        + "{\"text\": \"[env] pnpm, not npm, for JS projects\", \"kind\": \"preference\", \"evidence\": [\""
                        + ref + "\"]}]}");
        assertTrue(plan.path("files")
                .get(0)
                .path("diff")
                .asString()
                .contains("+[0.3] [env] pnpm, not npm, for JS projects"));
        assertArrayEquals(original, Files.readAllBytes(mem), "a plan changes nothing");
        JsonNode applied = t.ok(
                "memory_consolidate", "{\"plan_id\": \"" + plan.path("plan_id").asString() + "\"}");
        assertTrue(applied.path("applied").asBoolean());
        assertTrue(Files.readString(mem).endsWith("\n§\n[0.3] [env] pnpm, not npm, for JS projects"));

        JsonNode list = t.ok("memory_history", "{\"file\": \"memories/MEMORY.md\"}");
        assertEquals(2, list.path("total").asInt(), "the bytes Steward first saw, then the consolidation");
        String first = list.path("versions").get(1).path("id").asString();
        JsonNode diff = t.ok(
                "memory_history",
                "{\"action\": \"diff\", \"file\": \"memories/MEMORY.md\", \"from\": \"" + first + "\"}");
        assertTrue(
                diff.path("diff").asString().contains("+[0.3] [env] pnpm, not npm, for JS projects"), diff.toString());
        assertTrue(
                diff.path("diff").asString().contains("+[0.5] [base] When a rule fails"),
                "unprefixed entries read as [0.5] and get the prefix");
        String rollback = "{\"action\": \"rollback\", \"file\": \"memories/MEMORY.md\", \"version\": \"" + first + "\"";
        byte[] consolidated = Files.readAllBytes(mem);
        JsonNode asked = t.ok("memory_history", rollback + "}");
        assertTrue(asked.path("needs_confirm").asBoolean(), asked.toString());
        assertFalse(asked.path("changed").asBoolean());
        assertTrue(
                asked.path("would_remove").toString().contains("[0.3] [env] pnpm, not npm, for JS projects"),
                asked.toString());
        assertArrayEquals(consolidated, Files.readAllBytes(mem), "nothing rolled back without confirm");
        ToolResult doneText = t.call("memory_history", rollback + ", \"confirm\": true}");
        assertTrue(doneText.text().contains("\nwarning: ") && !doneText.text().contains("\n\n"), doneText.text());
        JsonNode done = ToolRegistry.toJson(doneText.structured());
        assertEquals(List.of(), Schemas.validate("memory_history.output.json", done));
        assertTrue(done.path("changed").asBoolean());
        assertTrue(done.path("removed_entries").toString().contains("[0.3] [env] pnpm, not npm, for JS projects"));
        assertArrayEquals(original, Files.readAllBytes(mem));
        // the consolidation marked its log lines processed: the rollback says where the facts it took still are
        for (JsonNode r : new JsonNode[] {asked, done}) {
            assertEquals(1, r.path("warnings").size(), r.toString());
            String w = r.path("warnings").get(0).asString();
            assertTrue(w.contains("memory_consolidate") && w.contains("memories/logs/"), w);
            assertTrue(w.contains(list.path("versions").get(0).path("id").asString()), "names the consolidation: " + w);
        }
        // back to the consolidation's own version: nothing it did is undone, no warning; the entries it gives a prefix
        // ([0.5] x for x) are the same facts, not removed and restored
        String consolidation = list.path("versions").get(0).path("id").asString();
        JsonNode forward = t.ok(
                "memory_history",
                "{\"action\": \"rollback\", \"file\": \"memories/MEMORY.md\", \"version\": \"" + consolidation
                        + "\", \"confirm\": true}");
        assertTrue(forward.path("changed").asBoolean(), forward.toString());
        assertEquals("[]", forward.path("removed_entries").toString(), forward.toString());
        assertEquals(0, forward.path("warnings").size(), forward.toString());
        assertArrayEquals(consolidated, Files.readAllBytes(mem));
    }

    /**
     * Review of 2026-12-05 (the repro): stewA by memory_write, an entry by Hermes' own memory tool, stewB by memory_write;
     * a rollback to the version holding stewA only removed the other two and said just "restored … as version …". Now
     * it changes nothing, names them and asks for confirm: true; confirmed, it names what it removed.
     */
    @Test
    void aRollbackThatWouldRemoveEntriesAsksFirstAndNamesThem() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path mem = t.home.resolve("memories/MEMORY.md");
        rollbackAsksFirst(t, () -> Files.writeString(mem, Files.readString(mem) + "\n§\nhermesH1-0"));
    }

    /** The same with the entry written by Hermes' real memory tool (skipped without ../shared or python3 + PyYAML). */
    @Test
    void aRollbackOverAnEntryOfHermesRealMemoryToolAsksFirst() throws Exception {
        RealHermes hermes = RealHermes.require();
        Path writer = hermes.source().resolveSibling("tools/hermes_memory_writer.py");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(writer), "no " + writer + ": skipped");
        ToolTestSupport t = new ToolTestSupport(tmp);
        rollbackAsksFirst(t, () -> {
            ProcessBuilder pb =
                    new ProcessBuilder("python3", writer.toString(), "1", "hermesH1").redirectErrorStream(true);
            pb.environment().put("HERMES_HOME", t.home.toString());
            pb.environment().put("HERMES_SRC", hermes.source().toString());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals("hermesH1: 1 added, 0 failed", out);
        });
    }

    interface HermesWrite {
        void run() throws Exception;
    }

    private static void rollbackAsksFirst(ToolTestSupport t, HermesWrite hermes) throws Exception {
        Path mem = t.home.resolve("memories/MEMORY.md");
        t.ok("memory_write", "{\"action\": \"add\", \"content\": \"stewA\"}");
        hermes.run();
        t.ok("memory_write", "{\"action\": \"add\", \"content\": \"stewB\"}");
        JsonNode list = t.ok("memory_history", "{\"file\": \"memories/MEMORY.md\"}");
        String stewA = list.path("versions").get(1).path("id").asString();
        assertTrue(list.path("versions").get(1).path("message").asString().startsWith("memory_write: add"));
        byte[] now = Files.readAllBytes(mem);
        String rollback = "{\"action\": \"rollback\", \"file\": \"memories/MEMORY.md\", \"version\": \"" + stewA + "\"";

        ToolResult asked = t.call("memory_history", rollback + "}");
        assertFalse(asked.isError(), asked.text());
        JsonNode a = t.ok("memory_history", rollback + "}");
        assertFalse(a.path("changed").asBoolean());
        assertTrue(a.path("needs_confirm").asBoolean());
        assertEquals("[\"hermesH1-0\",\"stewB\"]", a.path("would_remove").toString());
        assertEquals(0, a.path("would_restore").size());
        assertTrue(asked.text().contains("hermesH1-0") && asked.text().contains("stewB"), asked.text());
        assertTrue(asked.text().contains("confirm: true"), asked.text());
        assertArrayEquals(now, Files.readAllBytes(mem), "nothing changed");
        assertEquals(
                list.path("total").asInt(),
                t.ok("memory_history", "{\"file\": \"memories/MEMORY.md\"}")
                        .path("total")
                        .asInt(),
                "and no version was made");

        ToolResult done = t.call("memory_history", rollback + ", \"confirm\": true}");
        assertFalse(done.isError(), done.text());
        JsonNode d = ToolRegistry.toJson(done.structured());
        assertEquals(List.of(), Schemas.validate("memory_history.output.json", d));
        assertTrue(d.path("changed").asBoolean());
        assertEquals("[\"hermesH1-0\",\"stewB\"]", d.path("removed_entries").toString());
        assertTrue(done.text().contains("removed 2 entries") && done.text().contains("hermesH1-0"), done.text());
        assertTrue(Files.readString(mem).endsWith("\n§\nstewA"), Files.readString(mem));
        assertEquals(0, d.path("warnings").size());
    }

    @Test
    void numbersTheTextsQuoteAreTheConstants() {
        String note = Schemas.input("memory_log")
                .path("properties")
                .path("note")
                .path("description")
                .asString();
        assertTrue(note.contains("≤ " + LogWriter.MAX_CHARS + " chars"), note);
        for (String tool : new String[] {"memory_log", "memory_health", "memory_consolidate", "memory_history"}) {
            String d = Tools.registry().tools().stream()
                    .filter(x -> x.name().equals(tool))
                    .findFirst()
                    .orElseThrow()
                    .description();
            assertTrue(d.length() <= 450, tool + " description is " + d.length() + " characters");
        }
    }

    /**
     * Probe: a rollback to the last recorded version over an edit made outside Steward (not recorded: record_external
     * off) restored the bytes but made no new version, and the text read "as version null".
     */
    @Test
    void aRollbackThatMakesNoNewVersionSaysSo() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path mem = t.home.resolve("memories/MEMORY.md");
        t.ok("memory_write", "{\"action\": \"add\", \"content\": \"[env] recorded entry\"}");
        byte[] recorded = Files.readAllBytes(mem);
        Files.writeString(mem, Files.readString(mem) + "\n§\n[env] hand edit");
        String last = t.ok("memory_history", "{\"file\": \"memories/MEMORY.md\"}")
                .path("versions")
                .get(0)
                .path("id")
                .asString();
        String rollback = "{\"action\": \"rollback\", \"file\": \"memories/MEMORY.md\", \"version\": \"" + last + "\"";
        ToolResult asked = t.call("memory_history", rollback + "}");
        assertTrue(asked.text().contains("[env] hand edit") && asked.text().contains("confirm: true"), asked.text());
        ToolResult r = t.call("memory_history", rollback + ", \"confirm\": true}");
        assertFalse(r.isError(), r.text());
        assertArrayEquals(recorded, Files.readAllBytes(mem));
        assertFalse(r.text().contains("null"), r.text());
        assertTrue(r.text().contains("backed up at "), r.text());
    }

    /**
     * Probe: memory_history list took version, from and to and ignored them (a list "of version X" listed every
     * version); rollback ignored from and to. Each is refused, naming the actions it is for, and nothing is written.
     */
    @Test
    void argumentsTheActionDoesNotUseAreRefusedNotIgnored() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        for (String[] c : new String[][] {
            {"{\"file\": \"memories/MEMORY.md\", \"version\": \"abc123\"}", "version is only for diff and rollback"},
            {"{\"action\": \"list\", \"file\": \"memories/MEMORY.md\", \"from\": \"abc123\"}", "from is only for diff"},
            {"{\"file\": \"memories/MEMORY.md\", \"to\": \"abc123\"}", "to is only for diff"},
            {
                "{\"action\": \"rollback\", \"file\": \"memories/MEMORY.md\", \"version\": \"abc123\", \"to\": \"def\"}",
                "to is only for diff"
            },
            {"{\"file\": \"memories/MEMORY.md\", \"confirm\": true}", "confirm is only for rollback"},
            {
                "{\"action\": \"diff\", \"file\": \"memories/MEMORY.md\", \"from\": \"abc123\", \"confirm\": false}",
                "confirm is only for rollback"
            },
        }) {
            ToolResult r = t.call("memory_history", c[0]);
            assertTrue(r.isError(), c[0] + " → " + r.text());
            assertTrue(r.text().startsWith("memory_history: " + c[1]), r.text());
        }
        assertFalse(Files.exists(t.home.resolve("steward")), "nothing written");
        assertFalse(t.call("memory_history", "{\"file\": \"memories/MEMORY.md\", \"limit\": 5}")
                .isError());
    }

    /**
     * Probe: on a home with Claude Code only, memory_health reported Hermes' absent MEMORY.md as "ok, 0 chars" and
     * memory_history listed "0 version(s)", as if an empty Hermes memory were there. Each says there is no Hermes home
     * (as memory_log and memory_consolidate do, and steward_status's warning), and nothing is created.
     */
    @Test
    void withAClaudeCodeHomeOnlyHealthHistoryAndConsolidateSayThereIsNoHermesHome() throws Exception {
        Path claude = ClaudeTestHomes.install(tmp, false);
        StewardPaths paths = ClaudeTestHomes.claudeOnly(tmp, claude);
        ToolContext ctx = new ToolContext(paths, Clock.fixed(ToolTestSupport.NOW, ZoneOffset.UTC), Work.NONE);
        boolean stateDirBefore = Files.exists(paths.stateDir());
        for (String[] c : new String[][] {
            {"memory_health", "{}"},
            {"memory_history", "{\"file\": \"memories/MEMORY.md\"}"},
            {"memory_history", "{\"action\": \"diff\", \"file\": \"memories/USER.md\", \"from\": \"abc123\"}"},
            {"memory_history", "{\"action\": \"rollback\", \"file\": \"memories/MEMORY.md\", \"version\": \"abc123\"}"},
            {"memory_consolidate", "{\"step\": \"gather\"}"},
            {"memory_consolidate", "{\"step\": \"plan\", \"proposals\": []}"},
        }) {
            ToolResult r = Tools.registry().invoke(c[0], Json.MAPPER.readTree(c[1]), ctx);
            assertTrue(r.isError(), c[0] + " " + c[1] + " → " + r.text());
            assertTrue(r.text().startsWith(c[0] + ": no Hermes home at " + paths.hermesHome()), r.text());
        }
        assertFalse(Files.exists(paths.hermesHome()), "no Hermes home is created");
        assertEquals(stateDirBefore, Files.exists(paths.stateDir()), "nothing written");
        ToolResult status = Tools.registry().invoke("steward_status", Json.MAPPER.readTree("{}"), ctx);
        assertTrue(status.text().contains("hermes home: " + paths.hermesHome() + " does not exist"), status.text());
    }

    /** A Hermes home without MEMORY.md yet: memory_health says so, not only "0 chars". */
    @Test
    void aHermesHomeWithoutMemoryFileSaysSoInItsHealth() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Files.delete(t.home.resolve("memories/MEMORY.md"));
        JsonNode health = t.ok("memory_health", "{}");
        assertEquals("memory_size", health.path("indicators").get(0).path("id").asString());
        assertEquals(
                "0 chars (no MEMORY.md yet)",
                health.path("indicators").get(0).path("value").asString(),
                health.toString());
    }

    @Test
    void badArgumentsAreErrorsThatChangeNothing() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        for (String[] c : new String[][] {
            {"memory_log", "{\"note\": \"" + "x".repeat(241) + "\"}"},
            {"memory_consolidate", "{\"plan_id\": \"nope\"}"},
            {
                "memory_consolidate",
                "{\"step\": \"plan\", \"proposals\": [{\"text\": \"x y z\", \"kind\": \"fact\", \"evidence\": [\"log:2026-01-01#1\"]}]}"
            },
            {"memory_history", "{\"file\": \"../state.db\"}"},
            {"memory_history", "{\"action\": \"rollback\", \"file\": \"memories/MEMORY.md\"}"}
        }) {
            ToolResult r = t.call(c[0], c[1]);
            assertTrue(r.isError(), c[0] + " " + c[1]);
            assertTrue(r.text().startsWith(c[0] + ": "), r.text());
        }
        assertFalse(Files.exists(t.home.resolve("memories/logs")));
    }

    /**
     * Review: with nothing unprocessed, gather answered {@code "through": null}, and that value passed back to plan was
     * refused ("/through: null found, string expected"). Gather's through goes back to plan as it came.
     */
    @Test
    void gathersThroughGoesBackToPlanAsItCameWhenNothingIsUnprocessed() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode g = t.ok("memory_consolidate", "{\"step\": \"gather\"}");
        assertEquals(0, g.path("excerpts").asInt(), g.toString());
        assertTrue(g.has("through") && g.path("through").isString(), g.toString());
        tools.jackson.databind.node.ObjectNode args = Json.MAPPER.createObjectNode();
        args.put("step", "plan");
        args.set("through", g.get("through"));
        args.putArray("proposals");
        JsonNode plan = t.ok("memory_consolidate", args.toString());
        assertTrue(plan.path("plan_id").asString().startsWith("mc_"), plan.toString());
    }
}
