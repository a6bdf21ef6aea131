package steward.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.Origin;
import steward.config.StewardPaths;
import steward.memory.history.History;
import steward.memory.history.VersionStore;
import steward.state.AtomicFiles;
import steward.state.FileTrees;
import steward.testing.TestHomes;

/**
 * History of changes made outside Steward, with the real server in a child process: an edit made while no server ran
 * is recorded at startup before the server answers; while it runs, an editor's atomic replace and Hermes' own memory
 * tool (the real one, from /work/shared/hermes-src, when it is there) are recorded by the watcher as versions by
 * "external", and Steward's own memory_write is never taken for one.
 */
class ExternalHistoryIT {
    static final String FILE = "memories/MEMORY.md";
    static final Path HERMES_WRITER = Path.of("/work/shared/tools/hermes_memory_writer.py");

    @TempDir
    Path tmp;

    @Test
    void externalEditsBecomeVersionsByExternalAtStartupAndWhileTheServerRuns() throws Exception {
        Path home = tmp.resolve("home");
        Path state = tmp.resolve("state");
        FileTrees.copy(TestHomes.fixtureHome(), home);
        StewardPaths paths = new StewardPaths(home, Origin.FLAG, state, Origin.FLAG);
        Files.createDirectories(state);
        Files.writeString(state.resolve("settings.json"), "{\"history\": {\"record_external\": true}}");
        Path mem = paths.memoriesDir().resolve("MEMORY.md");
        History h = new History(paths, Clock.systemUTC());
        Map<Path, byte[]> was = new HashMap<>();
        was.put(mem, null);
        h.record("seed: the state Steward last recorded", was);

        // an edit while no server runs
        Files.writeString(mem, Files.readString(mem) + "\n§\n[env] edited while Steward was off");

        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(
                        java,
                        "-jar",
                        System.getProperty("steward.jar"),
                        "serve",
                        "--hermes-home",
                        home.toString(),
                        "--state-dir",
                        state.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            OutputStream in = p.getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            MemoryStdioIT.send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
            MemoryStdioIT.read(out, 1);
            MemoryStdioIT.send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            // recorded before the server answered anything
            List<VersionStore.Version> vs = versions(h);
            assertEquals(2, vs.size(), vs.toString());
            assertEquals("external", vs.get(0).client());
            assertEquals(
                    "external change to memories/MEMORY.md (found at startup)",
                    vs.get(0).message());
            assertArrayEquals(
                    Files.readAllBytes(mem), h.store().read(FILE, vs.get(0).id()));

            // an editor replaces the file atomically while the server runs
            byte[] edited = (Files.readString(mem) + "\n§\n[env] edited in an editor").getBytes(StandardCharsets.UTF_8);
            AtomicFiles.write(mem, edited);
            vs = await(h, v -> v.size() == 3);
            assertEquals(
                    "external change to memories/MEMORY.md (seen by the watcher)",
                    vs.get(0).message());
            assertEquals("external", vs.get(0).client());
            assertArrayEquals(edited, h.store().read(FILE, vs.get(0).id()));

            // Hermes' own memory tool, under its lock
            int expected = 4;
            if (Files.isRegularFile(HERMES_WRITER)) {
                ProcessBuilder hw = new ProcessBuilder("python3", HERMES_WRITER.toString(), "1", "hermes-entry")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
                hw.environment().put("HERMES_HOME", home.toString());
                assertEquals(0, hw.start().waitFor());
                assertTrue(Files.readString(mem).contains("hermes-entry-0"));
                vs = await(h, v -> v.size() == 4);
                assertEquals("external", vs.get(0).client());
                assertArrayEquals(
                        Files.readAllBytes(mem), h.store().read(FILE, vs.get(0).id()));
                expected = 5;
            }

            // Steward's own write is Steward's version, never an external one
            MemoryStdioIT.send(
                    in,
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\",\"arguments\":"
                            + "{\"action\":\"add\",\"content\":\"[env] written through Steward\"}}}");
            assertFalse(MemoryStdioIT.read(out, 2).get("result").path("isError").asBoolean(false));
            // a later external edit: had the watcher taken Steward's write for an external one, it would sit between
            // them
            AtomicFiles.write(
                    mem, (Files.readString(mem) + "\n§\n[env] edited again").getBytes(StandardCharsets.UTF_8));
            vs = await(
                    h,
                    v -> v.get(0).message().contains("seen by the watcher")
                            && v.get(1).message().startsWith("memory_write"));
            assertEquals(expected + 1, vs.size(), vs.toString());
            assertEquals("steward", vs.get(1).client());
            assertTrue(vs.get(2).client().equals("external"), vs.toString());
        } finally {
            p.getOutputStream().close();
            p.destroy();
            p.waitFor();
        }
    }

    static List<VersionStore.Version> versions(History h) {
        return h.list(FILE, 200).versions();
    }

    /** Waits for the watcher (a 250 ms poll) to have recorded what {@code done} expects; fails after a generous minute. */
    static List<VersionStore.Version> await(History h, Predicate<List<VersionStore.Version>> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        List<VersionStore.Version> vs = versions(h);
        while (!done.test(vs)) {
            if (System.nanoTime() > deadline) throw new AssertionError("not recorded: " + vs);
            Thread.sleep(50);
            vs = versions(h);
        }
        return vs;
    }
}
