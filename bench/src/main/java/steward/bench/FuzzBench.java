package steward.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.json.Json;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzes a real {@code steward serve} child over stdio and over Streamable HTTP (issue 12): tool calls generated from each tool's input schema
 * (wrong types, boundaries, 10 MB strings, NUL and control characters, lone surrogates, traversal in every string,
 * deep nesting, non-object arguments) and a corpus of malformed JSON-RPC lines. Counted: crashes (the child died or
 * answered -32603), requests not answered under their id, Java class names in any answer, failed calls that changed a
 * file of the home or the state dir, and files written outside them (the child's HOME and working dir).
 */
@Command(
        name = "fuzz",
        description =
                "Schema-generated and malformed requests against a steward child over stdio and HTTP; crashes, unanswered ids, leaks, writes.")
public final class FuzzBench implements Callable<Integer> {
    @Option(names = "-n", defaultValue = "10000", description = "generated tool calls (default 10000)")
    int n;

    @Option(names = "--seed", defaultValue = "12", description = "random seed (default 12)")
    long seed;

    @Option(names = "--big", defaultValue = "20", description = "calls carrying a 10 MB string (default 20)")
    int big;

    @Option(names = "--jar", description = "the steward jar of the child (default: the running one)")
    Path jar;

    @Option(names = "--dir", description = "where to put the sandbox (default: the system temp dir)")
    Path dir;

    @Option(
            names = "--transports",
            split = ",",
            defaultValue = "stdio,http",
            description = "transports, each gets the N calls and the corpus with a fresh home (default stdio,http)")
    List<String> transports;

    @Option(
            names = "--recall-background",
            description = "leave the child's background recall indexer and dense model on (default off: "
                    + "STEWARD_RECALL_BACKGROUND=off, STEWARD_RECALL_DENSE=off, so that every write seen during a failed "
                    + "call is the call's own)")
    boolean recallBackground;

    /** Every write counted against a failed call, in full: the call's id, tool, path and change (none is capped). */
    private final List<String> writes = new ArrayList<>();

    static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(java|javax|jdk|sun|tools\\.jackson|com\\.fasterxml|io\\.modelcontextprotocol|reactor|steward|org)"
                    + "\\.[a-z][\\w.]*\\.[A-Z]\\w+|\\b[A-Z]\\w*(Exception|Error)\\b(?!\")|\\b(LinkedHashMap|DoubleNode|IntNode|TextNode|ObjectNode|ArrayNode|McpSchema)\\b");

    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final List<String> examples = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        int bad = 0;
        for (String transport : transports) {
            if (!transport.equals("stdio") && !transport.equals("http"))
                throw new IllegalArgumentException("unknown transport " + transport + " (stdio, http)");
            counts.clear();
            examples.clear();
            writes.clear();
            bad += run(transport);
        }
        return bad == 0 ? 0 : 1;
    }

    private int run(String transport) throws Exception {
        Path sandbox = dir == null
                ? Files.createTempDirectory("steward-bench-fuzz-")
                : Files.createTempDirectory(dir, "steward-bench-fuzz-");
        Path home = Fixtures.copyHermesHome(sandbox);
        Path state = sandbox.resolve("state");
        Path userHome = Files.createDirectories(sandbox.resolve("user-home"));
        Path cwd = Files.createDirectories(sandbox.resolve("cwd"));
        Printer.println("steward bench fuzz: " + n + " generated tool calls + a malformed-line corpus over " + transport
                + ", seed " + seed + ", background recall indexer and dense model "
                + (recallBackground ? "on" : "off"));
        long t0 = System.nanoTime();
        try (Channel s = transport.equals("http")
                ? HttpServer.start(home, state, userHome, cwd, jar, recallBackground)
                : Server.start(home, state, userHome, cwd, jar, recallBackground)) {
            JsonNode list = Json.MAPPER.readTree(
                    s.request("{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}", "list", 60));
            Map<String, JsonNode> schemas = new LinkedHashMap<>();
            for (JsonNode t : list.path("result").path("tools"))
                schemas.put(t.path("name").asString(), t.path("inputSchema"));
            Random rng = new Random(seed);
            List<String> names = new ArrayList<>(schemas.keySet());
            int bigLeft = big;
            for (int i = 0; i < n; i++) {
                String tool = names.get(rng.nextInt(names.size()));
                String args = arguments(
                        schemas.get(tool), rng, bigLeft > 0 && rng.nextInt(Math.max(1, n / Math.max(1, big))) == 0);
                if (args.length() > 1_000_000) bigLeft--;
                String id = "c" + i;
                exchange(
                        s,
                        "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":{\"name\":\""
                                + tool + "\",\"arguments\":" + args + "}}",
                        id,
                        home,
                        state);
                if (!s.alive()) break;
                // a running tally, so that a run cut short still has its figures
                if ((i + 1) % 500 == 0 && i + 1 < n) {
                    Printer.println(String.format(
                            "    %s: %d calls so far, %.0f s; %s",
                            transport, i + 1, (System.nanoTime() - t0) / 1e9, counts));
                    if (i + 1 == 500) for (String e : examples) Printer.println("        " + e);
                }
            }
            int k = 0;
            for (String[] m : malformed()) {
                if (!s.alive()) break;
                exchange(s, m[0], m[1], home, state);
                k++;
            }
            counts.put("malformed lines sent", k);
            // the targets, shown when they held too
            for (String key : List.of("crashes", "unanswered", "class names", "writes by failed calls"))
                counts.putIfAbsent(key, 0);
            if (!s.alive()) counts.merge("crashes", 1, Integer::sum);
        }
        List<Path> outside = new ArrayList<>(listFiles(userHome));
        outside.addAll(listFiles(cwd));
        counts.put("files outside the home and state dir", outside.size());
        for (Path p : outside.subList(0, Math.min(5, outside.size())))
            examples.add(0, "written outside: " + sandbox.relativize(p));
        double secs = (System.nanoTime() - t0) / 1e9;
        Printer.println(String.format("  %s: %.0f s; %s", transport, secs, counts));
        for (String e : examples) Printer.println("      " + e);
        if (!writes.isEmpty()) {
            Printer.println("    every write by a failed call (call id, tool: path, change):");
            for (String w : writes) Printer.println("      " + w);
        }
        FileTrees.delete(sandbox);
        return counts.getOrDefault("crashes", 0)
                + counts.getOrDefault("unanswered", 0)
                + counts.getOrDefault("class names", 0)
                + counts.getOrDefault("writes by failed calls", 0)
                + counts.get("files outside the home and state dir")
                + counts.getOrDefault("not JSON-RPC answers", 0)
                // a broken connection is a defect too (the answer to a call that ran was lost): sent again to see
                // whether it was answered, and counted
                + counts.getOrDefault("HTTP connection failures", 0);
    }

    private void exchange(Channel s, String line, String id, Path home, Path state) throws Exception {
        Map<String, String> before = snapshot(home, state);
        counts.merge("requests", 1, Integer::sum);
        String answer = s.request(line, id, 120);
        String note = s.takeNote();
        if (note != null) {
            counts.merge("HTTP connection failures", 1, Integer::sum);
            example(note + ": " + abbreviate(line));
        }
        if (answer != null && answer.startsWith(HTTP_STATUS)) {
            // HTTP refused the request before JSON-RPC (e.g. 413 for a body over the limit): the client has its answer
            counts.merge(
                    "HTTP " + answer.substring(HTTP_STATUS.length(), HTTP_STATUS.length() + 3)
                            + " without a JSON-RPC body",
                    1,
                    Integer::sum);
            if (answer.startsWith(HTTP_STATUS + "5")) {
                counts.merge("crashes", 1, Integer::sum);
                example("HTTP 5xx for " + abbreviate(line) + " -> " + abbreviate(answer));
            }
            checkClassNames(answer);
            checkWrites(before, line, answer, home, state);
            return;
        }
        if (answer == null) {
            if (id != null) {
                counts.merge("unanswered", 1, Integer::sum);
                example("unanswered " + abbreviate(line));
            }
            return;
        }
        JsonNode a;
        try {
            a = Json.MAPPER.readTree(answer);
        } catch (RuntimeException e) {
            counts.merge("not JSON-RPC answers", 1, Integer::sum);
            example("not JSON: " + abbreviate(answer));
            return;
        }
        boolean failed = a.has("error") || a.path("result").path("isError").asBoolean(false);
        if (a.has("error")) {
            int code = a.path("error").path("code").asInt();
            counts.merge("error " + code, 1, Integer::sum);
            if (code == -32603) {
                counts.merge("crashes", 1, Integer::sum);
                example("-32603 for " + abbreviate(line) + " -> " + abbreviate(answer));
            }
        } else if (failed) {
            counts.merge("isError results", 1, Integer::sum);
        } else {
            counts.merge("successes", 1, Integer::sum);
        }
        checkClassNames(answer);
        if (failed) checkWrites(before, line, answer, home, state);
    }

    private void checkWrites(Map<String, String> before, String line, String answer, Path home, Path state)
            throws IOException {
        Map<String, String> after = snapshot(home, state);
        if (before.equals(after)) return;
        String call = callOf(line);
        Path root = home.getParent();
        List<String> changes = new ArrayList<>();
        for (String k : after.keySet())
            if (!after.get(k).equals(before.get(k)))
                changes.add(k + "\t" + (before.containsKey(k) ? " changed" : " new")
                        + (after.get(k).equals("dir") ? " (dir)" : ""));
        for (String k : before.keySet()) if (!after.containsKey(k)) changes.add(k + "\t gone");
        boolean own = false;
        for (String c : changes) {
            String path = c.substring(0, c.indexOf('\t'));
            boolean index = RECALL_INDEX.matcher(path).find();
            own |= !index;
            writes.add(call + ": " + root.relativize(Path.of(path)) + c.substring(c.indexOf('\t') + 1)
                    + (index ? " [recall index: not counted]" : "") + " -> " + abbreviate(answer));
        }
        if (own) {
            counts.merge("writes by failed calls", 1, Integer::sum);
            example("a failed call changed files: " + abbreviate(line) + " -> " + abbreviate(answer));
        } else {
            counts.merge("failed calls that changed only the recall index (not counted)", 1, Integer::sum);
        }
    }

    /** "id tool {arguments…}" of a request line, short, for the list of writes. */
    static String callOf(String line) {
        try {
            JsonNode n = Json.MAPPER.readTree(line);
            String args = n.path("params").path("arguments").toString();
            return n.path("id").asString("?") + " "
                    + n.path("params").path("name").asString(n.path("method").asString("?")) + " "
                    + (args.length() <= 160 ? args : args.substring(0, 150) + "…(" + args.length() + " chars)");
        } catch (RuntimeException e) {
            return "unparsable " + abbreviate(line);
        }
    }

    private void checkClassNames(String answer) {
        var m = CLASS_NAME.matcher(answer);
        if (m.find()) {
            counts.merge("class names", 1, Integer::sum);
            example("class name '" + m.group() + "' in " + abbreviate(answer));
        }
    }

    private void example(String s) {
        if (examples.size() < 12) examples.add(s);
    }

    static String abbreviate(String s) {
        return s.length() <= 220 ? s : s.substring(0, 200) + "…(" + s.length() + " chars)";
    }

    /**
     * path -> size and mtime of every file of the home and the state dir. Excluded: SQLite's -shm (readers touch it). The
     * recall index ({@code <state dir>/recall/index/}, {@code sources/}, {@code vectors/}, {@code model/}) is listed, and a failed call
     * that changed only it is shown but not counted: a search brings the index up to date before it reads (a cache).
     */
    static Map<String, String> snapshot(Path... roots) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (Path r : roots) {
            if (!Files.exists(r)) continue;
            for (int attempt = 0; ; attempt++) {
                try {
                    walkInto(r, out);
                    break;
                } catch (UncheckedIOException e) {
                    if (attempt == 5) throw e.getCause(); // a file vanished while listed (background work): list again
                }
            }
        }
        return out;
    }

    private static void walkInto(Path r, Map<String, String> out) throws IOException {
        try (Stream<Path> s = Files.walk(r)) {
            for (Path p : s.toList()) {
                if (p.getFileName().toString().endsWith("-shm")) continue;
                try {
                    out.put(
                            p.toString(),
                            Files.isDirectory(p)
                                    ? "dir"
                                    : Files.size(p) + "@"
                                            + Files.getLastModifiedTime(p).toMillis());
                } catch (IOException ignored) {
                    // vanished while listed
                }
            }
        }
    }

    private static final Pattern RECALL_INDEX =
            Pattern.compile("[/\\\\]recall[/\\\\](index|sources|vectors|model)([/\\\\]|$)");

    static List<Path> listFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !p.equals(root)).toList();
        }
    }

    // ---- generation ----

    static final String[] STRINGS = {
        "",
        " ",
        "x",
        "../../../../etc/passwd",
        "..",
        "/etc/passwd",
        "..\\\\..\\\\windows",
        "%2e%2e%2f%2e%2e%2f",
        "a\\u0000b",
        "\\u0007\\u001b[31m",
        "\\ud800",
        "\\udfff lone",
        "\\ud83d\\ude00",
        "p_0123456789abcdef",
        "20990101T000000Z-deadbeef",
        "session/../../x",
        "~/.ssh/id_rsa",
        "\\n\\n\\n",
        "'; DROP TABLE sessions; --",
        "Ā".repeat(3000),
        "memory",
        "user",
        "add",
        "replace",
        "remove",
        "approve",
        "reject",
        "hermes",
        "claude",
        "zz"
    };
    static final String[] NUMBERS = {
        "0",
        "-1",
        "1",
        "2147483647",
        "2147483648",
        "-2147483649",
        "9223372036854775807",
        "9223372036854775808",
        "1e308",
        "-1e308",
        "1.5",
        "-0.0",
        "1e-320",
        "100000000000000000000000000000"
    };

    static String arguments(JsonNode schema, Random rng, boolean big) {
        int kind = rng.nextInt(100);
        if (kind < 3) return new String[] {"\"text\"", "[1,2]", "42", "true", "null"}[rng.nextInt(5)];
        if (kind < 5)
            return "{\"x\":" + "[".repeat(400 + rng.nextInt(800)) + "]".repeat(0) + "}"; // unbalanced deep nesting
        if (kind < 8) {
            int d = 100 + rng.nextInt(1500);
            return "{\"x\":" + "[".repeat(d) + "]".repeat(d) + "}";
        }
        ObjectNode props = schema.path("properties") instanceof ObjectNode o ? o : Json.MAPPER.createObjectNode();
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = props.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (rng.nextInt(4) == 0) continue;
            if (!first) sb.append(',');
            first = false;
            sb.append('"').append(e.getKey()).append("\":").append(value(e.getValue(), rng, big, 0));
            big = false;
        }
        if (rng.nextInt(10) == 0)
            sb.append(first ? "" : ",")
                    .append("\"unknown_")
                    .append(rng.nextInt(9))
                    .append("\":1");
        return sb.append('}').toString();
    }

    static String value(JsonNode s, Random rng, boolean big, int depth) {
        if (big) return "\"" + "x".repeat(10 * 1024 * 1024) + "\"";
        String type = s.path("type").isString() ? s.path("type").asString() : "any";
        int r = rng.nextInt(10);
        if (r < 3 || depth > 2) return any(rng); // a wrong type, probably
        return switch (type) {
            case "string" ->
                s.has("enum") && rng.nextBoolean()
                        ? s.path("enum").get(rng.nextInt(s.path("enum").size())).toString()
                        : "\"" + STRINGS[rng.nextInt(STRINGS.length)] + "\"";
            case "integer", "number" -> NUMBERS[rng.nextInt(NUMBERS.length)];
            case "boolean" -> rng.nextBoolean() ? "true" : "false";
            case "array" -> {
                int k = rng.nextInt(4);
                StringBuilder b = new StringBuilder("[");
                for (int i = 0; i < k; i++)
                    b.append(i == 0 ? "" : ",").append(value(s.path("items"), rng, false, depth + 1));
                yield b.append(']').toString();
            }
            case "object" -> {
                ObjectNode p = s.path("properties") instanceof ObjectNode o ? o : null;
                if (p == null)
                    yield rng.nextBoolean()
                            ? "{}"
                            : "{\"" + STRINGS[rng.nextInt(STRINGS.length)] + "\":" + any(rng) + "}";
                StringBuilder b = new StringBuilder("{");
                boolean first = true;
                for (Map.Entry<String, JsonNode> e : p.properties()) {
                    if (rng.nextInt(3) == 0) continue;
                    b.append(first ? "" : ",")
                            .append('"')
                            .append(e.getKey())
                            .append("\":")
                            .append(value(e.getValue(), rng, false, depth + 1));
                    first = false;
                }
                yield b.append('}').toString();
            }
            default -> any(rng);
        };
    }

    static String any(Random rng) {
        return switch (rng.nextInt(7)) {
            case 0 -> "\"" + STRINGS[rng.nextInt(STRINGS.length)] + "\"";
            case 1 -> NUMBERS[rng.nextInt(NUMBERS.length)];
            case 2 -> rng.nextBoolean() ? "true" : "false";
            case 3 -> "null";
            case 4 -> "[]";
            case 5 -> "{}";
            default ->
                "[\"" + STRINGS[rng.nextInt(STRINGS.length)] + "\"," + NUMBERS[rng.nextInt(NUMBERS.length)] + "]";
        };
    }

    /** Malformed JSON-RPC lines: the line, and the id an answer must carry (null: none can be expected). */
    static List<String[]> malformed() {
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"not json at all", null});
        out.add(new String[] {"{", null});
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m1\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\"", "m1"
        });
        out.add(new String[] {"{\"jsonrpc\":\"2.0\",\"id\":\"m2\"}", "m2"});
        out.add(new String[] {"{\"jsonrpc\":\"1.0\",\"id\":\"m3\",\"method\":\"tools/list\"}", "m3"});
        out.add(new String[] {"{\"jsonrpc\":\"2.0\",\"id\":\"m4\",\"method\":42}", "m4"});
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m5\",\"method\":\"tools/call\",\"params\":\"steward_status\"}", "m5"
        });
        out.add(new String[] {"{\"jsonrpc\":\"2.0\",\"id\":\"m6\",\"method\":\"tools/call\",\"params\":[1,2]}", "m6"});
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m7\",\"method\":\"tools/call\",\"params\":{\"name\":42}}", "m7"
        });
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m8\",\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}", "m8"
        });
        out.add(new String[] {"{\"jsonrpc\":\"2.0\",\"id\":\"m9\",\"method\":\"no/such/method\"}", "m9"});
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m10\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{},\"_meta\":\"x\"}}",
            "m10"
        });
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m11\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{\"a\":"
                    + "[".repeat(5000) + "]".repeat(5000) + "}}}",
            "m11"
        });
        out.add(new String[] {
            "{\"params\":{\"a\":" + "{\"b\":".repeat(3000) + "1" + "}".repeat(3000)
                    + "},\"jsonrpc\":\"2.0\",\"id\":\"m12\",\"method\":\"tools/call\"}",
            "m12"
        });
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m13\",\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\",\"arguments\":{\"content\":\"\\ud800\"}}}",
            "m13"
        });
        out.add(new String[] {"[]", null});
        out.add(new String[] {"[{\"jsonrpc\":\"2.0\",\"id\":\"m14\",\"method\":\"tools/list\"}]", null});
        out.add(new String[] {"{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}", null});
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m15\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{}},\"extra\":1}",
            "m15"
        });
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m16\",\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///etc/passwd\"}}",
            "m16"
        });
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m17\",\"method\":\"resources/read\",\"params\":{\"uri\":\"steward://memory/../../../etc/passwd\"}}",
            "m17"
        });
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m18\",\"method\":\"prompts/get\",\"params\":{\"name\":\"../x\"}}", "m18"
        });
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m19\",\"method\":\"tools/call\",\"params\":{\"name\":\"steward_status\",\"arguments\":{}}} trailing",
            "m19"
        });
        out.add(new String[] {"\u0000\u0001\u0002", null});
        out.add(new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":\"m20\",\"method\":\"tools/call\",\"params\":{\"name\":\"session_restore\",\"arguments\":{\"backup_id\":\"../../etc\"}}}",
            "m20"
        });
        return out;
    }

    /** What an HTTP answer without a JSON-RPC body starts with: this prefix, then the status code and the body. */
    static final String HTTP_STATUS = "HTTP-STATUS ";

    /** A transport to a steward child: one request line in, the answer under {@code id} out (null: none in time). */
    interface Channel extends AutoCloseable {
        String request(String line, String id, int timeoutSeconds) throws Exception;

        boolean alive();

        /** What went wrong below JSON-RPC in the last request (e.g. the HTTP connection broke), else null; cleared. */
        default String takeNote() {
            return null;
        }

        @Override
        void close() throws IOException;
    }

    /**
     * The child's command line: its own HOME, no HERMES_HOME, no Claude Code home; logs discarded. Unless
     * {@code recallBackground}, the background recall indexer and the dense model are off, so that nothing but the
     * calls writes (their unpacking and indexing wrote during failed calls and were counted against them).
     */
    static ProcessBuilder child(
            Path home, Path state, Path userHome, Path cwd, Path jar, boolean recallBackground, String... serveArgs)
            throws Exception {
        Path jarPath = jar != null ? jar : Fixtures.runningJar();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xss1m", "-Duser.home=" + userHome));
        cmd.addAll(LaunchFlags.serve(null));
        cmd.addAll(List.of("-jar", jarPath.toString(), "serve"));
        cmd.addAll(List.of(serveArgs));
        cmd.addAll(List.of("--hermes-home", home.toString(), "--state-dir", state.toString()));
        ProcessBuilder pb =
                new ProcessBuilder(cmd).directory(cwd.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HOME", userHome.toString());
        pb.environment().remove("HERMES_HOME");
        pb.environment().remove("STEWARD_HTTP_TOKEN");
        pb.environment().put("CLAUDE_CONFIG_DIR", userHome.resolve("no-claude").toString());
        if (!recallBackground) {
            pb.environment().put(steward.recall.RecallSettings.ENV_BACKGROUND, "off");
            pb.environment().put(steward.recall.RecallSettings.ENV_DENSE, "off");
        }
        return pb;
    }

    /**
     * {@code steward serve --http} on a free loopback port: each line is POSTed to /mcp in the session made by initialize.
     * The answer is the JSON-RPC message under the id in the body (JSON or an event stream); an HTTP refusal without
     * one (e.g. 413) comes back as {@link #HTTP_STATUS} + code + body.
     */
    static final class HttpServer implements Channel {
        private final Process p;
        private final URI mcp;
        private final HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        private String session;
        private String note;

        @Override
        public String takeNote() {
            String n = note;
            note = null;
            return n;
        }

        private HttpServer(Process p, int port) {
            this.p = p;
            this.mcp = URI.create("http://127.0.0.1:" + port + "/mcp");
        }

        @SuppressWarnings("try") // the probe socket only shows that the port listens
        static HttpServer start(Path home, Path state, Path userHome, Path cwd, Path jar, boolean recallBackground)
                throws Exception {
            int port;
            try (ServerSocket ss = new ServerSocket(0)) {
                port = ss.getLocalPort();
            }
            ProcessBuilder pb = child(
                    home,
                    state,
                    userHome,
                    cwd,
                    jar,
                    recallBackground,
                    "--http",
                    "--no-sse",
                    "--port",
                    String.valueOf(port));
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            HttpServer s = new HttpServer(pb.start(), port);
            for (int i = 0; ; i++) {
                if (!s.p.isAlive()) throw new IOException("steward serve --http exited with " + s.p.exitValue());
                try (Socket ignored = new Socket("127.0.0.1", port)) {
                    break;
                } catch (IOException e) {
                    if (i > 1200) throw new IOException("steward serve --http did not listen within 120 s");
                    Thread.sleep(100);
                }
            }
            String init = s.request(
                    "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}",
                    "init",
                    120);
            if (init == null || s.session == null) throw new IOException("initialize over HTTP failed: " + init);
            s.request("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", null, 30);
            return s;
        }

        @Override
        public boolean alive() {
            return p.isAlive();
        }

        @Override
        public String request(String line, String id, int timeoutSeconds) throws Exception {
            var b = HttpRequest.newBuilder(mcp)
                    .timeout(Duration.ofSeconds(timeoutSeconds))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(line));
            if (session != null) b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
            HttpResponse<String> r;
            try {
                r = http.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (java.net.http.HttpTimeoutException e) {
                return null; // no answer in time: unanswered
            } catch (IOException e) {
                // The connection broke (e.g. the client reused a kept-alive connection the server had just closed): a
                // client would send again. Once, on a fresh connection, and reported; failing again is unanswered.
                try {
                    r = http.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                    note = "connection failed (" + e + "), answered when sent again";
                } catch (IOException e2) {
                    note = "connection failed (" + e + "), and again (" + e2 + ")";
                    return null;
                }
            }
            if (session == null) r.headers().firstValue("Mcp-Session-Id").ifPresent(v -> session = v);
            String first = null;
            for (String l : r.body().split("\n")) {
                String data = l.startsWith("data:") ? l.substring(5).strip() : l.strip();
                if (!data.startsWith("{")) continue;
                JsonNode n;
                try {
                    n = Json.MAPPER.readTree(data);
                } catch (RuntimeException e) {
                    continue;
                }
                if (!n.has("id")) continue; // a notification
                if (first == null) first = data;
                if (id != null
                        && n.path("id").isString()
                        && n.path("id").asString().equals(id)) return data;
            }
            if (id == null) {
                if (first != null) return first;
                return r.statusCode() == 202 ? null : HTTP_STATUS + r.statusCode() + " " + r.body();
            }
            // no message under this id: an HTTP refusal is still an answer to this request (the client does not wait)
            if (r.statusCode() >= 400) return HTTP_STATUS + r.statusCode() + " " + r.body();
            return null;
        }

        @Override
        public void close() {
            p.destroy();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            } catch (InterruptedException e) { // as Server.close: the process goes, the flag stays set
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A {@code steward serve} child with its own HOME and working dir; answers are read by a thread into a queue. */
    static final class Server implements Channel {
        private final Process p;
        private final OutputStream in;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private Server(Process p) {
            this.p = p;
            this.in = p.getOutputStream();
            Thread t = new Thread(
                    () -> {
                        try (BufferedReader r =
                                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                            String l;
                            while ((l = r.readLine()) != null) lines.add(l);
                        } catch (IOException ignored) {
                            // the child ended
                        }
                    },
                    "fuzz-reader");
            t.setDaemon(true);
            t.start();
        }

        static Server start(Path home, Path state, Path userHome, Path cwd, Path jar, boolean recallBackground)
                throws Exception {
            Server s = new Server(
                    child(home, state, userHome, cwd, jar, recallBackground).start());
            s.request(
                    "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}",
                    "init",
                    120);
            StdioLines.send(s.in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            return s;
        }

        @Override
        public boolean alive() {
            return p.isAlive();
        }

        /** Sends a line and returns the answer under {@code id} (null id: the first answer within a short wait, or null). */
        @Override
        public String request(String line, String id, int timeoutSeconds) throws Exception {
            try {
                StdioLines.send(in, line);
            } catch (IOException e) {
                return null;
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(id == null ? 2 : timeoutSeconds);
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return null;
                String l = lines.poll(left, TimeUnit.NANOSECONDS);
                if (l == null) return null;
                JsonNode n;
                try {
                    n = Json.MAPPER.readTree(l);
                } catch (RuntimeException e) {
                    return l; // not JSON on stdout: reported as is
                }
                if (!n.has("id")) continue; // a notification
                if (id == null) return l;
                if (n.path("id").isString() && n.path("id").asString().equals(id)) return l;
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            } catch (
                    InterruptedException
                            e) { // close() does not throw it (AutoCloseable's advice): the process goes, the flag stays
                // set
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
