package steward.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.Work;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import steward.sessions.store.Sqlite;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Simulated users with hidden preferences answer Steward's questions over successive housekeeping runs
 * on an evolving copy of the fixture (new sessions arrive between runs). Per user and run it prints the
 * questions asked (items in confirm/info that need an answer), the automatic actions, and the automatic
 * actions that user would have rejected; then the checks against the targets.
 */
@Command(name = "learning", description = "Simulated users over successive audit → apply runs: questions, automatic actions, unwanted automatic actions.")
public final class LearningBench implements Callable<Integer> {
    @Option(names = "--runs", defaultValue = "6", description = "runs per user (default 6)")
    int runs;

    static final String NOW = "2026-08-10T12:00:00Z";
    static final String CURRENT = "20260810_071500_a6a3a4";

    /** A user: a hidden wish per item, and whether their answers are consistent. */
    interface User {
        String name();

        /** true: this user wants the proposed action; false: they would keep the session / say no. */
        boolean wants(JsonNode item, int run);

        default boolean consistent() {
            return true;
        }

        default Double threshold() {
            return null;
        }
    }

    static boolean longUntitled(JsonNode it) {
        JsonNode ev = it.get("evidence");
        return ev.get("title").isNull() && ev.get("message_count").asInt() > 10;
    }

    static final List<User> USERS = List.of(
            new User() {
                public String name() { return "approves everything"; }
                public boolean wants(JsonNode it, int run) { return true; }
            },
            new User() {
                public String name() { return "keeps every long untitled session"; }
                public boolean wants(JsonNode it, int run) { return !(it.get("action").asString().contains("delete") && longUntitled(it)); }
            },
            new User() {
                public String name() { return "wants at most 2 active sessions"; }
                public boolean wants(JsonNode it, int run) { return true; }
                public Double threshold() { return 2.0; }
            },
            new User() {
                public String name() { return "contradicts themself on B/long"; }
                public boolean wants(JsonNode it, int run) { return !it.get("condition").asString().equals("B/long") || run % 2 == 1; }
                public boolean consistent() { return false; }
            });

    record RunStats(int questions, int auto, int autoUnwanted, int autoUnwantedAfterVeto) {}

    @Override
    public Integer call() throws Exception {
        Printer.println("steward bench learning: " + USERS.size() + " simulated users × " + runs + " runs on a copy of fixtures/hermes-home; "
                + "new sessions arrive before every run after the first (3 shells, 1 long untitled subagent, 2 short + 2 long ended untitled, "
                + "1 active untitled subagent, 1 stale titled active)");
        boolean allOk = true;
        for (User u : USERS) allOk &= simulate(u);
        Printer.println(allOk ? "all targets met" : "SOME TARGETS MISSED");
        return 0;
    }

    boolean simulate(User u) throws Exception {
        Path tmp = Files.createTempDirectory("steward-bench-learning-");
        Path home = Fixtures.copyHermesHome(tmp);
        ToolRegistry reg = Tools.registry();
        ToolContext ctx = new ToolContext(StewardPaths.of(home), Clock.fixed(Instant.parse(NOW), ZoneOffset.UTC), Work.NONE);
        if (u.threshold() != null) call(reg, ctx, "session_preferences", Map.of("action", "set_threshold", "value", u.threshold()));
        Printer.println("");
        Printer.println("user: " + u.name());
        Printer.println(String.format("  %-4s %10s %6s %22s %28s", "run", "questions", "auto", "auto user would reject", "…of a condition vetoed before"));
        List<RunStats> stats = new ArrayList<>();
        Set<String> vetoed = new HashSet<>();
        for (int run = 1; run <= runs; run++) {
            if (run > 1) arrivals(home.resolve("state.db"), run);
            JsonNode audit = call(reg, ctx, "session_audit", Map.of("now", NOW, "current_session_id", CURRENT, "max_items_per_group", 500));
            Map<String, String> decisions = new LinkedHashMap<>();
            int questions = 0, unwanted = 0, unwantedAfterVeto = 0;
            List<JsonNode> auto = list(audit.get("groups").get("auto").get("items"));
            Set<String> vetoedNow = new HashSet<>();
            for (JsonNode it : auto) {
                if (!u.wants(it, run)) {
                    unwanted++;
                    if (vetoed.contains(it.get("condition").asString())) unwantedAfterVeto++;
                    decisions.put(it.get("item_id").asString(), "reject"); // the user sees the list and stops it
                    vetoedNow.add(it.get("condition").asString());
                }
            }
            List<JsonNode> asked = new ArrayList<>();
            for (JsonNode g : audit.get("groups").get("confirm")) asked.addAll(list(g.get("items")));
            asked.addAll(list(audit.get("groups").get("info").get("items")));
            for (JsonNode it : asked) {
                if (!it.get("executable").asBoolean() && !it.get("rule").asString().equals("E")) continue; // reported only, nothing to answer
                questions++;
                boolean yes = u.wants(it, run);
                decisions.put(it.get("item_id").asString(), yes ? "approve" : "reject");
                if (!yes) vetoedNow.add(it.get("condition").asString());
            }
            call(reg, ctx, "session_apply", Map.of("plan_id", audit.get("plan_id").asString(), "decisions", Map.of("items", decisions),
                    "current_session_id", CURRENT));
            vetoed.addAll(vetoedNow);
            stats.add(new RunStats(questions, auto.size(), unwanted, unwantedAfterVeto));
            Printer.println(String.format("  %-4d %10d %6d %22d %28d", run, questions, auto.size(), unwanted, unwantedAfterVeto));
        }
        JsonNode prefs = call(reg, ctx, "session_preferences", Map.of());
        Printer.println("  rule state: " + prefs.get("rule_state").asString());
        boolean ok = true;
        int after = stats.stream().mapToInt(RunStats::autoUnwantedAfterVeto).sum();
        Printer.println("  automatic actions of an already-vetoed condition the user would reject: " + after + " (target 0)");
        ok &= after == 0;
        if (u.consistent() && runs >= 5) {
            double drop = 1.0 - (double) stats.get(4).questions() / Math.max(1, stats.get(0).questions());
            Printer.println(String.format("  questions run 1 → run 5: %d → %d, fall %.0f %% (target ≥ 60 %%)", stats.get(0).questions(),
                    stats.get(4).questions(), drop * 100));
            ok &= drop >= 0.6;
        }
        if (!u.consistent()) {
            boolean locked = false;
            for (JsonNode r : prefs.get("rules")) if (r.get("key").asString().equals("B/long")) locked = r.get("locked").asBoolean() && r.get("level").asString().equals("LOW");
            Printer.println("  B/long locked at LOW: " + locked + " (target true)");
            ok &= locked;
        }
        FileTrees.delete(tmp);
        return ok;
    }

    static List<JsonNode> list(JsonNode arr) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode n : arr) out.add(n);
        return out;
    }

    static JsonNode call(ToolRegistry reg, ToolContext ctx, String tool, Map<String, Object> args) {
        ToolResult r = reg.invoke(tool, Json.MAPPER.valueToTree(args), ctx);
        if (r.isError()) throw new IllegalStateException(tool + ": " + r.text());
        ObjectNode n = ToolRegistry.toJson(r.structured());
        return n;
    }

    /** New sessions between runs, written as Hermes writes them (BEGIN IMMEDIATE; messages fire the FTS triggers). */
    static void arrivals(Path db, int run) throws Exception {
        double now = Instant.parse(NOW).getEpochSecond();
        String parent = "20260702_112900_0becd7";
        List<Object[]> s = new ArrayList<>();
        int k = 0;
        // id, source, title, parent, ended?, messages, idle hours
        for (int i = 0; i < 3; i++) s.add(new Object[] {id(run, k++), "subagent", null, parent, true, 2 + i, 30.0});
        s.add(new Object[] {id(run, k++), "subagent", null, parent, true, 14, 30.0});
        for (int i = 0; i < 2; i++) s.add(new Object[] {id(run, k++), "telegram", null, null, true, 3 + i, 50.0});
        for (int i = 0; i < 2; i++) s.add(new Object[] {id(run, k++), "cli", null, null, true, 20 + i, 60.0});
        s.add(new Object[] {id(run, k++), "subagent", null, parent, false, 3, 20.0});
        s.add(new Object[] {id(run, k++), "tui", "Arrival topic r" + run, null, false, 9, 24 * 5.0});
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                try (PreparedStatement ps = x.prepareStatement("INSERT INTO sessions (id, source, title, parent_session_id, model_config, "
                        + "started_at, ended_at, end_reason, message_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
                     PreparedStatement pm = x.prepareStatement("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")) {
                    for (Object[] r : s) {
                        double last = now - (Double) r[6] * 3600;
                        int n = (Integer) r[5];
                        double started = last - n * 60 - 60;
                        ps.setString(1, (String) r[0]);
                        ps.setString(2, (String) r[1]);
                        ps.setString(3, (String) r[2]);
                        ps.setString(4, (String) r[3]);
                        ps.setString(5, r[3] == null ? null : "{\"_delegate_from\": \"" + r[3] + "\"}");
                        ps.setDouble(6, started);
                        if ((Boolean) r[4]) ps.setDouble(7, last + 30); else ps.setNull(7, Types.REAL);
                        ps.setString(8, (Boolean) r[4] ? "cli_close" : null);
                        ps.setInt(9, n);
                        ps.executeUpdate();
                        for (int m = 0; m < n; m++) {
                            pm.setString(1, (String) r[0]);
                            pm.setString(2, m % 2 == 0 ? "user" : "assistant");
                            pm.setString(3, "arrival message " + m);
                            pm.setDouble(4, started + (m + 1) * 60);
                            pm.executeUpdate();
                        }
                    }
                }
                return null;
            });
        }
    }

    static String id(int run, int k) {
        return String.format("202608%02d_0%d%02d00_%06x", 10, run, k, run * 100 + k);
    }
}
