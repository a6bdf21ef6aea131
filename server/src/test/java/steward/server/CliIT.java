package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The headless CLI, run as a child process: JSON on stdout and the documented exit codes. */
class CliIT {
    @TempDir
    Path tmp;

    record Run(int exit, String stdout, String stderr) {}

    Run run(String stdin, String... args) throws Exception {
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = new ProcessBuilder(StewardProcess.command(args))
                .redirectError(err.toFile())
                .start();
        try (var in = p.getOutputStream()) {
            if (stdin != null) in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(p.exitValue(), out, Files.readString(err));
    }

    @Test
    void theShippedJarHoldsNeitherBenchmarksNorConformanceFixtures() throws Exception {
        Run bench = run(null, "bench", "startup");
        assertEquals(2, bench.exit(), bench.stdout() + bench.stderr());
        Run benchAlone = run(null, "bench");
        assertEquals(2, benchAlone.exit());
        assertTrue(benchAlone.stderr().contains("./steward bench"), benchAlone.stderr());
        Run fixtures = run(null, "serve", "--conformance-fixtures", "--hermes-home", tmp.toString());
        assertEquals(2, fixtures.exit());
        assertTrue(fixtures.stderr().contains("--conformance-fixtures needs the bench module"), fixtures.stderr());
        try (JarFile jar = new JarFile(StewardProcess.jar().toFile())) {
            assertTrue(
                    jar.stream()
                            .noneMatch(e -> e.getName().startsWith("steward/bench/")
                                    || e.getName().startsWith("steward/conformance/")),
                    "no benchmark or fixture class in the shipped jar");
            assertEquals(
                    "steward.cli.Main", jar.getManifest().getMainAttributes().getValue("Main-Class"));
        }
    }

    @Test
    void callPrintsTheStructuredResultAndExitsZero() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Run r = run(null, "call", "steward_status", "{}", "--hermes-home", home.toString());
        assertEquals(0, r.exit(), r.stderr());
        JsonNode n = Json.MAPPER.readTree(r.stdout());
        assertEquals(62, n.get("sessions").get("total").asInt());
    }

    @Test
    void argumentsFromStdinAndFromAFile() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        assertEquals(
                0,
                run("{}", "call", "steward_status", "-", "--hermes-home", home.toString())
                        .exit());
        Path f = tmp.resolve("args.json");
        Files.writeString(f, "{}");
        assertEquals(
                0,
                run(null, "call", "steward_status", "@" + f, "--hermes-home", home.toString())
                        .exit());
    }

    @Test
    void anErrorResultExitsOne() throws Exception {
        Run r = run(
                null,
                "call",
                "steward_status",
                "--hermes-home",
                tmp.resolve("missing").toString());
        assertEquals(1, r.exit());
        JsonNode n = Json.MAPPER.readTree(r.stdout());
        assertTrue(n.get("isError").asBoolean());
        assertTrue(n.get("message").asString().startsWith("steward_status: hermes home: "));
    }

    @Test
    void usageErrorsExitTwo() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        for (List<String> args : List.of(
                List.of("call", "steward_status", "{not json", "--hermes-home", home.toString()),
                List.of("call", "no_such_tool", "{}", "--hermes-home", home.toString()),
                List.of("call"),
                List.of("frobnicate"))) {
            Run r = run(null, args.toArray(String[]::new));
            assertEquals(2, r.exit(), args + " → " + r.stderr());
        }
    }

    @Test
    void demoWalksThroughOnATemporaryCopy() throws Exception {
        Run r = run(null, "demo");
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(r.stdout().contains("Sessions:    62"), r.stdout());
        assertTrue(
                Files.notExists(TestHomes.repo().resolve("fixtures/hermes-home/steward")),
                "the fixture itself is untouched");
    }

    @Test
    void toolsListsEveryRegisteredTool() throws Exception {
        Run r = run(null, "tools", "--names");
        assertEquals(0, r.exit());
        assertEquals(
                Tools.registry().tools().stream().map(t -> t.name()).toList(),
                r.stdout().lines().toList());
    }

    @Test
    void anArgumentsFileIsReadWholeEvenWithSpacesInItsJson() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path f = tmp.resolve("write.json");
        Files.writeString(
                f,
                "{ \"target\": \"memory\", \"action\": \"add\",\n  \"content\": \"[ops] a fact read from a file, spaces and all\" }");
        Run r = run(null, "call", "memory_write", "@" + f, "--hermes-home", home.toString());
        assertEquals(0, r.exit(), r.stdout() + r.stderr());
        assertTrue(Files.readString(home.resolve("memories/MEMORY.md"))
                .contains("a fact read from a file, spaces and all"));
    }

    @Test
    void everyCommandHasHelpAndTheCommonOptionsBeforeOrAfterItsName() throws Exception {
        for (String command : List.of("serve", "call", "tools", "demo", "bench")) {
            Run help = run(null, command, "--help");
            assertEquals(0, help.exit(), command + ": " + help.stderr());
            for (String o : List.of("--hermes-home", "--claude-home", "--state-dir", "--log-level"))
                assertTrue(help.stdout().contains(o), command + " --help: " + help.stdout());
        }
        Path home = TestHomes.copyFixture(tmp);
        Path state = tmp.resolve("elsewhere");
        Path claude = ClaudeTestHomes.install(tmp, false);
        Run after = run(
                null,
                "call",
                "steward_status",
                "--hermes-home",
                home.toString(),
                "--claude-home",
                claude.toString(),
                "--state-dir",
                state.toString());
        Run before = run(
                null,
                "--hermes-home",
                home.toString(),
                "--claude-home",
                claude.toString(),
                "--state-dir",
                state.toString(),
                "call",
                "steward_status");
        for (Run r : List.of(after, before)) {
            assertEquals(0, r.exit(), r.stderr());
            JsonNode paths = Json.MAPPER.readTree(r.stdout()).get("paths");
            assertEquals(state.toString(), paths.get("state_dir").get("path").asString(), paths.toString());
            assertEquals("flag", paths.get("state_dir").get("origin").asString());
            assertEquals(claude.toString(), paths.get("claude_home").get("path").asString(), paths.toString());
            assertEquals("flag", paths.get("claude_home").get("origin").asString());
        }
        Run tools = run(null, "tools", "--names", "--hermes-home", home.toString());
        assertEquals(0, tools.exit(), tools.stderr());
        Run demo = run(null, "demo", "--help", "--state-dir", state.toString());
        assertTrue(demo.stderr().contains("--state-dir is not used by this command"), demo.stderr());
    }

    @Test
    void textPrintsWhatTheAgentReads() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Run r = run(null, "call", "steward_status", "--text", "--hermes-home", home.toString());
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(r.stdout().startsWith("Hermes home: " + home), r.stdout());
        Run err = run(
                null,
                "call",
                "session_restore",
                "{\"backup_id\":\"b_20260101T000000Z_abcdef\"}",
                "--text",
                "--hermes-home",
                home.toString());
        assertEquals(1, err.exit());
        assertTrue(err.stdout().startsWith("session_restore: "), err.stdout());
    }

    @Test
    void progressOfALongCallGoesToStderrLineByLine() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Run r = run(
                null,
                "call",
                "session_audit",
                "{\"now\":\"2026-08-10T12:00:00Z\"}",
                "--progress",
                "always",
                "--hermes-home",
                home.toString());
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(Json.MAPPER.readTree(r.stdout()).has("plan_id"), "stdout holds the result only");
        List<String> lines = r.stderr().lines().toList();
        assertTrue(lines.contains("steward call session_audit: [ 25%] classifying 62 sessions"), r.stderr());
        assertTrue(lines.stream().allMatch(l -> l.startsWith("steward call session_audit: [")), r.stderr());
        Run quiet = run(
                null,
                "call",
                "session_audit",
                "{\"now\":\"2026-08-10T12:00:00Z\"}",
                "--progress",
                "never",
                "--hermes-home",
                home.toString());
        assertEquals("", quiet.stderr());
    }

    @Test
    void stderrCarriesStewardsOwnLinesOnlyAtTheLevelAsked() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        // the first recall call loads the embedding model: no CUDA probe or tokenizer warnings
        Run search = run(
                null,
                "call",
                "recall_search",
                "{\"query\":\"docker build cache\",\"k\":1}",
                "--hermes-home",
                home.toString());
        assertEquals(0, search.exit(), search.stderr());
        assertTrue(
                search.stderr().lines().allMatch(l -> l.startsWith("steward call recall_search: ")),
                "progress lines only: " + search.stderr());
        assertTrue(!search.stderr().contains("CUDA") && !search.stderr().contains("maxLength"), search.stderr());
        Run info = run("", "serve", "--hermes-home", home.toString());
        assertTrue(info.stderr().contains("serving on stdio"), info.stderr());
        Run warn = run("", "serve", "--hermes-home", home.toString(), "--log-level", "warn");
        assertEquals("", warn.stderr());
    }

    @Test
    void backupsListsWhatRetentionKeepsAndDiscardingTheOnlyCopyNeedsForce() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Run audit = run(
                null, "call", "session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}", "--hermes-home", home.toString());
        String plan = Json.MAPPER.readTree(audit.stdout()).get("plan_id").asString();
        Run apply =
                run(null, "call", "session_apply", "{\"plan_id\":\"" + plan + "\"}", "--hermes-home", home.toString());
        assertEquals(0, apply.exit(), apply.stderr());
        String backup = Json.MAPPER
                .readTree(apply.stdout())
                .get("backup")
                .get("backup_id")
                .asString();
        Run list = run(null, "backups", "--hermes-home", home.toString());
        assertEquals(0, list.exit(), list.stderr());
        assertTrue(list.stdout().contains(backup) && list.stdout().contains("within retention"), list.stdout());
        assertTrue(list.stdout().contains("backups are kept 30 days"), list.stdout());
        assertTrue(list.stdout().contains("  no state.db copies"), list.stdout());
        // the verified copy a VACUUM writes first is listed too
        Path copy = steward.sessions.backup.StateCopy.write(
                home.resolve("state.db"), home.resolve("steward"), "vacuum", java.time.Instant.now(), "test", true);
        Run withCopy = run(null, "backups", "--hermes-home", home.toString());
        assertEquals(0, withCopy.exit(), withCopy.stderr());
        assertTrue(
                withCopy.stdout().contains("state.db copies")
                        && withCopy.stdout().contains(copy.getFileName().toString())
                        && withCopy.stdout().contains(String.format(java.util.Locale.ROOT, "%,d", Files.size(copy))),
                withCopy.stdout());
        Run refused = run(null, "backups", "--discard", backup, "--hermes-home", home.toString());
        assertEquals(1, refused.exit());
        assertTrue(refused.stderr().contains("only copy"), refused.stderr());
        assertTrue(Files.exists(home.resolve("steward/backups/sessions/" + backup + ".jsonl")));
        Run forced = run(null, "backups", "--discard", backup, "--force", "--hermes-home", home.toString());
        assertEquals(0, forced.exit(), forced.stderr());
        assertTrue(Files.notExists(home.resolve("steward/backups/sessions/" + backup + ".jsonl")));
    }
}
