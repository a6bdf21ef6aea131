package steward.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;

/**
 * Replays every recorded case of Hermes' own memory tool ({@code fixtures/memory-tool-examples.jsonl}) through
 * {@link MemoryWriter} and compares the result JSON (Hermes' keys, byte for byte), the result kind, and the
 * memory files' bytes, modes and neighbours after each call. Deliberate differences are listed in
 * {@link #DELIBERATE} and documented in docs/memory-compat.md.
 */
class HermesReplayTest {
    /** case id + call number → why Steward differs (docs/memory-compat.md). */
    static final Set<String> DELIBERATE = Set.of();

    /** Hermes' arguments never carry Steward's confirm_whole_file: absent means false. */
    static final ObjectReader REQUEST =
            Json.MAPPER.readerFor(MemoryRequest.class).without(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> replayEveryCase() throws Exception {
        List<String> lines = Files.readAllLines(TestHomes.repo().resolve("fixtures/memory-tool-examples.jsonl"));
        assertEquals(25, lines.size(), "the fixture holds 25 recorded cases");
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : lines) {
            JsonNode c = Json.MAPPER.readTree(line);
            tests.add(DynamicTest.dynamicTest(
                    c.get("id").asString() + " " + c.get("family").asString(), () -> replay(c)));
        }
        return tests.stream();
    }

    void replay(JsonNode c) throws Exception {
        String id = c.get("id").asString();
        Path home = tmp.resolve(id);
        StewardPaths paths = TestHomes.home(
                home,
                c.get("limits").get("memory").asInt(),
                c.get("limits").get("user").asInt());
        for (String name : List.of("MEMORY.md", "USER.md")) {
            JsonNode f = c.get("initial_files").get(name);
            if (f != null && !f.isNull()) {
                Path p = paths.memoriesDir().resolve(name);
                Files.write(p, Base64.getDecoder().decode(f.get("b64").asString()));
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
            }
        }
        for (String target : List.of("memory", "user")) {
            JsonNode snap = c.get("snapshot_at_load").get(target);
            MemoryTarget t = MemoryTarget.of(target);
            String rendered = MemoryRender.systemPromptBlock(
                    t,
                    MemoryDocument.read(t.file(paths)).entries(),
                    c.get("limits").get(target).asInt());
            assertEquals(
                    snap == null || snap.isNull() ? "" : snap.asString(),
                    rendered,
                    id + ": system-prompt block of " + target);
        }
        MutableClock clock = new MutableClock(Instant.parse("2026-08-10T12:00:00Z"));
        MemoryWriter writer = new MemoryWriter(paths, clock);
        for (JsonNode step : c.get("steps")) {
            if (step.get("type").asString().equals("reset_consolidation_failures")) {
                clock.advance(MemoryWriter.TURN_WINDOW.plusMinutes(1)); // a new Hermes turn = a quiet gap for Steward
                continue;
            }
            clock.advance(Duration.ofSeconds(1));
            String where = id + "#" + step.get("call").asInt();
            MemoryRequest req = REQUEST.readValue(step.get("args")); // Hermes' arguments are the request's fields
            MemoryResult r = writer.write(req);
            if (DELIBERATE.contains(where)) continue;
            String expected = step.get("result_json").asString();
            String actual = r.hermesJson()
                    .replace(paths.hermesHome().toString(), "<HERMES_HOME>")
                    .replaceAll("\\.bak\\.\\d+", ".bak.<TS>");
            assertEquals(expected, actual, where + ": result JSON");
            assertEquals(step.get("kind").asString(), r.kind(), where + ": kind");
            assertEquals(step.get("result").get("success").asBoolean(), r.success(), where + ": success");
            JsonNode after = step.get("after");
            for (String name : List.of("MEMORY.md", "USER.md")) {
                Path p = paths.memoriesDir().resolve(name);
                JsonNode f = after.get(name);
                if (f == null || f.isNull()) {
                    assertTrue(!Files.exists(p), where + ": " + name + " should not exist");
                } else {
                    assertArrayEquals(
                            Base64.getDecoder().decode(f.get("b64").asString()),
                            Files.readAllBytes(p),
                            where + ": bytes of " + name);
                    String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
                    assertEquals(
                            f.get("mode").asString().equals("0600") ? "rw-------" : "rw-r--r--",
                            mode,
                            where + ": mode of " + name);
                }
            }
            Set<String> others = new TreeSet<>();
            try (Stream<Path> s = Files.list(paths.memoriesDir())) {
                s.map(p -> p.getFileName().toString())
                        .filter(n -> !n.equals("MEMORY.md") && !n.equals("USER.md"))
                        .map(n -> n.replaceAll("\\.bak\\.\\d+$", ".bak.<TS>"))
                        .forEach(others::add);
            }
            Set<String> expectedOthers = new TreeSet<>();
            after.get("other_files").forEach(n -> expectedOthers.add(n.asString()));
            assertEquals(expectedOthers, others, where + ": other files next to the memory files");
            for (JsonNode bak : after.get("new_backups")) {
                Path found;
                try (Stream<Path> s = Files.list(paths.memoriesDir())) {
                    found = s.filter(p -> p.getFileName().toString().matches(".*\\.bak\\.\\d+"))
                            .findFirst()
                            .orElse(null);
                }
                assertTrue(found != null, where + ": drift backup missing");
                assertArrayEquals(
                        Base64.getDecoder().decode(bak.get("b64").asString()),
                        Files.readAllBytes(found),
                        where + ": drift backup bytes");
            }
            if (r.success()) assertNull(r.record().get("error"), where);
        }
    }
}
