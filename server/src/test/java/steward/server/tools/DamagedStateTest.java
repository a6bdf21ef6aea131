package steward.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.retention.Retention;
import steward.testing.ClaudeTestHomes;
import tools.jackson.databind.JsonNode;

/**
 * Steward's own state damaged (a file emptied or cut by a crash or a full disk, the wrong shape, hand-edited): every
 * tool answers in words, nothing automatic comes of it, the user's files are never lost for it, and the damage is
 * reported rather than silently reset.
 */
class DamagedStateTest {
    @TempDir
    Path tmp;

    /** A Claude Code-only apply of the fixture: the backup's manifest ({@code b_….claude.jsonl}) and its moved files. */
    record ClaudeBackup(ToolTestSupport t, String id, Path manifest, Path files) {}

    ClaudeBackup claudeBackup(Path dir) throws Exception {
        ToolTestSupport t = new ToolTestSupport(Files.createDirectories(dir), true);
        String plan =
                t.ok("session_audit", "{\"store\":\"claude\"}").get("plan_id").asString();
        String id = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\"}")
                .get("backup")
                .get("backup_id")
                .asString();
        Path sessions = t.ctx.paths().stateDir().resolve("backups/sessions");
        return new ClaudeBackup(t, id, sessions.resolve(id + ".claude.jsonl"), sessions.resolve(id + ".files/claude"));
    }

    @Test
    void aDamagedClaudeBackupManifestKeepsTheOnlyCopyAndRestoreSaysSo() throws Exception {
        int n = 0;
        for (String damage : List.of("", "null\n", "[]\n{}\n", "{\"id\":\"x\"", "../")) {
            ClaudeBackup b = claudeBackup(tmp.resolve("c" + n++));
            Map<String, String> saved = ClaudeTestHomes.tree(b.files());
            assertFalse(saved.isEmpty());
            if (damage.equals("../")) { // an edited path that leaves the Claude Code home
                List<String> lines = Files.readAllLines(b.manifest());
                lines.set(0, lines.get(0).replaceFirst("\"paths\":\\[\"", "\"paths\":[\"../../"));
                damage = String.join("\n", lines) + "\n";
            }
            Files.writeString(b.manifest(), damage);
            Clock later = Clock.offset(b.t().ctx.clock(), Duration.ofDays(400));
            Retention.Report r = new Retention(b.t().ctx.paths(), later).run(true);
            assertEquals(List.of(), r.pruned_backups(), "damage " + damage.strip() + ": " + r);
            assertEquals(saved, ClaudeTestHomes.tree(b.files()), "the moved transcripts are the only copy");
            assertTrue(
                    r.warnings().stream().anyMatch(w -> w.contains(b.id())),
                    r.warnings().toString());

            ToolResult restore = b.t().call("session_restore", "{\"backup_id\":\"" + b.id() + "\"}");
            assertTrue(restore.isError(), restore.text());
            assertTrue(restore.text().startsWith("session_restore: backup " + b.id() + " "), restore.text());
            assertFalse(restore.text().contains("internal error"), restore.text());
            assertEquals(saved, ClaudeTestHomes.tree(b.files()));
        }
        // no manifest at all: its files are still the only copy
        ClaudeBackup b = claudeBackup(tmp.resolve("gone"));
        Files.delete(b.manifest());
        Files.writeString(b.manifest().resolveSibling(b.id() + ".jsonl"), "");
        Retention.Report r =
                new Retention(b.t().ctx.paths(), Clock.offset(b.t().ctx.clock(), Duration.ofDays(400))).run(true);
        assertEquals(List.of(), r.pruned_backups(), r.toString());
        assertTrue(Files.isDirectory(b.files()));
    }

    @Test
    void aDamagedPlanIsRefusedInWordsAndAppliesNothing() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        String id = t.ok("session_audit", "{}").get("plan_id").asString();
        Path plan = t.ctx.paths().stateDir().resolve("plans/" + id + ".json");
        JsonNode good = steward.json.Json.MAPPER.readTree(Files.readAllBytes(plan));
        Path db = t.home.resolve("state.db");
        byte[] before = Files.readAllBytes(db);
        List<java.util.function.UnaryOperator<String>> damages = List.of(
                s -> "null",
                s -> s.replaceFirst("\"stores\":\\[", "\"stores\":[null,"),
                s -> s.replaceFirst("\"items\":\\[", "\"items\":[null,"),
                s -> s.replaceFirst(
                        "\"items\":\\[\\[\"([^\"]+)\",\"([^\"]+)\",\"([^\"]+)\",", "\"items\":[[\"$1\",\"$2\",null,"),
                s -> s.replaceFirst("\"delete\",\"HIGH\"", "\"delete\",null"),
                s -> s.replaceFirst("\"delete\",\"HIGH\"", "\"erase\",\"HIGH\""),
                s -> s.replaceFirst("\"items\":\\[.*\\]\\}$", "\"items\":null}"),
                s -> s.replace("\"plan_id\":\"" + id + "\"", "\"plan_id\":\"p_0000000000000000\""));
        for (var d : damages) {
            String damaged = d.apply(steward.json.Json.MAPPER.writeValueAsString(good));
            assertFalse(damaged.equals(steward.json.Json.MAPPER.writeValueAsString(good)), "the damage applies");
            Files.writeString(plan, damaged);
            ToolResult r = t.call("session_apply", "{\"plan_id\":\"" + id + "\"}");
            assertTrue(r.isError(), r.text());
            assertTrue(r.text().startsWith("session_apply: plan " + id + " is unreadable: damaged ("), r.text());
            assertTrue(r.text().contains("run session_audit again"), r.text());
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(db)), "nothing applied");
            assertEquals(damaged, Files.readString(plan), "the plan is left where it was");
        }
    }

    @Test
    void aDamagedStagedWriteIsListedAsDamagedAndNeverApplied() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Files.writeString(t.home.resolve("config.yaml"), "memory:\n  write_approval: true\n");
        String good = t.ok("memory_write", "{\"action\":\"add\",\"content\":\"[env] Uses fish\"}")
                .get("pending_id")
                .asString();
        String bad = t.ok("memory_write", "{\"action\":\"add\",\"content\":\"[env] Editor is Helix\"}")
                .get("pending_id")
                .asString();
        Path f = t.home.resolve("pending/memory/" + bad + ".json");
        String whole = Files.readString(f);
        Path mem = t.home.resolve("memories/MEMORY.md");
        byte[] before = Files.readAllBytes(mem);
        for (String damage : List.of(
                "null",
                "",
                whole.substring(0, whole.length() / 2),
                whole.replaceFirst("\"request\" : \\{", "\"request\" : null, \"x\" : {"),
                whole.replaceFirst("\"created_at\" : \"[^\"]*\"", "\"created_at\" : null"))) {
            Files.writeString(f, damage);
            ToolResult list = t.call("memory_pending", "{}");
            assertFalse(list.isError(), list.text());
            JsonNode l = t.ok("memory_pending", "{}");
            assertEquals(1, l.get("count").asInt(), "the readable one is listed");
            assertEquals(good, l.get("pending").get(0).get("pending_id").asString());
            assertEquals(1, l.get("unreadable").size(), l.toString());
            assertTrue(l.get("unreadable").get(0).asString().contains(bad), l.toString());
            assertTrue(list.text().contains(bad), list.text());
            for (String action : List.of("approve", "reject")) {
                ToolResult r =
                        t.call("memory_pending", "{\"action\":\"" + action + "\",\"pending_id\":\"" + bad + "\"}");
                assertTrue(r.isError(), r.text());
                assertTrue(r.text().startsWith("memory_pending: pending write " + bad + " is unreadable ("), r.text());
                assertFalse(r.text().contains("internal error"), r.text());
            }
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(mem)), "nothing written");
            assertEquals(damage, Files.readString(f), "left as it is");
        }
    }

    /**
     * A damaged injection log never blocks recall and is never written over: recall_search and recall_inject answer and
     * say so in their warnings (inject keeps no cooldown or log for the call), recall_feedback on a decision refuses in
     * words naming the file.
     */
    @Test
    void aDamagedInjectionLogIsNamedAndLeftAsItIsWithoutBlockingRecall() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        JsonNode inj = t.ok("recall_inject", "{\"context\":\"what package manager do I use?\",\"session_id\":\"s1\"}");
        String id = inj.get("decision_id").asString();
        Path log = t.ctx.paths().stateDir().resolve("recall/injections.json");
        assertTrue(Files.isRegularFile(log));
        for (String damage : List.of(
                "null",
                "{\"sessions\":{\"s1\":null},\"decisions\":[]}",
                "{\"sessions\":{},\"decisions\":[null]}",
                "{\"sessions\":{},\"decisions\":[{\"decision_id\":\"" + id + "\",\"top_score\":1}]}")) {
            Files.writeString(log, damage);
            ToolResult r = t.call("recall_inject", "{\"context\":\"which editor do I use?\",\"session_id\":\"s1\"}");
            assertFalse(r.isError(), damage + ": " + r.text());
            assertTrue(r.text().contains("warning: " + log + " cannot be read: "), r.text());
            ToolResult s = t.call("recall_search", "{\"query\":\"which editor do I use?\"}");
            assertFalse(s.isError(), damage + ": " + s.text());
            assertTrue(s.text().contains("warning: " + log + " cannot be read: "), s.text());
            ToolResult f = t.call(
                    "recall_feedback",
                    "{\"decision_id\":\"" + id + "\",\"uris\":[\"steward://memory/x\"],\"outcome\":\"used\"}");
            assertTrue(f.isError(), damage + ": " + f.text());
            assertTrue(f.text().startsWith("recall_feedback: " + log + " cannot be read: "), f.text());
            assertTrue(f.text().endsWith("; fix or remove it"), f.text());
            assertFalse(JAVA.matcher(r.text() + s.text() + f.text()).find(), f.text());
            assertEquals(damage, Files.readString(log));
        }
    }

    /** What the fuzz bench counts as a Java name in an answer (FuzzBench.CLASS_NAME), and Jackson's own words. */
    static final java.util.regex.Pattern JAVA = java.util.regex.Pattern.compile(
            "\\b(java|javax|jdk|sun|tools\\.jackson|com\\.fasterxml|steward|org)\\.[a-z][\\w.]*\\.[A-Z]\\w+"
                    + "|\\b[A-Z]\\w*(Exception|Error)\\b|Cannot invoke|`|REDACTED|DeserializationFeature");

    @Test
    void aDamagedFeedbackFileIsNamedInPlainWords() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path fb = t.ctx.paths().stateDir().resolve("recall/feedback.json");
        Files.createDirectories(fb.getParent());
        for (String damage : List.of("null", "[]", "{\"items\":{\"u\":{\"used\":\"x1\"}}}", "{\"items\":")) {
            Files.writeString(fb, damage);
            ToolResult r = t.call("recall_search", "{\"query\":\"session housekeeping rules\"}");
            assertFalse(r.isError(), r.text());
            assertTrue(r.text().contains("warning: " + fb + " cannot be read: "), r.text());
            assertFalse(JAVA.matcher(r.text()).find(), r.text());
            ToolResult f = t.call("recall_feedback", "{\"reset\":\"calibration\"}");
            assertTrue(f.isError(), f.text());
            assertTrue(f.text().startsWith("recall_feedback: " + fb + " cannot be read: "), f.text());
            assertFalse(JAVA.matcher(f.text()).find(), f.text());
            assertEquals(damage, Files.readString(fb));
        }
    }

    /** A consolidation applied on the fixture: evidence.json and memory-index.json exist. */
    static ToolTestSupport consolidated(Path dir) throws Exception {
        ToolTestSupport t = new ToolTestSupport(dir);
        t.ok("memory_log", "{\"note\": \"User prefers pnpm over npm for every JS project\"}");
        JsonNode g = t.ok("memory_consolidate", "{}");
        String ref = g.path("days").get(0).path("lines").get(0).path("ref").asString();
        JsonNode plan = t.ok(
                "memory_consolidate",
                "{\"step\": \"plan\", \"through\": \"" + g.path("through").asString()
                        + "\", \"proposals\": [{\"text\": \"[env] pnpm, not npm, for JS projects\", \"kind\": "
                        + "\"preference\", \"evidence\": [\"" + ref + "\"]}]}");
        t.ok("memory_consolidate", "{\"plan_id\": \"" + plan.path("plan_id").asString() + "\"}");
        return t;
    }

    @Test
    void damagedEvidenceOrIndexIsNamedNotACrash() throws Exception {
        ToolTestSupport t = consolidated(tmp);
        Path ev = t.ctx.paths().stateDir().resolve("memory/evidence.json");
        String whole = Files.readString(ev);
        for (String damage : List.of(
                whole.replaceFirst("\"last_seen\" : \"[^\"]*\"", "\"last_seen\" : 7"),
                whole.replaceFirst("\"first_seen\" : \"[^\"]*\"", "\"first_seen\" : \"yesterday\""),
                whole.replaceFirst(
                        "\"entries\" : \\{\\s*\"([0-9a-f]+)\" : \\{", "\"entries\" : { \"$1\" : null, \"x\" : {"),
                "null")) {
            assertFalse(damage.equals(whole));
            Files.writeString(ev, damage);
            for (String tool : List.of("memory_health", "memory_consolidate")) {
                ToolResult r = t.call(tool, "{}");
                assertTrue(r.isError(), r.text());
                assertTrue(r.text().startsWith(tool + ": memory: cannot read " + ev + " ("), r.text());
                assertFalse(JAVA.matcher(r.text()).find(), r.text());
            }
            assertEquals(damage, Files.readString(ev));
        }
        Files.writeString(ev, whole);
        Path index = t.home.resolve("memories/memory-index.json");
        String idx = Files.readString(index);
        for (String damage : List.of(
                idx.replaceFirst("\"added\" : [0-9]+", "\"added\" : \"x1\""),
                idx.replaceFirst("\"added\" : [0-9]+", "\"added\" : 99999999999999999999999"),
                idx.replaceFirst("\"at\" : \"[^\"]*\"", "\"at\" : {}"))) {
            assertFalse(damage.equals(idx));
            Files.writeString(index, damage);
            ToolResult r = t.call("memory_health", "{}");
            assertFalse(r.isError(), r.text());
            assertEquals(damage, Files.readString(index));
        }
    }

    @Test
    void aDamagedConsolidationPlanIsRefusedAndWritesNothing() throws Exception {
        ToolTestSupport t = consolidated(tmp);
        ToolContext later =
                new ToolContext(t.ctx.paths(), Clock.offset(t.ctx.clock(), Duration.ofHours(2)), steward.Work.NONE);
        java.util.function.BiFunction<String, String, ToolResult> call =
                (tool, a) -> t.registry.invoke(tool, steward.json.Json.MAPPER.readTree(a), later);
        assertFalse(call.apply("memory_log", "{\"note\": \"User deploys with fly.io for every side project\"}")
                .isError());
        JsonNode g = steward.server.ToolRegistry.toJson(
                call.apply("memory_consolidate", "{}").structured());
        String ref = g.path("days").get(0).path("lines").get(0).path("ref").asString();
        String id = steward.server.ToolRegistry.toJson(call.apply(
                                "memory_consolidate",
                                "{\"step\": \"plan\", \"through\": \""
                                        + g.path("through").asString()
                                        + "\", \"proposals\": [{\"text\": \"[env] fly.io for side projects\", "
                                        + "\"kind\": \"preference\", \"evidence\": [\"" + ref + "\"]}]}")
                        .structured())
                .path("plan_id")
                .asString();
        Path plan = t.ctx.paths().stateDir().resolve("plans/" + id + ".json");
        String whole = Files.readString(plan);
        Path mem = t.home.resolve("memories/MEMORY.md");
        byte[] before = Files.readAllBytes(mem);
        for (String damage : List.of(
                whole.substring(0, whole.length() / 2),
                "null",
                whole.replaceFirst("\"expires_epoch\"\\s*:\\s*[0-9]+", "\"expires_epoch\":\"soon\""),
                whole.replaceFirst("\"expires_epoch\"\\s*:\\s*[0-9]+", "\"expires_epoch\":99999999999999999999999"),
                whole.replaceFirst("\"entries\"\\s*:\\s*\\[", "\"entries\":[null,"),
                whole.replaceFirst("\"limit\"\\s*:\\s*[0-9]+", "\"limit\":\"x\""))) {
            assertFalse(damage.equals(whole));
            Files.writeString(plan, damage);
            ToolResult r = call.apply("memory_consolidate", "{\"plan_id\": \"" + id + "\"}");
            assertTrue(r.isError(), r.text());
            assertTrue(r.text().startsWith("memory_consolidate: plan " + id + " is unreadable: damaged ("), r.text());
            assertFalse(JAVA.matcher(r.text()).find(), r.text());
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(mem)), "nothing written");
            assertEquals(damage, Files.readString(plan));
        }
        Files.writeString(plan, whole);
        assertFalse(
                call.apply("memory_consolidate", "{\"plan_id\": \"" + id + "\"}")
                        .isError(),
                "the whole plan applies");
    }

    @Test
    void stewardStatusNamesEveryStateFileItCannotRead() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path state = t.ctx.paths().stateDir();
        Files.writeString(t.home.resolve("config.yaml"), "memory:\n  write_approval: true\n");
        String staged = t.ok("memory_write", "{\"action\":\"add\",\"content\":\"[env] Uses fish\"}")
                .get("pending_id")
                .asString();
        JsonNode clean = t.ok("steward_status", "{}");
        Map<Path, String> damage = new java.util.LinkedHashMap<>();
        damage.put(state.resolve("preferences.json"), "[]");
        damage.put(state.resolve("recall/feedback.json"), "null");
        damage.put(state.resolve("recall/injections.json"), "{\"sessions\":");
        damage.put(state.resolve("memory/evidence.json"), "{\"version\":1,\"entries\":{\"k\":null}}");
        damage.put(state.resolve("settings.json"), "");
        damage.put(t.home.resolve("pending/memory/" + staged + ".json"), "null");
        for (var e : damage.entrySet()) {
            Files.createDirectories(e.getKey().getParent());
            Files.writeString(e.getKey(), e.getValue());
        }
        ToolResult r = t.call("steward_status", "{}");
        assertFalse(r.isError(), r.text());
        JsonNode w = t.ok("steward_status", "{}").get("warnings");
        assertEquals(clean.get("warnings").size() + damage.size(), w.size(), w.toString());
        for (Path f : damage.keySet()) {
            String name = f.getFileName().toString();
            assertTrue(
                    java.util.stream.StreamSupport.stream(w.spliterator(), false)
                            .anyMatch(
                                    x -> x.asString().contains(name.equals(staged + ".json") ? staged : f.toString())),
                    name + " in " + w);
            assertTrue(r.text().contains(name.equals(staged + ".json") ? staged : f.toString()), r.text());
        }
        for (JsonNode x : w) assertFalse(JAVA.matcher(x.asString()).find(), x.asString());
        for (var e : damage.entrySet())
            assertEquals(e.getValue(), Files.readString(e.getKey()), "status changes nothing");
    }

    @Test
    void anUnreadableMemoryJournalIsSetAsideAndReportedNotDeleted() throws Exception {
        ToolTestSupport t = consolidated(tmp);
        Path j = t.ctx.paths().stateDir().resolve("journal/mc_00000000000000aa");
        Files.createDirectories(j.resolve("staged"));
        Files.writeString(j.resolve("staged/0"), "[env] the bytes an interrupted change staged");
        String cut = "{\"id\":\"mc_00000000000000aa\",\"committed\":tr";
        Files.writeString(j.resolve("manifest.json"), cut);
        Path mem = t.home.resolve("memories/MEMORY.md");
        byte[] before = Files.readAllBytes(mem);
        ToolContext later =
                new ToolContext(t.ctx.paths(), Clock.offset(t.ctx.clock(), Duration.ofHours(2)), steward.Work.NONE);
        ToolResult log = t.registry.invoke(
                "memory_log", steward.json.Json.MAPPER.readTree("{\"note\": \"User deploys with fly.io\"}"), later);
        assertFalse(log.isError(), log.text());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(mem)));
        Path aside = j.resolveSibling(j.getFileName() + ".unreadable");
        assertTrue(Files.isDirectory(aside), "set aside, not deleted");
        assertEquals(cut, Files.readString(aside.resolve("manifest.json")));
        assertEquals("[env] the bytes an interrupted change staged", Files.readString(aside.resolve("staged/0")));
        JsonNode w = t.ok("steward_status", "{}").get("warnings");
        assertTrue(w.toString().contains(aside.toString()), w.toString());
        // later calls leave it where it is
        assertFalse(t.registry
                .invoke("memory_consolidate", steward.json.Json.MAPPER.readTree("{}"), later)
                .isError());
        assertTrue(Files.isDirectory(aside));
    }

    @Test
    void aDamagedApplyJournalMovesNoFileFromOutsideItsPlacesAndSaysWhyInWords() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path state = t.ctx.paths().stateDir();
        Path journal = Files.createDirectories(state.resolve("journal"));
        String id = "b_20260810T110000Z_0000aa";
        // a hand-edited or damaged journal naming a file outside Hermes' sessions dir, of a session that is gone
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere")).resolve("gone_session.json");
        Files.writeString(elsewhere, "the user's own file");
        Path into = state.resolve("backups/sessions/" + id + ".files/gone_session.json");
        Files.writeString(
                journal.resolve(id + ".json"),
                "{\"version\":1,\"kind\":\"apply\",\"plan_id\":\"p_00000000000000aa\",\"backup_id\":\"" + id
                        + "\",\"phase\":\"prepared\",\"started_at\":\"x\",\"pid\":1,\"ops\":[],\"moves\":[{"
                        + "\"session_id\":\"gone_session\",\"from\":\"" + elsewhere + "\",\"to\":\"" + into + "\"}]}");
        Files.writeString(journal.resolve("b_20260810T110000Z_0000bb.json"), "null");
        String plan = t.ok("session_audit", "{}").get("plan_id").asString();
        JsonNode r = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\"}");
        assertEquals("the user's own file", Files.readString(elsewhere), "left where it is");
        assertFalse(Files.exists(into));
        String notices = r.toString();
        assertTrue(notices.contains("b_20260810T110000Z_0000bb"), notices);
        assertFalse(JAVA.matcher(notices).find(), notices);
    }

    @Test
    void stateWrittenByANewerStewardIsNeverRewrittenByThisOne() throws Exception {
        ToolTestSupport t = consolidated(tmp);
        JsonNode inj = t.ok("recall_inject", "{\"context\":\"还记得我喜欢用中文回答吗？\",\"mode\":\"active\"}");
        String args = "{\"decision_id\":\"" + inj.get("decision_id").asString() + "\",\"uris\":[\""
                + inj.get("items").get(0).get("uri").asString() + "\"],\"outcome\":\"harmful\"}";
        Path fb = t.ctx.paths().stateDir().resolve("recall/feedback.json");
        String newer = "{\"version\":99,\"items\":{},\"entries\":[],\"calibration\":{},\"per_user\":{\"a\":1}}";
        Files.createDirectories(fb.getParent());
        Files.writeString(fb, newer);
        ToolResult r = t.call("recall_feedback", args);
        assertTrue(r.isError(), r.text());
        assertTrue(r.text().contains("newer"), r.text());
        assertEquals(newer, Files.readString(fb), "left as the newer version wrote it");
        Path ev = t.ctx.paths().stateDir().resolve("memory/evidence.json");
        String newerEv = "{\"version\":2,\"entries\":{},\"scopes\":{\"a\":1}}";
        Files.writeString(ev, newerEv);
        ToolResult h = t.call("memory_health", "{}");
        assertTrue(h.isError() && h.text().contains("newer"), h.text());
        assertEquals(newerEv, Files.readString(ev));
        JsonNode w = t.ok("steward_status", "{}").get("warnings");
        assertTrue(w.toString().contains(fb.toString()) && w.toString().contains(ev.toString()), w.toString());
    }

    @Test
    void damagedSettingsNeverTurnWriteApprovalOff() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        Path settings = t.ctx.paths().stateDir().resolve("settings.json");
        Files.createDirectories(settings.getParent());
        Files.writeString(settings, "{\"memory\": {\"write_approval\": true}}");
        assertTrue(t.ok("memory_write", "{\"action\":\"add\",\"content\":\"[env] Uses fish\"}")
                .get("staged")
                .asBoolean());
        Path mem = t.home.resolve("memories/MEMORY.md");
        byte[] before = Files.readAllBytes(mem);
        int pending = t.ok("memory_pending", "{}").get("count").asInt();
        for (String damage :
                List.of("", "{\"memory\": {\"write_appr", "[]", "{\"memory\": {\"write_approval\": \"yes\"}}")) {
            Files.writeString(settings, damage);
            ToolResult r = t.call("memory_write", "{\"action\":\"add\",\"content\":\"[env] Editor is Helix\"}");
            assertTrue(r.isError(), damage + ": " + r.text());
            assertTrue(
                    r.text().startsWith("memory_write: cannot tell whether write approval is on: " + settings),
                    r.text());
            assertTrue(r.text().contains("nothing was written"), r.text());
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(mem)), "MEMORY.md unchanged");
            assertEquals(damage, Files.readString(settings), "the file is left as it is");
        }
        Files.delete(settings);
        Files.createDirectory(settings);
        assertTrue(t.call("memory_write", "{\"action\":\"add\",\"content\":\"[env] Editor is Helix\"}")
                .isError());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(mem)));
        assertEquals(pending, t.ok("memory_pending", "{}").get("count").asInt(), "nothing staged either");
    }

    @Test
    void aDamagedHermesBackupLineIsNamedAndNothingIsRestored() throws Exception {
        ToolTestSupport t = new ToolTestSupport(tmp);
        String plan = t.ok("session_audit", "{}").get("plan_id").asString();
        String id = t.ok("session_apply", "{\"plan_id\":\"" + plan + "\"}")
                .get("backup")
                .get("backup_id")
                .asString();
        Path f = t.ctx.paths().stateDir().resolve("backups/sessions/" + id + ".jsonl");
        List<String> lines = Files.readAllLines(f);
        Path db = t.home.resolve("state.db");
        for (String bad : List.of("[]", "null", "{\"title\":\"no id\"}")) {
            List<String> damaged = new java.util.ArrayList<>(lines);
            damaged.set(1, bad);
            Files.write(f, damaged);
            byte[] before = Files.readAllBytes(db);
            ToolResult r = t.call("session_restore", "{\"backup_id\":\"" + id + "\"}");
            assertTrue(r.isError(), r.text());
            assertTrue(
                    r.text()
                            .startsWith("session_restore: backup " + id + " is unreadable: " + id
                                    + ".jsonl is damaged: line 2 "),
                    r.text());
            assertTrue(r.text().endsWith("nothing was restored (the backup is left as it is)"), r.text());
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(db)), "state.db unchanged");
            assertEquals(damaged, Files.readAllLines(f));
        }
    }
}
