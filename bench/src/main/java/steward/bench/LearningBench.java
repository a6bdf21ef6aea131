package steward.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.Work;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.Origin;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;

/**
 * Simulated users with hidden preferences (SimulatedUsers) answer Steward's questions over successive housekeeping
 * runs on a copy of the fixture that evolves between runs (EvolvingHome: time moves on, new sessions of every kind
 * arrive, existing ones go on). Every profile runs twice in the same command: with learning, and as the control arm
 * with an empty state dir before every run, so the drop that comes from working off the first run's backlog is not
 * counted as learning. Per profile it prints the questions asked per run (lines of the report that ask something),
 * the drop run 1→5 and the learning arm's run 5 against the control arm's, the automatic actions the profile would
 * have vetoed — all of them, and those after the profile had told Steward (it had kept that session, or rejected or
 * restored an item of that rule condition before) — and the sessions the profile kept that are gone.
 */
@Command(
        name = "learning",
        description =
                "Simulated users with hidden preferences over successive audit → apply runs on an evolving "
                        + "home, each with learning and as a control arm without it: questions per run, vetoed automatic actions, kept sessions lost.")
public final class LearningBench implements Callable<Integer> {
    @Option(names = "--runs", defaultValue = "6", description = "runs per profile and arm (default 6)")
    int runs;

    /** The generator was developed on seed 1; the default reports on a seed that was not used for tuning. */
    @Option(
            names = "--seed",
            split = ",",
            defaultValue = "20260811",
            description = "generator seed(s), comma-separated (default 20260811; tuned on 1)")
    List<Long> seeds;

    @Option(names = "--profile", description = "run only profiles whose name contains this")
    String only;

    @Option(names = "--verbose", description = "print what each report asked, per rule condition")
    boolean verbose;

    /** One arm of one profile. */
    record Arm(
            int[] questions,
            int automatic,
            int vetoed,
            int vetoedAfterTold,
            Set<String> keptLost,
            int restored,
            String ruleState) {}

    @Override
    public Integer call() throws Exception {
        if (runs < 5) {
            Printer.println("steward bench learning: --runs must be at least 5 (the targets compare run 5)");
            return 2;
        }
        Printer.println("steward bench learning: " + SimulatedUsers.ALL.size() + " simulated users × " + runs
                + " runs × 2 arms (learning; "
                + "control = empty state dir before every run) on a copy of fixtures/hermes-home that evolves between runs (1-3 days "
                + "pass; new subagent shells, long and titled and running subagents, short and long untitled chats, titled chats on "
                + "recurring topics, archived threads, parents of titled or running subagents, compression chains; existing sessions "
                + "end, get messages, get titled).");
        Printer.println(
                "question = one line of the report that asks for a decision now (a session asked by name, a rule's grouped line, a "
                        + "collapsed rule line, the one still-waiting line); listed-only items, status lines and put-off questions are not "
                        + "questions. Both arms count the same field, session_audit questions.asked.");
        boolean allOk = true;
        Map<String, List<Arm[]>> bySeed = new LinkedHashMap<>();
        for (long seed : seeds) {
            Printer.println("");
            Printer.println("seed " + seed);
            StringBuilder head = new StringBuilder(String.format("  %-30s %-8s", "profile", "arm"));
            for (int r = 1; r <= runs; r++) head.append(String.format(" %3s", "q" + r));
            head.append(String.format(
                    " %9s %8s %5s %6s %10s %5s %9s",
                    "drop 1→5", "5 vs ctl", "auto", "vetoed", "after told", "lost", "restored"));
            Printer.println(head.toString());
            for (SimulatedUsers.Profile p : SimulatedUsers.ALL) {
                if (only != null && !p.name().contains(only)) continue;
                Arm learn = simulate(p, seed, true);
                Arm control = simulate(p, seed, false);
                print(
                        p.name(),
                        "learning",
                        learn,
                        String.format("%7.0f%%", drop(control.questions()[4], learn.questions()[4])));
                print("", "control", control, String.format("%8s", ""));
                allOk &= verdict(p, learn, control);
                bySeed.computeIfAbsent(p.name(), k -> new ArrayList<>()).add(new Arm[] {learn, control});
            }
        }
        if (seeds.size() > 1) summary(bySeed);
        Printer.println("");
        Printer.println(allOk ? "all targets met" : "SOME TARGETS MISSED");
        return 0;
    }

    /** Over all seeds: per profile, run-5 questions summed over the seeds in each arm, and how many seeds met each target. */
    void summary(Map<String, List<Arm[]>> bySeed) {
        Printer.println("");
        Printer.println("over " + seeds.size()
                + " seeds: run-5 questions summed (learning vs control), seeds meeting the run-5 target, "
                + "vetoed after told, kept lost");
        for (var e : bySeed.entrySet()) {
            SimulatedUsers.Profile p = SimulatedUsers.ALL.stream()
                    .filter(x -> x.name().equals(e.getKey()))
                    .findFirst()
                    .orElseThrow();
            int l5 = 0, c5 = 0, met = 0, told = 0, lost = 0;
            for (Arm[] a : e.getValue()) {
                l5 += a[0].questions()[4];
                c5 += a[1].questions()[4];
                told += a[0].vetoedAfterTold();
                lost += a[0].keptLost().size();
                boolean ok = p.answers()
                        ? drop(a[1].questions()[4], a[0].questions()[4]) >= 50
                        : a[0].questions()[runs - 1] <= a[0].questions()[0];
                if (ok) met++;
            }
            Printer.println(String.format(
                    "  %-30s run 5: %3d vs %3d (%3.0f %% fewer)  target met on %d of %d seeds%s  vetoed after told %d  kept lost %d",
                    e.getKey(),
                    l5,
                    c5,
                    drop(c5, l5),
                    met,
                    e.getValue().size(),
                    p.answers() ? "" : " (no growth)",
                    told,
                    lost));
        }
    }

    /** One arm's row; {@code vsControl}: the learning arm's run-5 drop against the control arm's run 5 (blank for the control). */
    void print(String name, String arm, Arm a, String vsControl) {
        StringBuilder sb = new StringBuilder(String.format("  %-30s %-8s", name, arm));
        for (int q : a.questions()) sb.append(String.format(" %3d", q));
        sb.append(String.format(
                " %8.0f%% %s %5d %6d %10d %5d %9d",
                drop(a.questions()[0], a.questions()[4]),
                vsControl,
                a.automatic(),
                a.vetoed(),
                a.vetoedAfterTold(),
                a.keptLost().size(),
                a.restored()));
        Printer.println(sb.toString());
    }

    static double drop(int from, int to) {
        return from == 0 ? 0 : 100.0 * (from - to) / from;
    }

    /** The targets: 0 vetoed automatic actions after the user said so, 0 kept sessions lost; answering users' run 5 ≥ 50 % below the control's. */
    boolean verdict(SimulatedUsers.Profile p, Arm learn, Arm control) {
        List<String> missed = new ArrayList<>();
        if (learn.vetoedAfterTold() > 0)
            missed.add(learn.vetoedAfterTold() + " automatic actions vetoed after the user said so");
        if (!learn.keptLost().isEmpty()) missed.add("kept sessions lost: " + learn.keptLost());
        String q;
        if (p.answers()) {
            double vs = drop(control.questions()[4], learn.questions()[4]);
            q = String.format(
                    "run 5: %d questions vs %d in the control arm (%.0f %% fewer; target ≥ 50 %%)",
                    learn.questions()[4], control.questions()[4], vs);
            if (vs < 50) missed.add("run 5 only " + Math.round(vs) + " % below the control arm");
        } else {
            q = String.format(
                    "run %d: %d questions vs run 1: %d (target: no growth)",
                    runs, learn.questions()[runs - 1], learn.questions()[0]);
            if (learn.questions()[runs - 1] > learn.questions()[0]) missed.add("questions grew");
        }
        Printer.println("    " + q + "; rule state " + learn.ruleState()
                + (missed.isEmpty() ? "  ✓" : "  ✗ " + String.join("; ", missed)));
        return missed.isEmpty();
    }

    Arm simulate(SimulatedUsers.Profile p, long seed, boolean learning) throws Exception {
        Path tmp = Files.createTempDirectory("steward-bench-learning-");
        try {
            Path home = Fixtures.copyHermesHome(tmp);
            EvolvingHome h = new EvolvingHome(home.resolve("state.db"), seed);
            ToolRegistry reg = Tools.registry();
            SimulatedUsers.Memory m = new SimulatedUsers.Memory();
            int[] questions = new int[runs];
            int automatic = 0, vetoed = 0, afterTold = 0, restored = 0;
            Set<String> lost = new HashSet<>();
            Path state = tmp.resolve("state");
            ToolContext ctx = null;
            for (int run = 1; run <= runs; run++) {
                if (run > 1) h.advance(run);
                h.touchCurrent();
                if (!learning) FileTrees.delete(state);
                StewardPaths paths = new StewardPaths(home, Origin.FLAG, state, Origin.FLAG);
                ctx = new ToolContext(paths, Clock.fixed(h.now(), ZoneOffset.UTC), Work.NONE);
                JsonNode audit = call(
                        reg,
                        ctx,
                        "session_audit",
                        Map.of("now", h.now().toString(), "current_session_id", EvolvingHome.CURRENT));
                questions[run - 1] = audit.get("questions").get("asked").asInt();
                Map<String, EvolvingHome.Session> sessions = h.sessions();
                if (verbose) Printer.println("      " + (learning ? "L" : "C") + run + " " + describe(audit, sessions));
                Set<String> keptBefore = new HashSet<>(m.kept), vetoedBefore = new HashSet<>(m.vetoedConditions);
                SimulatedUsers.Answers a = SimulatedUsers.answer(p, audit, sessions, run, m);
                Map<String, Object> decisions = new LinkedHashMap<>();
                if (!a.items().isEmpty()) decisions.put("items", a.items());
                if (!a.rules().isEmpty()) decisions.put("rules", a.rules());
                if (!a.keepReasons().isEmpty()) decisions.put("keep_reasons", a.keepReasons());
                JsonNode applied = call(
                        reg,
                        ctx,
                        "session_apply",
                        Map.of(
                                "plan_id",
                                audit.get("plan_id").asString(),
                                "decisions",
                                decisions,
                                "current_session_id",
                                EvolvingHome.CURRENT));
                List<String> undo = new ArrayList<>();
                Set<String> undoConditions = new HashSet<>();
                for (JsonNode x : applied.get("automatic")) {
                    automatic++;
                    String id = x.get("session_id").asString();
                    EvolvingHome.Session s = sessions.get(id);
                    if (s == null
                            || p.wish(s, x.get("action").asString(), run, m).yes()) continue;
                    vetoed++;
                    if (keptBefore.contains(id)
                            || vetoedBefore.contains(x.get("condition").asString())) afterTold++;
                    if (p.restoresAutomatic()) {
                        undo.add(id);
                        undoConditions.add(x.get("condition").asString());
                    }
                }
                if (applied.get("automatic_left_out").asInt() > 0)
                    throw new IllegalStateException("automatic list truncated: raise MAX_LISTED");
                if (!undo.isEmpty()) {
                    JsonNode r = call(
                            reg,
                            ctx,
                            "session_restore",
                            Map.of(
                                    "backup_id",
                                    applied.get("backup").get("backup_id").asString(),
                                    "session_ids",
                                    undo));
                    restored += r.get("restored").size();
                    m.kept.addAll(undo);
                    m.vetoedConditions.addAll(undoConditions);
                }
                Set<String> now = h.sessions().keySet();
                for (String k : m.kept) if (!now.contains(k)) lost.add(k);
            }
            String state1 = learning
                    ? call(reg, ctx, "session_preferences", Map.of())
                            .get("rule_state")
                            .asString()
                    : "-";
            return new Arm(questions, automatic, vetoed, afterTold, lost, restored, state1);
        } finally {
            FileTrees.delete(tmp);
        }
    }

    /** What a report asked, per rule condition (for --verbose). */
    static String describe(JsonNode audit, Map<String, EvolvingHome.Session> sessions) {
        Map<String, Integer> listed = new TreeMap<>();
        JsonNode g = audit.get("groups");
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode rg : g.get("confirm")) rg.get("items").forEach(all::add);
        g.get("info").get("items").forEach(all::add);
        Map<String, Set<String>> grouped = new TreeMap<>();
        for (JsonNode it : all) {
            String qn = it.path("question").asString("");
            if ("new".equals(qn)) {
                String k = it.get("condition").asString();
                if (it.get("takes_along").isArray()) {
                    Set<String> kinds = new TreeSet<>();
                    for (JsonNode c : it.get("takes_along")) {
                        EvolvingHome.Session cs = sessions.get(c.asString());
                        kinds.add(cs == null ? "?" : cs.active() ? "running" : cs.titled() ? "titled" : "other");
                    }
                    k += "+" + String.join("/", kinds);
                }
                listed.merge(k, 1, Integer::sum);
            } else if ("grouped".equals(qn)) {
                grouped.computeIfAbsent(
                                it.get("rule").asString() + ":"
                                        + it.path("condition").asString(""),
                                k -> new TreeSet<>())
                        .add(
                                it.get("rule").asString().equals("E")
                                        ? topicOf(it)
                                        : it.get("session_id").asString());
            }
        }
        JsonNode q = audit.get("questions");
        return "asked " + listed + " grouped " + grouped + " waiting "
                + q.get("waiting").asInt() + " collapsed " + q.get("collapsed").asInt()
                + " status " + q.get("status").asInt() + " not asked "
                + q.get("not_asked").asInt() + " (" + q.get("digest").asString("") + ") auto "
                + g.get("auto").get("count").asInt()
                + " active " + audit.get("totals").get("active").asInt() + " N "
                + audit.get("threshold").asDouble();
    }

    private static String topicOf(JsonNode it) {
        String r = it.get("reason").asString("");
        int a = r.indexOf('"'), b = a < 0 ? -1 : r.indexOf('"', a + 1);
        return b > a ? r.substring(a + 1, b) : r;
    }

    static JsonNode call(ToolRegistry reg, ToolContext ctx, String tool, Map<String, Object> args) {
        ToolResult r = reg.invoke(tool, Json.MAPPER.valueToTree(args), ctx);
        if (r.isError()) throw new IllegalStateException(tool + ": " + r.text());
        return ToolRegistry.toJson(r.structured());
    }

    static Instant start() {
        return EvolvingHome.START;
    }
}
