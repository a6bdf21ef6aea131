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
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/** The headless CLI, run as a child process: JSON on stdout and the documented exit codes. */
class CliIT {
    @TempDir
    Path tmp;

    record Run(int exit, String stdout, String stderr) {}

    Run run(String stdin, String... args) throws Exception {
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = new ProcessBuilder(StewardProcess.command(args)).redirectError(err.toFile()).start();
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
            assertTrue(jar.stream().noneMatch(e -> e.getName().startsWith("steward/bench/") || e.getName().startsWith("steward/conformance/")),
                    "no benchmark or fixture class in the shipped jar");
            assertEquals("steward.cli.Main", jar.getManifest().getMainAttributes().getValue("Main-Class"));
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
        assertEquals(0, run("{}", "call", "steward_status", "-", "--hermes-home", home.toString()).exit());
        Path f = tmp.resolve("args.json");
        Files.writeString(f, "{}");
        assertEquals(0, run(null, "call", "steward_status", "@" + f, "--hermes-home", home.toString()).exit());
    }

    @Test
    void anErrorResultExitsOne() throws Exception {
        Run r = run(null, "call", "steward_status", "--hermes-home", tmp.resolve("missing").toString());
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
        assertTrue(Files.notExists(TestHomes.repo().resolve("fixtures/hermes-home/steward")), "the fixture itself is untouched");
    }

    @Test
    void toolsListsEveryRegisteredTool() throws Exception {
        Run r = run(null, "tools", "--names");
        assertEquals(0, r.exit());
        assertEquals(Tools.registry().tools().stream().map(t -> t.name()).toList(), r.stdout().lines().toList());
    }
}
