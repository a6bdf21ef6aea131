package steward.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.recall.RecallRuntime;
import steward.recall.RecallSettings;
import steward.server.tools.StewardTool;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import steward.testing.ClaudeTestHomes;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A seeded, schema-driven fuzz of every registered tool. From each tool's input schema (and its sample arguments in
 * {@code server/src/test/resources/samples}) it makes schema-valid arguments at the edges (empty, blank, 10,000
 * characters, emoji, CJK, RTL, NUL and control characters, the bounds of every number and just inside them, odd but
 * valid ISO times, ids that do and do not exist, duplicate and empty arrays, empty objects) and schema-invalid ones
 * (wrong types, a required property missing, an extra property, out of range), and calls the tool on private copies of
 * the fixture homes (Hermes and Claude Code), the state dir kept apart. For every call: nothing escapes, no "internal
 * error", an error says {@code "<tool>: "} first, a result validates against the output schema, an error wrote nothing
 * (homes and state dir, byte for byte), and a read-only tool never writes in the homes. The homes are copied again only
 * after a call wrote legitimately. Dense recall and background indexing are off; cases per tool are capped.
 */
class SchemaFuzzTest {
    static final long SEED = Long.getLong("fuzz.seed", 0x5EED_2026_1204L);
    static final int MAX_CASES_PER_TOOL = Integer.getInteger("fuzz.cases", 70);
    /** How many of a tool's first cases run again on each other home (no Hermes home; a bare one). */
    static final int CLAUDE_ONLY_CASES = Integer.getInteger("fuzz.otherHomes", 12);

    static final Instant NOW = Instant.parse("2026-08-10T12:00:00Z");
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    @TempDir
    Path tmp;

    private int copies;

    /** One private copy of both homes and a state dir, with a digest of each. */
    final class Homes {
        final Path hermes, claude, state, project;
        final ToolContext ctx;
        Map<String, Integer> hermesSnap, claudeSnap, stateSnap;

        /**
         * {@code variant}: 0 the fixture homes; 1 no Hermes home at all (the default Hermes home, absent), as a Claude
         * Code-only user has; 2 a bare Hermes home holding only another state.db (fixtures/forensics-home: no memories,
         * no skills, no config).
         */
        Homes(RecallRuntime recall, int variant) throws Exception {
            boolean claudeOnly = variant == 1;
            Path dir = Files.createDirectory(tmp.resolve("copy" + (copies++)));
            if (variant == 0) hermes = TestHomes.copyFixture(dir);
            else if (variant == 1) hermes = dir.resolve("no-hermes");
            else {
                hermes = Files.createDirectory(dir.resolve("bare-hermes"));
                Files.copy(TestHomes.repo().resolve("fixtures/forensics-home/state.db"), hermes.resolve("state.db"));
            }
            claude = ClaudeTestHomes.install(dir, false);
            project = ClaudeTestHomes.memoryProject(claude);
            state = dir.resolve("state");
            StewardPaths paths = (claudeOnly
                            ? StewardPaths.claudeOnly(hermes, claude)
                            : StewardPaths.of(hermes, claude))
                    .withStateDir(state);
            ctx = new ToolContext(paths, Clock.fixed(NOW, ZoneOffset.UTC), Work.NONE, recall);
        }

        void snapshot() throws Exception {
            hermesSnap = TestSupport.snapshotTree(hermes);
            claudeSnap = TestSupport.snapshotTree(claude);
            stateSnap = TestSupport.snapshotTree(state);
        }

        boolean homesChanged() throws Exception {
            return !hermesSnap.equals(TestSupport.snapshotTree(hermes))
                    || !claudeSnap.equals(TestSupport.snapshotTree(claude));
        }

        String changes() throws Exception {
            return changes("");
        }

        /**
         * What changed since the snapshot. Not counted: lock files (coordination, as SQLite's -wal and -shm), the
         * Claude scan cache (a cache of file digests) and, for memory_write, memory-history.json, where a failed write
         * counts Hermes' consolidation failures by design, and memories/ with its lock file, which Hermes itself creates
         * before a write that then fails (MemoryDifferentialHermesTest, "no memories dir").
         */
        String changes(String tool) throws Exception {
            List<String> out = new ArrayList<>();
            diff("hermes", hermesSnap, TestSupport.snapshotTree(hermes), out);
            diff("claude", claudeSnap, TestSupport.snapshotTree(claude), out);
            diff("state", stateSnap, TestSupport.snapshotTree(state), out);
            out.removeIf(c -> c.contains(".lock ")
                    || c.startsWith("state// ")
                    || c.startsWith("state/claude/ ")
                    || c.startsWith("state/claude/scan-cache.bin ")
                    || (tool.equals("memory_write") && c.startsWith("state/memory-history.json "))
                    || (tool.equals("memory_write") && c.equals("hermes/memories/ created")));
            return String.join(", ", out);
        }

        /** Placeholders of the samples and generated values that only a home can resolve. */
        JsonNode resolve(JsonNode args, ToolRegistry registry) {
            String text = args.toString();
            if (text.contains("\"$decision_id\"")) {
                ToolResult inject = registry.invoke(
                        "recall_inject",
                        Json.MAPPER.readTree("{\"context\":\"session housekeeping memory\",\"mode\":\"active\"}"),
                        ctx);
                String id = inject.isError()
                        ? "decision-none"
                        : ToolRegistry.toJson(inject.structured())
                                .path("decision_id")
                                .asString("decision-none");
                text = text.replace("\"$decision_id\"", "\"" + id + "\"");
            }
            if (text.contains("\"$mplan_id\"")) {
                ToolResult plan = registry.invoke(
                        "memory_consolidate",
                        Json.MAPPER.readTree("{\"step\":\"plan\",\"proposals\":[{\"text\":\"[env] Build box shell is"
                                + " fish 3.7\",\"kind\":\"fact\",\"evidence\":[\"session:s1\"]}]}"),
                        ctx);
                String id = plan.isError()
                        ? "mplan-none"
                        : ToolRegistry.toJson(plan.structured()).path("plan_id").asString("mplan-none");
                text = text.replace("\"$mplan_id\"", "\"" + id + "\"");
            }
            if (text.contains("\"$version\"")) {
                registry.invoke(
                        "memory_write",
                        Json.MAPPER.readTree("{\"action\":\"add\",\"target\":\"memory\",\"content\":\"fuzz v\"}"),
                        ctx);
                ToolResult list = registry.invoke(
                        "memory_history", Json.MAPPER.readTree("{\"file\":\"memories/MEMORY.md\"}"), ctx);
                JsonNode versions = list.isError()
                        ? F.arrayNode()
                        : ToolRegistry.toJson(list.structured()).path("versions");
                String v = versions.path(versions.size() - 1).path("id").asString("version-none");
                text = text.replace("\"$version\"", "\"" + v + "\"");
            }
            text = text.replace("$project", project.toString()).replace("$claude_home", claude.toString());
            if (text.contains("\"$plan_id\"") || text.contains("\"$backup_id\"")) {
                String store = Files.isDirectory(hermes) ? "hermes" : "claude";
                ToolResult audit = registry.invoke(
                        "session_audit",
                        Json.MAPPER.readTree("{\"now\":\"2026-08-10T12:00:00Z\",\"store\":\"" + store + "\"}"),
                        ctx);
                String plan = audit.isError()
                        ? "plan-none"
                        : ToolRegistry.toJson(audit.structured())
                                .path("plan_id")
                                .asString("plan-none");
                if (text.contains("\"$backup_id\"")) {
                    ToolResult applied = registry.invoke(
                            "session_apply",
                            Json.MAPPER.readTree("{\"plan_id\":\"" + plan + "\",\"store\":\"" + store + "\"}"),
                            ctx);
                    if (Boolean.getBoolean("fuzz.verbose"))
                        System.err.println("FUZZ-APPLY " + abbreviate(applied.text()));
                    String backup = applied.isError()
                            ? "backup-none"
                            : ToolRegistry.toJson(applied.structured())
                                    .path("backup")
                                    .path("backup_id")
                                    .asString("backup-none");
                    text = text.replace("\"$backup_id\"", "\"" + backup + "\"");
                }
                text = text.replace("\"$plan_id\"", "\"" + plan + "\"");
            }
            if (Boolean.getBoolean("fuzz.verbose") && !text.equals(args.toString()))
                System.err.println("FUZZ-RESOLVED " + abbreviate(text));
            return Json.MAPPER.readTree(text);
        }
    }

    private static void diff(String where, Map<String, Integer> a, Map<String, Integer> b, List<String> out) {
        Set<String> keys = new LinkedHashSet<>(a.keySet());
        keys.addAll(b.keySet());
        for (String k : keys)
            if (!java.util.Objects.equals(a.get(k), b.get(k)))
                out.add(where + "/" + k
                        + (a.containsKey(k) ? (b.containsKey(k) ? " changed" : " deleted") : " created"));
    }

    @Test
    void everyToolSurvivesSchemaDrivenInputs() throws Exception {
        long start = System.nanoTime();
        ToolRegistry registry = Tools.registry();
        List<String> failures = new ArrayList<>();
        int total = 0;
        Map<String, Integer> perTool = new LinkedHashMap<>();
        try (RecallRuntime recall = new RecallRuntime(RecallSettings.resolve(
                Map.of(), Map.of("steward.recall.dense", "off", "steward.recall.background", "off")))) {
            for (StewardTool<?> tool : registry.tools()) {
                String name = tool.name();
                List<JsonNode> cases = cases(name, new Random(SEED ^ name.hashCode()));
                // the first cases (the samples and the structural ones first) again without a Hermes home
                int both = cases.size();
                cases.addAll(cases.subList(0, Math.min(CLAUDE_ONLY_CASES, both)));
                int claudeOnly = cases.size();
                cases.addAll(cases.subList(0, Math.min(CLAUDE_ONLY_CASES, both)));
                perTool.put(name, cases.size());
                Homes homes = null;
                for (int i = 0; i < cases.size(); i++) {
                    JsonNode raw = cases.get(i);
                    if (i == both || i == claudeOnly) homes = null;
                    int variant = i < both ? 0 : i < claudeOnly ? 1 : 2;
                    if (homes == null) {
                        homes = new Homes(recall, variant);
                        homes.snapshot();
                    }
                    total++;
                    JsonNode args = raw.isObject() ? homes.resolve(raw, registry) : raw;
                    if (raw.isObject() && !raw.toString().equals(args.toString())) homes.snapshot();
                    boolean valid = args.isObject()
                            && Schemas.validate(name + ".input.json", tool.arguments((ObjectNode) args.deepCopy()))
                                    .isEmpty();
                    String what = name
                            + List.of(" ", " (Claude Code only) ", " (bare Hermes home) ")
                                    .get(variant)
                            + abbreviate(args.toString());
                    ToolResult r;
                    try {
                        r = registry.invoke(name, args, homes.ctx);
                    } catch (Throwable t) {
                        failures.add(what + " → escaped " + t);
                        homes = null;
                        continue;
                    }
                    String text = r.text() == null ? "" : r.text();
                    if (r.text() == null) failures.add(what + " → no text");
                    if (text.contains("internal error")) failures.add(what + " → " + abbreviate(text));
                    if (!valid && !r.isError()) failures.add(what + " → schema-invalid arguments were accepted");
                    if (r.isError()) {
                        if (!text.startsWith(name + ": ")) failures.add(what + " → error text " + abbreviate(text));
                        String changed = homes.changes(name);
                        if (!changed.isEmpty())
                            failures.add(what + " → an error wrote: " + changed + " (" + abbreviate(text) + ")");
                    } else {
                        if (r.structured() == null) failures.add(what + " → no structuredContent");
                        else {
                            List<String> problems =
                                    Schemas.validate(name + ".output.json", ToolRegistry.toJson(r.structured()));
                            if (!problems.isEmpty())
                                failures.add(what + " → output does not match its schema: " + problems);
                        }
                    }
                    if (tool.hints().readOnly() && homes.homesChanged())
                        failures.add(what + " → read-only tool wrote in the homes: " + homes.changes());
                    if (!r.isError()
                            && !tool.hints().readOnly()
                            && !homes.changes().isEmpty()) probe(registry, homes, what, failures);
                    if (raw.toString().contains("\"$backup_id\"")
                            || raw.toString().contains("\"$version\"")) {
                        homes = null; // the ids were made by writing in the homes: the next case gets fresh copies
                    } else if (!homes.changes().isEmpty()) {
                        // a read-only tool's own state (plans, the recall index) is kept; any other write, reported
                        // above or legitimate, gets the next case fresh copies
                        if (tool.hints().readOnly() && !homes.homesChanged()) homes.snapshot();
                        else homes = null;
                    }
                }
            }
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.err.println("SchemaFuzzTest: " + total + " calls in " + ms + " ms, " + copies + " home copies; "
                + perTool + "; " + failures.size() + " failures");
        for (String f : failures) System.err.println("FUZZ " + f);
        assertTrue(
                failures.isEmpty(),
                failures.size() + " failures, first: "
                        + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
    }

    /** Reads that must still work on the homes a write left (a write must not leave state that readers choke on). */
    static final List<String[]> PROBES = List.of(
            new String[] {"steward_status", "{}"},
            new String[] {"memory_health", "{}"},
            new String[] {"session_audit", "{\"now\":\"2026-08-10T12:00:00Z\"}"},
            new String[] {"session_audit", "{\"now\":\"2026-08-10T12:00:00Z\",\"store\":\"claude\"}"},
            new String[] {"memory_history", "{\"file\":\"memories/MEMORY.md\"}"},
            new String[] {"session_preferences", "{}"},
            new String[] {"recall_search", "{\"query\":\"session housekeeping\"}"});

    private static void probe(ToolRegistry registry, Homes homes, String after, List<String> failures) {
        if (!PROBE) return;
        for (String[] p : PROBES) {
            // Hermes' memory is not served without a Hermes home (they say so, as an error)
            if (!Files.isDirectory(homes.hermes) && p[0].startsWith("memory_")) continue;
            ToolResult r;
            try {
                r = registry.invoke(p[0], Json.MAPPER.readTree(p[1]), homes.ctx);
            } catch (Throwable t) {
                failures.add("after " + after + ": " + p[0] + " escaped " + t);
                continue;
            }
            if (r.isError()) {
                failures.add("after " + after + ": " + p[0] + " " + p[1] + " → " + abbreviate(r.text()));
                continue;
            }
            List<String> problems = Schemas.validate(p[0] + ".output.json", ToolRegistry.toJson(r.structured()));
            if (!problems.isEmpty())
                failures.add("after " + after + ": " + p[0] + " output does not match its schema: " + problems);
        }
    }

    static final boolean PROBE = !"off".equals(System.getProperty("fuzz.probe"));

    private static String abbreviate(String s) {
        s = s.replaceAll("(.)\\1{40,}", "$1$1$1…×many");
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }

    // ---- case generation -------------------------------------------------------------------------------------------

    static List<JsonNode> samples(String tool) throws Exception {
        Path f = TestHomes.repo().resolve("server/src/test/resources/samples/" + tool + ".json");
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode n : Json.MAPPER.readTree(Files.readString(f))) out.add(n);
        return out;
    }

    /** Every case of one tool, in a seeded order, capped: each sample first, then a seeded selection of the rest. */
    static List<JsonNode> cases(String tool, Random rnd) throws Exception {
        JsonNode schema = Schemas.input(tool);
        List<JsonNode> bases = new ArrayList<>(samples(tool));
        LinkedHashMap<String, JsonNode> must = new LinkedHashMap<>();
        LinkedHashMap<String, JsonNode> rest = new LinkedHashMap<>();
        bases.addAll(CHAINED.getOrDefault(tool, List.of()));
        for (JsonNode b : bases) must.put(b.toString(), b);
        // arguments that are no object at all, an empty object, an extra property, a required property missing
        for (JsonNode n : List.<JsonNode>of(F.arrayNode().add(1), F.stringNode("x"), F.numberNode(1), F.objectNode()))
            must.put(n.toString(), n);
        ObjectNode extra = ((ObjectNode) bases.get(0).deepCopy()).put("zz_surprise", 1);
        must.put(extra.toString(), extra);
        for (JsonNode req : schema.path("required")) {
            ObjectNode o = (ObjectNode) bases.get(0).deepCopy();
            o.remove(req.asString());
            must.put(o.toString(), o);
        }
        for (JsonNode base : bases) {
            for (var p : schema.path("properties").properties()) {
                for (JsonNode v : values(p.getKey(), p.getValue(), 0, rnd)) {
                    ObjectNode o = (ObjectNode) base.deepCopy();
                    o.set(p.getKey(), v);
                    rest.putIfAbsent(o.toString(), o);
                }
                ObjectNode without = (ObjectNode) base.deepCopy();
                if (without.remove(p.getKey()) != null) rest.putIfAbsent(without.toString(), without);
            }
        }
        // two properties at their edges at once
        List<Map.Entry<String, JsonNode>> props = new ArrayList<>();
        for (var p : schema.path("properties").properties()) props.add(Map.entry(p.getKey(), p.getValue()));
        for (int i = 0; i < 20 && props.size() > 1; i++) {
            ObjectNode o = (ObjectNode) bases.get(rnd.nextInt(bases.size())).deepCopy();
            for (int j = 0; j < 2; j++) {
                var p = props.get(rnd.nextInt(props.size()));
                List<JsonNode> vs = values(p.getKey(), p.getValue(), 0, rnd);
                o.set(p.getKey(), vs.get(rnd.nextInt(vs.size())));
            }
            rest.putIfAbsent(o.toString(), o);
        }
        rest.keySet().removeAll(must.keySet());
        List<JsonNode> others = new ArrayList<>(rest.values());
        Collections.shuffle(others, rnd);
        List<JsonNode> out = new ArrayList<>(must.values());
        for (JsonNode n : others) {
            if (out.size() >= MAX_CASES_PER_TOOL) break;
            out.add(n);
        }
        return out;
    }

    /** More bases, with ids only another call on the same copy makes. */
    static final Map<String, List<JsonNode>> CHAINED = Map.of(
            "memory_consolidate",
            List.of(Json.MAPPER.readTree("{\"step\":\"apply\",\"plan_id\":\"$mplan_id\"}")),
            "recall_feedback",
            List.of(Json.MAPPER.readTree("{\"decision_id\":\"$decision_id\",\"outcome\":\"used\"}")),
            "memory_history",
            List.of(
                    Json.MAPPER.readTree("{\"action\":\"diff\",\"file\":\"memories/MEMORY.md\",\"from\":\"$version\"}"),
                    Json.MAPPER.readTree(
                            "{\"action\":\"rollback\",\"file\":\"memories/MEMORY.md\",\"version\":\"$version\"}")));

    static final String LONG = "a".repeat(10_000);
    static final List<String> STRINGS = List.of(
            "",
            " ",
            " \t\n ",
            LONG,
            "😀🚀 emoji 👩‍👩‍👧",
            "中文记忆 扩容",
            "مرحبا بالعالم שלום",
            "nul\u0000char",
            "\u0001\u0007\u001b[31mctl\u007f",
            "\uD800 lone surrogate",
            "../../../../etc/passwd",
            "C:\\Windows\\x",
            "%s %n {} ${x} '\"; DROP TABLE sessions; --",
            "x\r\ny");
    static final List<String> TIMES = List.of(
            "2026-08-10T12:00:00Z",
            "2026-08-10",
            "2026-08-10T12:00:00",
            "2024-02-29T23:59:59.999999999+14:00",
            "2026-08-10T12:00:00-12:00",
            "1970-01-01T00:00:00Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "+10000-01-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-13-01",
            "yesterday",
            "1786363200",
            "2026-08-10T24:00:00Z");
    static final List<String> IDS = List.of(
            "20260810_071500_a6a3a4",
            "20260804_073200_c08a58",
            "20260801_105200_7c5d42",
            "68149f26-9a2d-3d96-8f09-abfc0ece24b6",
            "68149f26-9a2d-3d96-8f09-abfc0ece24b6/agent-a1f0c2d94b7e",
            "ba35787b-6d73-3267-abee-547866c88c23",
            "does-not-exist-0000",
            "../steward",
            "*",
            "%");

    /** Values at the edges for one property (schema-valid and not), by its schema and its name. */
    static List<JsonNode> values(String name, JsonNode s, int depth, Random rnd) {
        List<JsonNode> out = new ArrayList<>();
        out.add(F.nullNode());
        if (s.has("enum")) {
            for (JsonNode e : s.get("enum")) out.add(e);
            String first = s.get("enum").get(0).asString();
            out.add(F.stringNode(first.toUpperCase()));
            out.add(F.stringNode(" " + first));
            out.add(F.stringNode(""));
            out.add(F.numberNode(1));
            return out;
        }
        Set<String> types = new LinkedHashSet<>();
        JsonNode t = s.path("type");
        if (t.isArray()) for (JsonNode x : t) types.add(x.asString());
        else if (t.isString()) types.add(t.asString());
        if (types.contains("string")) {
            List<String> vs = new ArrayList<>(STRINGS);
            String lower = name.toLowerCase();
            if (lower.equals("now") || lower.equals("since") || lower.equals("until") || lower.equals("through"))
                vs.addAll(TIMES);
            if (lower.contains("id") || lower.equals("from") || lower.equals("to") || lower.equals("version"))
                vs.addAll(IDS);
            if (lower.equals("plan_id")) vs.addAll(List.of("$plan_id", "plan-0000", "$mplan_id"));
            if (lower.equals("decision_id")) vs.add("$decision_id");
            if (lower.equals("version") || lower.equals("from") || lower.equals("to")) vs.add("$version");
            if (lower.equals("backup_id")) vs.addAll(List.of("$backup_id", "backup-0000"));
            if (lower.equals("file"))
                vs.addAll(List.of(
                        "memories/MEMORY.md",
                        "memories/USER.md",
                        "memories/",
                        "state.db",
                        "/etc/passwd",
                        "skills/session-housekeeping/SKILL.md",
                        "skills/../memories/MEMORY.md",
                        "$claude_home/CLAUDE.md"));
            if (lower.equals("target")) vs.addAll(List.of("memory", "user", "claude", "claude_md", "MEMORY", "skills"));
            if (lower.equals("action")) vs.addAll(List.of("add", "replace", "remove", "list", "ADD", "delete"));
            if (lower.equals("project") || lower.equals("workspace") || lower.equals("cwd"))
                vs.addAll(List.of("$project", "/", "relative/dir", "/no/such/dir", "$claude_home"));
            if (lower.equals("content") || lower.equals("old_text") || lower.equals("note") || lower.equals("text"))
                vs.addAll(List.of(
                        "entry one\n§\nentry two",
                        "§",
                        "\n§\n",
                        "# heading\n---\nname: x\n---",
                        "- [x](y.md) — z",
                        "line\u2028sep\u2029para\u0085nel"));
            if (lower.equals("name") || lower.equals("description"))
                vs.addAll(
                        List.of("../../../evil", "a/b", ".", "..", "MEMORY", "CON", "x".repeat(300), "new\nline", "-"));
            if (lower.equals("title") || lower.equals("rule")) vs.addAll(List.of("new\nline", "x".repeat(400)));
            if (lower.equals("rule")) vs.addAll(List.of("B", "B/long", "Z", "m@x", "e/" + "x".repeat(300)));
            if (lower.equals("query") || lower.equals("context") || lower.equals("request") || lower.equals("content"))
                vs.addAll(List.of("docker", "session housekeeping", "*", "\"unbalanced", "OR AND NOT", "NEAR(a b)"));
            if (s.has("pattern") && s.get("pattern").asString().startsWith("^steward://"))
                vs.addAll(List.of(
                        "steward://",
                        "steward://memory/memory/1",
                        "steward://memory/memory/999999",
                        "steward://session/does-not-exist",
                        "steward://skill/../../x",
                        "steward://" + LONG));
            if (s.has("maxLength")) {
                int max = s.get("maxLength").asInt();
                vs.add("b".repeat(max));
                vs.add("b".repeat(max + 1));
            }
            if (s.has("minLength")) {
                int min = s.get("minLength").asInt();
                if (min > 0) vs.add("c".repeat(min));
            }
            for (String v : vs) out.add(F.stringNode(v));
        }
        if (types.contains("integer") || types.contains("number")) {
            boolean integer = types.contains("integer");
            long min = s.has("minimum") ? (long) Math.ceil(s.get("minimum").asDouble()) : Integer.MIN_VALUE;
            long max = s.has("maximum") ? (long) Math.floor(s.get("maximum").asDouble()) : Integer.MAX_VALUE;
            for (long v :
                    new long[] {min, min + 1, max - 1, max, min - 1, max + 1, 0, -1, Long.MAX_VALUE, Long.MIN_VALUE})
                out.add(F.numberNode(v));
            out.add(F.numberNode(new java.math.BigInteger("99999999999999999999999")));
            out.add(F.numberNode(1e308));
            out.add(F.numberNode(-1e-300));
            if (s.has("minimum")) out.add(F.numberNode(s.get("minimum").asDouble() + (integer ? 0.5 : 0.001)));
            if (s.has("maximum")) out.add(F.numberNode(s.get("maximum").asDouble() - (integer ? 0.5 : 0.001)));
            out.add(F.numberNode(min + 0.0)); // 5.0: an integer written as a decimal
            out.add(F.stringNode(String.valueOf(min)));
        }
        if (types.contains("boolean")) {
            out.add(F.booleanNode(true));
            out.add(F.booleanNode(false));
            out.add(F.stringNode("true"));
            out.add(F.numberNode(0));
        }
        if (types.contains("array")) {
            JsonNode items = s.path("items");
            List<JsonNode> iv = depth < 2 ? values(name, items, depth + 1, rnd) : List.of(minimal(items));
            out.add(F.arrayNode());
            JsonNode one = minimal(items);
            out.add(F.arrayNode().add(one));
            out.add(F.arrayNode().add(one).add(one.deepCopy()));
            ArrayNode many = F.arrayNode();
            int n = s.has("maxItems") ? s.get("maxItems").asInt() + 1 : 200;
            for (int i = 0; i < Math.min(n, 10_001); i++)
                many.add(iv.get(iv.size() == 1 ? 0 : 1 + (i % (iv.size() - 1))));
            out.add(many);
            if (s.has("maxItems")) {
                ArrayNode atMax = F.arrayNode();
                for (int i = 0; i < s.get("maxItems").asInt() && i < 10_000; i++)
                    atMax.add(iv.get(iv.size() == 1 ? 0 : 1 + (i % (iv.size() - 1))));
                out.add(atMax);
            }
            List<JsonNode> pick = new ArrayList<>(iv);
            Collections.shuffle(pick, rnd);
            for (JsonNode v : pick.subList(0, Math.min(12, pick.size()))) {
                out.add(F.arrayNode().add(v));
                out.add(F.arrayNode().add(one.deepCopy()).add(v));
            }
            out.add(F.objectNode());
        }
        if (types.contains("object") || (s.has("properties") && types.isEmpty())) {
            out.add(F.objectNode());
            ObjectNode base = (ObjectNode) minimal(s);
            out.add(base);
            for (var p : s.path("properties").properties()) {
                List<JsonNode> pv = depth < 3 ? values(p.getKey(), p.getValue(), depth + 1, rnd) : List.of();
                List<JsonNode> pick = new ArrayList<>(pv);
                Collections.shuffle(pick, rnd);
                for (JsonNode v : pick.subList(0, Math.min(10, pick.size()))) {
                    ObjectNode o = base.deepCopy();
                    o.set(p.getKey(), v);
                    out.add(o);
                }
            }
            JsonNode ap = s.path("additionalProperties");
            if (ap.isObject()) {
                for (String key : List.of(
                        "20260801_105200_7c5d42",
                        "q1",
                        "g1",
                        "B",
                        "",
                        "does-not-exist",
                        "68149f26-9a2d-3d96-8f09-abfc0ece24b6"))
                    for (JsonNode v : values(key, ap, depth + 1, rnd)) {
                        if (rnd.nextInt(3) != 0) continue;
                        ObjectNode o = F.objectNode();
                        o.set(key, v);
                        out.add(o);
                    }
            }
            out.add(base.deepCopy().put("zz_surprise", true));
            out.add(F.arrayNode());
            out.add(F.stringNode("{}"));
        }
        if (!types.contains("string") && !s.has("enum")) out.add(F.stringNode("x"));
        if (!types.contains("integer") && !types.contains("number")) out.add(F.numberNode(7));
        return out;
    }

    /** The smallest schema-valid value (as far as this generator knows). */
    static JsonNode minimal(JsonNode s) {
        if (s.has("enum")) return s.get("enum").get(0);
        String type = s.path("type").isArray()
                ? s.path("type").get(0).asString()
                : s.path("type").asString("object");
        switch (type) {
            case "string":
                if (s.has("pattern") && s.get("pattern").asString().startsWith("^steward://"))
                    return F.stringNode("steward://memory/memory/1");
                return F.stringNode("x");
            case "integer":
            case "number":
                return F.numberNode(
                        s.has("minimum") ? (long) Math.ceil(s.get("minimum").asDouble()) : 1);
            case "boolean":
                return F.booleanNode(true);
            case "array": {
                ArrayNode a = F.arrayNode();
                if (s.has("minItems")) a.add(minimal(s.path("items")));
                return a;
            }
            default: {
                ObjectNode o = F.objectNode();
                for (JsonNode r : s.path("required"))
                    o.set(r.asString(), minimal(s.path("properties").path(r.asString())));
                return o;
            }
        }
    }
}
