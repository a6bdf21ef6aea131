package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/**
 * Defect 8 of issue 12: a Hermes home the user can read but not write (no -wal/-shm files), the state dir elsewhere.
 * The child server really runs without write permission on the home: as user nobody through setpriv when the tests
 * run as root (root ignores file modes), else as the current user on a home made read-only with chmod. Skipped, saying
 * why, only when neither is possible.
 */
class ReadOnlyHomeIT {
    @TempDir
    Path tmp;

    @Test
    void readOnlyToolsWorkAndAPermissionErrorNamesThePath() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        boolean setpriv = Stream.of("/usr/bin/setpriv", "/bin/setpriv").anyMatch(p -> Files.isExecutable(Path.of(p)));
        assumeTrue(
                !root || setpriv,
                "running as root without setpriv: no way to run the server without write permission on the home");
        Path base = Files.createDirectories(tmp.resolve("ro"));
        Path home = TestHomes.copyFixture(base);
        for (String s : List.of("-wal", "-shm")) Files.deleteIfExists(home.resolve("state.db" + s));
        Path state = Files.createDirectories(base.resolve("state"));
        String jar = jarPath();
        List<String> cmd = new ArrayList<>();
        if (root) {
            // nobody may read the home and the jar, write the state dir only
            // nobody may enter the test's directories and read the home, and write the state dir only
            for (Path p : List.of(tmp, base))
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxrwxrwx"));
            try (Stream<Path> w = Files.walk(home)) {
                for (Path p : w.toList())
                    Files.setPosixFilePermissions(
                            p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
            cmd.addAll(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"));
        } else {
            try (Stream<Path> w = Files.walk(home)) {
                for (Path p : w.sorted(Comparator.reverseOrder()).toList()) {
                    Files.setPosixFilePermissions(
                            p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "r-xr-xr-x" : "r--r--r--"));
                }
            }
        }
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Duser.home=" + state,
                "-jar",
                jar,
                "serve",
                "--hermes-home",
                home.toString(),
                "--state-dir",
                state.toString()));
        Path in = base.resolve("in.jsonl");
        Files.writeString(
                in,
                String.join(
                                "\n",
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                                        + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                                call(2, "steward_status", "{}"),
                                call(3, "session_audit", "{}"),
                                call(4, "recall_search", "{\"query\":\"tabs\"}"),
                                call(5, "memory_write", "{\"action\":\"add\",\"content\":\"Prefers tabs\"}"))
                        + "\n");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(state.toFile())
                .redirectInput(in.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HOME", state.toString());
        pb.environment().remove("HERMES_HOME");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS));
        Map<Integer, JsonNode> answers = new HashMap<>();
        for (String l : out.split("\n")) {
            if (l.isBlank()) continue;
            JsonNode n = Json.MAPPER.readTree(l);
            if (n.has("id")) answers.put(n.path("id").asInt(), n);
        }
        for (int id : List.of(2, 3, 4)) {
            JsonNode r = answers.get(id).path("result");
            assertFalse(r.path("isError").asBoolean(true), id + ": " + answers.get(id));
        }
        JsonNode w = answers.get(5).path("result");
        assertTrue(w.path("isError").asBoolean(false), answers.get(5).toString());
        String text = w.path("content").get(0).path("text").asString();
        assertTrue(
                text.contains("permission denied")
                        && text.contains(home.resolve("memories").toString()),
                text);
        assertFalse(text.contains("errno"), text);
        try (Stream<Path> s = Files.list(home)) {
            assertEquals(
                    List.of(),
                    s.filter(f -> f.getFileName().toString().startsWith("state.db-"))
                            .toList(),
                    "a -wal/-shm was created");
        }
    }

    static String call(int id, String tool, String args) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + args + "}}";
    }

    static String jarPath() {
        String p = System.getProperty("steward.jar");
        return p != null
                ? p
                : TestHomes.repo().resolve("server/target/steward.jar").toString();
    }
}
